// Logs in to the SASL listener with SCRAM-SHA-256 using Kafka's own Java client, and prints the
// cluster's SCRAM users: proof that the credential `kafka-local.sh up` stores at format time is
// valid, whatever librdkafka 2.0.2 makes of it. Run with the broker's jars on the class path:
//   java -cp "$(scripts/kafka-local.sh fetch)/*" tests/system/java/ScramLogin.java BOOTSTRAP USER
// The password comes from STATUS_STORE_SASL_PASSWORD, never from the command line (ps shows that).
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;

public class ScramLogin {
  public static void main(String[] args) throws Exception {
    String password = System.getenv("STATUS_STORE_SASL_PASSWORD");
    Properties props = new Properties();
    props.put("bootstrap.servers", args[0]);
    props.put("security.protocol", "SASL_PLAINTEXT");
    props.put("sasl.mechanism", "SCRAM-SHA-256");
    props.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
        + args[1] + "\" password=\"" + password + "\";");
    props.put("request.timeout.ms", "10000");
    props.put("default.api.timeout.ms", "20000");
    try (Admin admin = Admin.create(props)) {
      System.out.println("scram login ok: " + admin.describeUserScramCredentials().all().get().keySet());
    }
  }
}
