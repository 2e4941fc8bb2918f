#pragma once
// The verbs of the status-store executable. Each returns the process exit code:
// 0 success, 1 the operation failed, 2 usage or configuration error.
#include "config/defaults.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace status_store::cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_failed = 1;
inline constexpr int exit_usage = 2;

/// Settings common to every verb that talks to Kafka.
struct connection_options {
  std::string config_file;             // --config
  std::string bootstrap_servers;       // --bootstrap-servers (overrides the file)
  std::string topic;                   // --topic (overrides status.storage.topic)
  std::vector<std::string> overrides;  // --set key=value, repeatable, applied last
};

int check_config(const std::string& file);

struct demo_options {
  connection_options connection;
  int connectors = 50;
  int tasks_per_connector = 4;
  double duration_s = 12.0;  // how long the simulated worker produces updates
  double rate = 2000.0;      // updates per second
  double outage_s = 5.0;     // brokers down for this long in the middle; 0 = no outage
  uint64_t seed = 1;         // workload and jitter seed: the same seed replays the same run
  bool progress = true;      // live progress line on a terminal
};

int demo(const demo_options& options);

// ---- operator verbs ----------------------------------------------------------------------------------
enum class target_kind { connector, task, topic };
/// connector NAME | task CONNECTOR ID | topic CONNECTOR TOPIC
struct target {
  target_kind kind = target_kind::connector;
  std::string connector;
  int32_t task = 0;
  std::string topic;
};

struct put_options {
  connection_options connection;
  std::vector<std::string> target_args;
  std::string state;
  std::string worker_id;
  int32_t generation = 0;
  std::optional<std::string> trace;
  std::optional<std::string> plugin_version;  // status_value::version
  bool safe = false;
  int timeout_s = 30;  // start-up and acknowledgement, each
};
int put(const put_options& options);

struct delete_options {
  connection_options connection;
  std::vector<std::string> target_args;
  std::string worker_id;
  int timeout_s = 30;
};
int remove(const delete_options& options);

struct get_options {
  connection_options connection;
  std::string connector;
  bool json = false;
  int timeout_s = 30;
};
int get(const get_options& options);

struct list_options {
  connection_options connection;
  std::string state;      // --state S: only connectors whose own state or a task's is S (any case); empty = all
  bool flapping = false;  // --flapping: the flapping connectors and tasks, since when (instead of the statuses)
  bool json = false;
  int timeout_s = 30;
};
int list(const list_options& options);

/// A connector's or task's transitions as the replay finds them (docs/operations.md), oldest first.
struct history_options {
  connection_options connection;
  std::vector<std::string> target_args;  // connector NAME | task CONNECTOR ID
  bool json = false;                     // one JSON document, GET /status-store/v1/…/history's
  int timeout_s = 30;
};
int history(const history_options& options);

/// Replays the topic, then prints every status record read from then on, until SIGINT/SIGTERM.
struct watch_options {
  connection_options connection;
  std::string connector;  // only this connector's statuses (tasks and topics included); empty = all
  bool json = false;      // one JSON object per line
  int timeout_s = 30;     // for reaching the cluster and the topic's offsets
};
int watch(const watch_options& options);

// ---- the service ---------------------------------------------------------------------------------------
struct run_options {
  connection_options connection;
  std::string listen;  // HOST:PORT of one plain HTTP listener, replacing `listeners`; port 0 picks a free one
  int max_connections = defaults::http_max_connections;      // open HTTP connections; beyond them, the health lane
  int max_connections_per_client = 0;                        // of them from one address; 0 = three quarters
  int max_event_streams = defaults::http_max_event_streams;  // of them, event streams (each holds a slot too)
};
int run(const run_options& options);

}  // namespace status_store::cli
