#pragma once
// A live Kafka Connect distributed worker (org.apache.kafka.connect.cli.ConnectDistributed from the
// connect-runtime jars beside the interop driver), for comparing its REST answers with status-store's.
// It runs the driver's own ParitySourceConnector (tests/interop/java), found by service loading.
#include "child_process.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace status_store::interop {

struct rest_answer {
  int status = 0;  // 0: no answer
  std::string body;
};

/// One request to 127.0.0.1:`port`; `path` is sent as given (already percent-encoded).
rest_answer rest_call(int port, const std::string& method, const std::string& path, const std::string& body = "");

/// A port that was free a moment ago (bound to 0 and closed).
int free_port();

class connect_worker {
 public:
  /// Starts a one-worker cluster of its own group with internal topics named `<prefix>-configs`,
  /// `-offsets` and `-status`, and waits until GET /connectors answers 200. Throws std::runtime_error
  /// (with the end of the worker's log) when it does not within `start_timeout`. `extra_properties`
  /// ("key=value" lines) are appended to its worker.properties, e.g. topic.tracking.enable=false.
  connect_worker(const std::string& bootstrap, const std::string& prefix, const std::string& driver_jar,
                 std::chrono::seconds start_timeout = std::chrono::seconds{120},
                 const std::vector<std::string>& extra_properties = {});

  int port() const { return port_; }
  std::string status_topic() const { return prefix_ + "-status"; }
  std::string worker_id() const { return "127.0.0.1:" + std::to_string(port_); }
  /// How long the worker took to answer its first GET /connectors.
  std::chrono::milliseconds start_time() const { return start_time_; }
  std::string log() const { return process_->log(); }
  /// The scratch directory of its properties and log (also for the caller's logs).
  const std::string& dir() const { return dir_; }

  /// Creates a connector through the REST API. A worker that answers REST may still be joining its
  /// group or reading its config topic, and then refuses with 409 or 500 for a moment: retried for up
  /// to 60 s; throws std::runtime_error with the last answer.
  void create_connector(const std::string& method, const std::string& path, const std::string& body,
                        const std::string& name) const;

 private:
  std::string prefix_;
  std::string dir_;
  int port_ = 0;
  std::chrono::milliseconds start_time_{0};
  std::unique_ptr<child_process> process_;
};

}  // namespace status_store::interop
