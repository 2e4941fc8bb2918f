package statusstore.interop;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.connect.runtime.AbstractStatus;
import org.apache.kafka.connect.runtime.TaskStatus;
import org.apache.kafka.connect.storage.KafkaStatusBackingStore;
import org.apache.kafka.connect.util.ConnectorTaskId;

import java.util.ArrayList;
import java.util.List;

/**
 * The rebalance burst of the benchmark (bench/rebalance_burst_scenario.cpp) through Kafka Connect's
 * own KafkaStatusBackingStore: C connectors x 8 tasks RUNNING on worker-a at generation 1 go
 * UNASSIGNED through putSafe (as Connect's Worker reports a stopped task) and then RUNNING on worker-b
 * at generation 2. Timed from the first putSafe until flush() returns (every record acknowledged);
 * "records" counts what the burst added to the topic (offsets before and after).
 */
final class RebalanceBurstBenchmark {
    private static final int TASKS_PER_CONNECTOR = 8;

    static ObjectNode run(String bootstrap, String topic, int connectors) throws InterruptedException {
        if (connectors < 1) throw new IllegalArgumentException("CONNECTORS must be positive");
        List<ConnectorTaskId> ids = new ArrayList<>(connectors * TASKS_PER_CONNECTOR);
        for (int c = 0; c < connectors; c++)
            for (int t = 0; t < TASKS_PER_CONNECTOR; t++) ids.add(new ConnectorTaskId("bench-connector-" + c, t));
        try (ConnectWorkerStore worker = new ConnectWorkerStore(bootstrap, topic)) {
            worker.start();
            KafkaStatusBackingStore store = worker.store;
            for (ConnectorTaskId id : ids) store.put(new TaskStatus(id, AbstractStatus.State.RUNNING, "worker-a:8083", 1));
            store.flush();
            // putSafe decides on the store's cache, which its own records fill as they are read back.
            long deadline = System.nanoTime() + 120_000_000_000L;
            for (ConnectorTaskId id : ids) {
                while (store.get(id) == null) {
                    if (System.nanoTime() > deadline) throw new IllegalStateException("statuses never read back");
                    Thread.sleep(10);
                }
            }
            long before = IncumbentBenchmark.offsetsOnTopic(bootstrap, topic);
            long started = System.nanoTime();
            for (ConnectorTaskId id : ids)
                store.putSafe(new TaskStatus(id, AbstractStatus.State.UNASSIGNED, "worker-a:8083", 1));
            for (ConnectorTaskId id : ids) store.put(new TaskStatus(id, AbstractStatus.State.RUNNING, "worker-b:8083", 2));
            store.flush();
            double seconds = (System.nanoTime() - started) / 1e9;
            ObjectNode result = InteropDriver.JSON.createObjectNode();
            result.put("keys", ids.size());
            result.put("seconds", seconds);
            result.put("records", IncumbentBenchmark.offsetsOnTopic(bootstrap, topic) - before);
            return result;
        }
    }

    private RebalanceBurstBenchmark() {
    }
}
