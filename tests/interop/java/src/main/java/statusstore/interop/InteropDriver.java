package statusstore.interop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.apache.kafka.connect.runtime.AbstractStatus;
import org.apache.kafka.connect.runtime.ConnectorStatus;
import org.apache.kafka.connect.runtime.TaskStatus;
import org.apache.kafka.connect.runtime.TopicStatus;
import org.apache.kafka.connect.storage.KafkaStatusBackingStore;
import org.apache.kafka.connect.util.ConnectorTaskId;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Drives Kafka Connect's real KafkaStatusBackingStore for the interop tests of status-store.
 *
 * <pre>
 *   version                              the Kafka version of the connect-runtime on the class path
 *   write   BOOTSTRAP TOPIC OPS_FILE     start the store, apply the operations (JSON lines), flush, stop
 *   read    BOOTSTRAP TOPIC [NAMES_FILE] start the store (it reads the topic to its end) and print its
 *                                        view of connectors() plus the connectors named in NAMES_FILE
 *                                        (UTF-8, one per line) as one JSON object
 *   records BOOTSTRAP TOPIC              every record of the topic with a plain consumer, one JSON line
 *                                        each, with the partition Java's producer picks for its key;
 *                                        exit 1 if any record is on another partition
 *   bench-put    BOOTSTRAP TOPIC UPDATES KEYS   issue 7's incumbent: UPDATES task-status puts over KEYS
 *                                               keys until all are acknowledged, one JSON line
 *   bench-replay BOOTSTRAP TOPIC [KEYS]         issue 7's incumbent: start() until the view is
 *                                               complete, one JSON line (KEYS: check that the view
 *                                               holds bench-put's KEYS task statuses)
 *   bench-rebalance BOOTSTRAP TOPIC CONNECTORS  the benchmark's rebalance burst: CONNECTORS x 8 tasks
 *                                               UNASSIGNED (putSafe), then RUNNING, until acknowledged
 * </pre>
 *
 * An operation is one JSON object per line, applied in order:
 * <pre>
 *   {"op":"put"|"put-safe", "connector":C, ["task":N,] "state":S, "trace":T|null, "worker_id":W,
 *    "generation":G, ["version":V]}          a connector status, or a task status when "task" is given;
 *                                            state DESTROYED is a tombstone, as the herder writes on deletion
 *   {"op":"put-topic", "connector":C, "topic":T, "task":N, "discover_timestamp":MS}
 *   {"op":"delete-topic", "connector":C, "topic":T}
 *   {"op":"flush"}                           wait until everything sent so far is acknowledged
 * </pre>
 * Names travel in files, not arguments: the JVM decodes arguments with the locale's charset, which is
 * ASCII where no locale is set, and the tests use non-ASCII names.
 * Exit codes: 0 done, 1 failed (the error on stderr), 2 bad usage.
 */
public final class InteropDriver {
    static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) {
        try {
            System.exit(run(args));
        } catch (Exception e) {
            System.err.println("interop-driver: error: " + e);
            e.printStackTrace(System.err);
            System.exit(1);
        }
    }

    private static int run(String[] args) throws Exception {
        String command = args.length == 0 ? "help" : args[0];
        switch (command) {
            case "version":
                System.out.println(AppInfoParser.getVersion());
                return 0;
            case "write":
                if (args.length != 4) return usage();
                write(args[1], args[2], Path.of(args[3]));
                return 0;
            case "read":
                if (args.length != 3 && args.length != 4) return usage();
                List<String> names = args.length == 4 ? nonBlankLines(Path.of(args[3])) : List.of();
                printLine(read(args[1], args[2], names));
                return 0;
            case "records":
                if (args.length != 3) return usage();
                return RawTopic.printRecords(args[1], args[2]) ? 0 : 1;
            case "bench-put":
                if (args.length != 5) return usage();
                printLine(IncumbentBenchmark.put(args[1], args[2], Integer.parseInt(args[3]), Integer.parseInt(args[4])));
                return 0;
            case "bench-replay":
                if (args.length != 3 && args.length != 4) return usage();
                printLine(IncumbentBenchmark.replay(args[1], args[2], args.length == 4 ? Integer.parseInt(args[3]) : 0));
                return 0;
            case "bench-rebalance":
                if (args.length != 4) return usage();
                printLine(RebalanceBurstBenchmark.run(args[1], args[2], Integer.parseInt(args[3])));
                return 0;
            case "help":
            case "--help":
                System.out.println(USAGE);
                return 0;
            default:
                return usage();
        }
    }

    static final String USAGE = String.join("\n",
            "usage: java -jar status-store-interop.jar COMMAND ...",
            "  version                                  Kafka version of the connect-runtime in use",
            "  write   BOOTSTRAP TOPIC OPS_FILE         apply status operations (JSON lines) through KafkaStatusBackingStore",
            "  read    BOOTSTRAP TOPIC [NAMES_FILE]     print KafkaStatusBackingStore's view of the topic (and of the named connectors) as JSON",
            "  records BOOTSTRAP TOPIC                  print every record with its partition and Java's partition for its key",
            "  bench-put    BOOTSTRAP TOPIC UPDATES KEYS   time UPDATES task-status puts over KEYS keys until all are acknowledged",
            "  bench-replay BOOTSTRAP TOPIC [KEYS]         time start() until the view of the topic is complete",
            "  bench-rebalance BOOTSTRAP TOPIC CONNECTORS  time CONNECTORS x 8 tasks going UNASSIGNED (putSafe), then RUNNING");

    private static int usage() {
        System.err.println(USAGE);
        return 2;
    }

    static void printLine(JsonNode node) throws IOException {
        System.out.write(JSON.writeValueAsBytes(node));
        System.out.write('\n');
        System.out.flush();
    }

    // ---- write ----------------------------------------------------------------------------------

    private static void write(String bootstrap, String topic, Path opsFile) throws IOException {
        List<JsonNode> ops = new ArrayList<>();
        for (String line : nonBlankLines(opsFile)) ops.add(JSON.readTree(line));
        try (ConnectWorkerStore worker = new ConnectWorkerStore(bootstrap, topic)) {
            // A worker starts its store before reporting anything: putSafe then judges by what the topic
            // already holds.
            worker.start();
            for (JsonNode op : ops) apply(worker.store, op);
            // producer.flush(): returns once every record sent so far is acknowledged (or failed, which the
            // store logs at ERROR on stderr).
            worker.store.flush();
        }
    }

    private static List<String> nonBlankLines(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) lines.add(line);
        }
        return lines;
    }

    private static void apply(KafkaStatusBackingStore store, JsonNode op) {
        String kind = text(op, "op");
        if (kind.equals("flush")) {
            store.flush();
            return;
        }
        String connector = text(op, "connector");
        switch (kind) {
            case "put":
            case "put-safe": {
                boolean safe = kind.equals("put-safe");
                AbstractStatus.State state = AbstractStatus.State.valueOf(text(op, "state"));
                String trace = op.path("trace").isNull() || op.path("trace").isMissingNode() ? null : text(op, "trace");
                String workerId = text(op, "worker_id");
                int generation = op.required("generation").intValue();
                String version = op.path("version").isTextual() ? op.get("version").textValue() : null;
                if (op.has("task")) {
                    ConnectorTaskId id = new ConnectorTaskId(connector, op.get("task").intValue());
                    TaskStatus status = new TaskStatus(id, state, workerId, generation, trace, version);
                    if (safe) store.putSafe(status); else store.put(status);
                } else {
                    ConnectorStatus status = new ConnectorStatus(connector, state, trace, workerId, generation, version);
                    if (safe) store.putSafe(status); else store.put(status);
                }
                return;
            }
            case "put-topic":
                store.put(new TopicStatus(text(op, "topic"), connector, op.required("task").intValue(),
                        op.required("discover_timestamp").longValue()));
                return;
            case "delete-topic":
                store.deleteTopic(connector, text(op, "topic"));
                return;
            default:
                throw new IllegalArgumentException("unknown op '" + kind + "' in " + op);
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.required(field);
        if (!value.isTextual()) throw new IllegalArgumentException("'" + field + "' is not a string in " + node);
        return value.textValue();
    }

    // ---- read -----------------------------------------------------------------------------------

    /**
     * The store's whole view, through its public getters only: every connector it lists plus the named
     * ones (a connector whose connector status was deleted may still have tasks or topics), sorted.
     */
    static ObjectNode read(String bootstrap, String topic, List<String> connectors) {
        try (ConnectWorkerStore worker = new ConnectWorkerStore(bootstrap, topic)) {
            worker.start();
            return view(worker.store, connectors);
        }
    }

    static ObjectNode view(KafkaStatusBackingStore store, List<String> extraConnectors) {
        TreeSet<String> names = new TreeSet<>(store.connectors());
        names.addAll(extraConnectors);
        ObjectNode root = JSON.createObjectNode();
        ArrayNode connectors = root.putArray("connectors");
        for (String name : names) {
            ObjectNode entry = connectors.addObject();
            entry.put("name", name);
            ConnectorStatus status = store.get(name);
            if (status == null) entry.putNull("status"); else putStatus(entry.putObject("status"), status);

            ArrayNode tasks = entry.putArray("tasks");
            List<TaskStatus> taskStatuses = new ArrayList<>(store.getAll(name));
            taskStatuses.sort(Comparator.comparingInt(t -> t.id().task()));
            for (TaskStatus task : taskStatuses) {
                ObjectNode t = tasks.addObject();
                t.put("task", task.id().task());
                putStatus(t, task);
            }

            ArrayNode topics = entry.putArray("topics");
            List<TopicStatus> topicStatuses = new ArrayList<>(store.getAllTopics(name));
            topicStatuses.sort(Comparator.comparing(TopicStatus::topic));
            for (TopicStatus topicStatus : topicStatuses) {
                ObjectNode t = topics.addObject();
                t.put("topic", topicStatus.topic());
                t.put("connector", topicStatus.connector());
                t.put("task", topicStatus.task());
                t.put("discover_timestamp", topicStatus.discoverTimestamp());
            }
        }
        return root;
    }

    private static void putStatus(ObjectNode node, AbstractStatus<?> status) {
        node.put("state", status.state().name());
        node.put("trace", status.trace());
        node.put("worker_id", status.workerId());
        node.put("generation", status.generation());
        node.put("version", status.version());
    }

    private InteropDriver() {
    }
}
