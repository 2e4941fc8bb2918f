package statusstore.interop;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;
import org.apache.kafka.connect.runtime.distributed.DistributedConfig;
import org.apache.kafka.connect.storage.KafkaStatusBackingStore;
import org.apache.kafka.connect.util.ConnectUtils;
import org.apache.kafka.connect.util.SharedTopicAdmin;

import java.util.HashMap;
import java.util.Map;

/**
 * Kafka Connect's own KafkaStatusBackingStore, built the way a distributed worker builds it
 * (ConnectDistributed.createHerder in connect-runtime 4.4): a DistributedConfig from worker
 * properties, the worker's client id base, one shared topic admin named "<base>shared-admin", and the
 * worker's internal value converter (JsonConverter with schemas.enable=false, configured as a value
 * converter). Nothing of the store itself is replaced or mocked.
 */
final class ConnectWorkerStore implements AutoCloseable {
    final KafkaStatusBackingStore store;
    private final SharedTopicAdmin sharedAdmin;

    /** The properties of a minimal distributed worker using {@code statusTopic}. */
    static Map<String, String> workerProperties(String bootstrap, String statusTopic) {
        Map<String, String> props = new HashMap<>();
        props.put("bootstrap.servers", bootstrap);
        props.put("group.id", "interop-connect");
        props.put("key.converter", JsonConverter.class.getName());
        props.put("value.converter", JsonConverter.class.getName());
        // Required by DistributedConfig; the status store never touches these two topics.
        props.put("config.storage.topic", "interop-connect-configs");
        props.put("offset.storage.topic", "interop-connect-offsets");
        props.put("status.storage.topic", statusTopic);
        // Connect's default partition count, spelled out: the partitioning checks rely on several.
        props.put("status.storage.partitions", "5");
        // The test brokers of scripts/kafka-local.sh run one node (Connect's default is 3).
        props.put("status.storage.replication.factor", "1");
        return props;
    }

    ConnectWorkerStore(String bootstrap, String statusTopic) {
        DistributedConfig config = new DistributedConfig(workerProperties(bootstrap, statusTopic));
        String kafkaClusterId = config.kafkaClusterId();
        String clientIdBase = ConnectUtils.clientIdBase(config);

        Map<String, Object> adminProps = new HashMap<>(config.originals());
        ConnectUtils.addMetricsContextProperties(adminProps, config, kafkaClusterId);
        adminProps.put(AdminClientConfig.CLIENT_ID_CONFIG, clientIdBase + "shared-admin");
        sharedAdmin = new SharedTopicAdmin(adminProps);

        JsonConverter internalValueConverter = new JsonConverter();
        internalValueConverter.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "false"), false);

        store = new KafkaStatusBackingStore(Time.SYSTEM, internalValueConverter, sharedAdmin, clientIdBase);
        store.configure(config);
    }

    /** Creates or verifies the topic and reads it to its end, as the herder's start does. */
    void start() {
        store.start();
    }

    @Override
    public void close() {
        try {
            store.stop();
        } finally {
            sharedAdmin.close();
        }
    }
}
