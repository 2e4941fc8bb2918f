package statusstore.interop;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** The task of {@link ParitySourceConnector}: one record per topic, then idle; or a failure. */
public final class ParitySourceTask extends SourceTask {
    static final String TOPICS = "parity.topics";
    static final String FAILING_TASKS = "parity.failing.tasks";
    static final String TASK_ID = "parity.task.id";
    private List<String> topics;
    private boolean failing;
    private int id;
    private boolean sent;

    @Override
    public String version() {
        return ParitySourceConnector.VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        id = Integer.parseInt(props.get(TASK_ID));
        topics = split(props.get(TOPICS));
        failing = split(props.get(FAILING_TASKS)).contains(Integer.toString(id));
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        // Quotes, a tab and non-ASCII in the message: the trace goes through both stores' JSON.
        if (failing) throw new ConnectException("parity task " + id + " fails on purpose: \"quoted\"\tcafé 连接");
        if (sent) {
            Thread.sleep(200);
            return null;
        }
        sent = true;
        List<SourceRecord> records = new ArrayList<>();
        for (String topic : topics)
            records.add(new SourceRecord(Map.of("task", id), Map.of("offset", 0), topic, Schema.STRING_SCHEMA, "parity"));
        return records;
    }

    @Override
    public void stop() {
    }

    private static List<String> split(String list) {
        if (list == null || list.isBlank()) return List.of();
        return Arrays.stream(list.split(",")).map(String::trim).toList();
    }
}
