package statusstore.interop;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The status topic as bytes, read by a plain KafkaConsumer (all partitions assigned from the beginning,
 * no group): which partition each record is on, and which partition Java's producer picks for its key
 * (BuiltInPartitioner.partitionForKey, the default partitioner's keyed path:
 * toPositive(murmur2(keyBytes)) % partitionCount).
 */
final class RawTopic {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    /** Prints one JSON line per record; false if any record is not on its key's partition. */
    static boolean printRecords(String bootstrap, String topic) throws IOException {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "interop-raw-reader");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        boolean allOnTheirPartition = true;
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, READ_TIMEOUT);
            if (infos == null || infos.isEmpty()) throw new IllegalStateException("topic '" + topic + "' has no partitions");
            int partitionCount = infos.size();
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : infos) partitions.add(new TopicPartition(topic, info.partition()));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, READ_TIMEOUT);

            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (!reachedEnd(consumer, end)) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("did not reach the end of '" + topic + "' in " + READ_TIMEOUT);
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    int keyPartition = BuiltInPartitioner.partitionForKey(record.key(), partitionCount);
                    if (keyPartition != record.partition()) {
                        allOnTheirPartition = false;
                        System.err.printf("interop-driver: key '%s' is on partition %d, Java's producer puts it on %d%n",
                                new String(record.key(), StandardCharsets.UTF_8), record.partition(), keyPartition);
                    }
                    ObjectNode line = InteropDriver.JSON.createObjectNode();
                    line.put("partition", record.partition());
                    line.put("offset", record.offset());
                    line.put("key", new String(record.key(), StandardCharsets.UTF_8));
                    if (record.value() == null) line.putNull("value");
                    else line.put("value", new String(record.value(), StandardCharsets.UTF_8));
                    line.put("key_partition", keyPartition);
                    line.put("partitions", partitionCount);
                    InteropDriver.printLine(line);
                }
            }
        }
        return allOnTheirPartition;
    }

    private static boolean reachedEnd(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) return false;
        }
        return true;
    }

    private RawTopic() {
    }
}
