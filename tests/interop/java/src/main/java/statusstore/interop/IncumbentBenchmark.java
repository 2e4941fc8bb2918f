package statusstore.interop;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.runtime.AbstractStatus;
import org.apache.kafka.connect.runtime.TaskStatus;
import org.apache.kafka.connect.storage.KafkaStatusBackingStore;
import org.apache.kafka.connect.util.ConnectorTaskId;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Kafka Connect's KafkaStatusBackingStore as the incumbent of issue 7's scenario 5, timed on a real
 * broker. Keys are task statuses: key k is task k % 8 of connector "bench-connector-(k / 8)"; update i
 * goes to key i % keys with generation i / keys, RUNNING (PAUSED every fifth), worker
 * "bench-worker-1:8083".
 */
final class IncumbentBenchmark {
    static final int TASKS_PER_CONNECTOR = 8;

    /**
     * U puts through KafkaStatusBackingStore.put as fast as it accepts them, then flush(): the
     * producer's flush, which returns once every record sent is acknowledged (the store has no other
     * completion signal; a healthy broker needs no retry, and a non-retriable failure would be logged
     * at ERROR on stderr). The statuses are built before the clock starts.
     */
    static ObjectNode put(String bootstrap, String topic, int updates, int keys) {
        if (updates < 1 || keys < 1) throw new IllegalArgumentException("UPDATES and KEYS must be positive");
        List<TaskStatus> statuses = new ArrayList<>(updates);
        for (int i = 0; i < updates; i++) {
            AbstractStatus.State state = i % 5 == 0 ? AbstractStatus.State.PAUSED : AbstractStatus.State.RUNNING;
            statuses.add(new TaskStatus(taskId(i % keys), state, "bench-worker-1:8083", i / keys));
        }
        try (ConnectWorkerStore worker = new ConnectWorkerStore(bootstrap, topic)) {
            worker.start();
            KafkaStatusBackingStore store = worker.store;
            long started = System.nanoTime();
            for (TaskStatus status : statuses) store.put(status);
            double acceptSeconds = secondsSince(started);
            store.flush();
            double seconds = secondsSince(started);
            ObjectNode result = InteropDriver.JSON.createObjectNode();
            result.put("updates", updates);
            result.put("keys", keys);
            result.put("seconds", seconds);
            result.put("per_second", updates / seconds);
            result.put("accept_seconds", acceptSeconds);
            return result;
        }
    }

    /**
     * The time start() takes until the view is complete: start() creates or verifies the topic, then
     * reads it to the end offsets it saw before returning (KafkaBasedLog.start), as a worker does at
     * start-up. Constructing and configuring the store (which asks the cluster for its id) is not
     * timed. "records" counts the offsets the replay covers (end - beginning over all partitions).
     * With {@code keys} > 0 (a topic bench-put wrote), "tasks_in_view" counts how many of those keys'
     * task statuses the view holds afterwards: all of them when the replay is complete.
     */
    static ObjectNode replay(String bootstrap, String topic, int keys) {
        long records = offsetsOnTopic(bootstrap, topic);
        try (ConnectWorkerStore worker = new ConnectWorkerStore(bootstrap, topic)) {
            long started = System.nanoTime();
            worker.start();
            double seconds = secondsSince(started);
            ObjectNode result = InteropDriver.JSON.createObjectNode();
            result.put("records", records);
            result.put("seconds", seconds);
            result.put("per_second", records / seconds);
            if (keys > 0) {
                int inView = 0;
                for (int key = 0; key < keys; key++) {
                    if (worker.store.get(taskId(key)) != null) inView++;
                }
                result.put("keys", keys);
                result.put("tasks_in_view", inView);
            }
            return result;
        }
    }

    static ConnectorTaskId taskId(int key) {
        return new ConnectorTaskId("bench-connector-" + key / TASKS_PER_CONNECTOR, key % TASKS_PER_CONNECTOR);
    }

    /** Offsets the topic holds: end minus beginning, over every partition. */
    static long offsetsOnTopic(String bootstrap, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "interop-bench-offsets");
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(60)))
                partitions.add(new TopicPartition(topic, info.partition()));
            if (partitions.isEmpty()) throw new IllegalStateException("topic '" + topic + "' does not exist");
            Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions, Duration.ofSeconds(60));
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(60));
            long total = 0;
            for (TopicPartition p : partitions) total += end.get(p) - begin.get(p);
            return total;
        }
    }

    private static double secondsSince(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    private IncumbentBenchmark() {
    }
}
