package statusstore.interop;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.SourceConnector;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A source connector for the REST parity tests (tests/interop/connect_rest_test.cpp), run by a live
 * ConnectDistributed worker: its tasks write one record to each topic of {@code parity.topics}, so
 * Connect records them as active topics, and the tasks listed in {@code parity.failing.tasks} fail on
 * their first poll, so Connect writes a FAILED status with a real stack trace. Maven Central has no
 * connect-file 4.4.0, hence a connector of our own.
 */
public final class ParitySourceConnector extends SourceConnector {
    static final String VERSION = "4.4.0-parity";
    private Map<String, String> props;

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        this.props = props;
    }

    @Override
    public Class<? extends Task> taskClass() {
        return ParitySourceTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (int id = 0; id < maxTasks; id++) {
            Map<String, String> config = new HashMap<>(props);
            config.put(ParitySourceTask.TASK_ID, Integer.toString(id));
            configs.add(config);
        }
        return configs;
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return new ConfigDef()
            .define(ParitySourceTask.TOPICS, ConfigDef.Type.LIST, "", ConfigDef.Importance.HIGH, "topics each task writes one record to")
            .define(ParitySourceTask.FAILING_TASKS, ConfigDef.Type.LIST, "", ConfigDef.Importance.HIGH, "ids of the tasks that fail");
    }
}
