#pragma once
// The Java side of the interop tests: tests/interop/java, a small program that runs Kafka Connect's
// own KafkaStatusBackingStore (connect-runtime of the broker's Kafka version), built by
// tests/interop/build-java-driver.sh into <build>/interop-java/status-store-interop.jar. Each call
// runs one JVM and waits for it; its stderr (the store's warnings and errors) goes to the test's
// output.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace status_store::interop {

struct driver_result {
  int exit_code = -1;
  std::string out;  // stdout
};

class java_driver {
 public:
  /// The jar: $STATUS_STORE_INTEROP_DRIVER, or the one the build directory's script builds.
  java_driver();

  const std::string& jar() const { return jar_; }
  /// Why the driver cannot run (no jar, no java), with the command that builds it; empty if it can.
  std::string problem() const;

  /// `version`: the Kafka version of the connect-runtime the driver was built against.
  driver_result version() const;
  /// `write`: plays the ops file (status_ops.hpp, to_driver_ops) through KafkaStatusBackingStore.
  driver_result write(const std::string& bootstrap, const std::string& topic, const std::string& ops) const;
  /// `read`: KafkaStatusBackingStore's view after start(), of connectors() plus `names`.
  driver_result read(const std::string& bootstrap, const std::string& topic,
                     const std::vector<std::string>& names) const;
  /// `records`: every record of the topic, one JSON line each with "partition", "offset", "key",
  /// "value" (null for a tombstone), "key_partition" (where Java's producer puts the key) and
  /// "partitions"; exit code 1 if a record is not on its key's partition.
  driver_result records(const std::string& bootstrap, const std::string& topic) const;

 private:
  driver_result run(const std::vector<std::string>& args) const;
  std::string jar_;
};

/// Parses a whole stdout as one JSON document (read) or one document per line (records); throws
/// std::runtime_error naming the output when it is not JSON.
nlohmann::json parse_json(const std::string& out);
std::vector<nlohmann::json> parse_json_lines(const std::string& out);

}  // namespace status_store::interop
