// status-store: the executable. `demo` shows the whole store working on an embedded mock cluster;
// `run` is the worker service (REST, Prometheus); put/delete/get/list/history/watch are operator verbs
// that work against any cluster; `check-config` validates a worker configuration file.
#include "actors/kafka/librdkafka_version.hpp"
#include "app/commands.hpp"
#include "config/config_error.hpp"
#include "config/logging.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

using namespace status_store;

namespace {

void add_connection_options(CLI::App* verb, cli::connection_options& o) {
  verb->add_option("--config", o.config_file, "Worker configuration (.properties)")->check(CLI::ExistingFile);
  verb->add_option("--bootstrap-servers", o.bootstrap_servers,
                   "Kafka bootstrap servers; 'mock' = embedded mock cluster");
  verb->add_option("--topic", o.topic, "Status topic (status.storage.topic)");
  verb->add_option("--set", o.overrides, "Extra setting key=value (repeatable)");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "status-store: persists Kafka Connect connector, task and topic statuses to a compacted Kafka topic,\n"
      "with bounded, jittered retries (status.storage.retry.*) and success/retry/failure metrics."};
  app.require_subcommand(1);
  // Global options (--log-level) are accepted after the verb too, where people put them.
  app.fallthrough();
  // The librdkafka actually loaded, not the one built against (see librdkafka_version.hpp).
  app.set_version_flag("--version",
                       std::string("status-store ") + STATUS_STORE_VERSION + "\nlibrdkafka " + librdkafka_version());
  std::string log_level;
  app.add_option(
      "--log-level", log_level,
      "trace, debug, info, warn, error or off (default: info; warn for put, delete, get, list, history, watch)");

  std::string check_file;
  auto* check = app.add_subcommand("check-config", "Validate a worker configuration and print the effective settings");
  check->add_option("FILE", check_file, "Worker configuration (.properties)")->required();

  cli::demo_options demo;
  auto* demo_cmd = app.add_subcommand(
      "demo", "Simulate a worker's status updates through a broker outage, then verify the topic (no Kafka needed)");
  add_connection_options(demo_cmd, demo.connection);
  demo_cmd->add_option("--connectors", demo.connectors, "Simulated connectors")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  demo_cmd->add_option("--tasks", demo.tasks_per_connector, "Tasks per connector")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  demo_cmd->add_option("--duration", demo.duration_s, "Seconds of updates")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  demo_cmd
      ->add_option("--rate", demo.rate, "Workload steps per second (a rebalance or deletion reports several statuses)")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 1e7));
  demo_cmd->add_option("--outage", demo.outage_s, "Seconds the brokers are down mid-run (0 = none)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 3600.0));
  demo_cmd->add_option("--seed", demo.seed, "Workload and jitter seed")->capture_default_str();
  demo_cmd->add_flag("!--no-progress", demo.progress, "Log lines instead of a live progress line");

  cli::run_options run;
  auto* run_cmd =
      app.add_subcommand("run", "Run the store as a worker service with HTTP status, metrics and health endpoints");
  add_connection_options(run_cmd, run.connection);
  run_cmd->add_option("--listen", run.listen,
                      "HOST:PORT of one plain HTTP listener, replacing the worker file's `listeners` (port 0 = any "
                      "free port; default: `listeners`, else 127.0.0.1:8083)");
  run_cmd
      ->add_option("--max-connections", run.max_connections,
                   "Open HTTP connections served at once; more may only ask /health, then get an immediate 503")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  run_cmd
      ->add_option("--max-connections-per-client", run.max_connections_per_client,
                   "Of those, how many one client address may hold (0 = three quarters of --max-connections)")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));
  run_cmd
      ->add_option("--max-event-streams", run.max_event_streams,
                   "Event streams (GET /status-store/v1/events, the status page's live feed) open at once; more get "
                   "a 503")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));

  const std::string target_help = "connector NAME | task CONNECTOR ID | topic CONNECTOR TOPIC";
  cli::put_options put;
  auto* put_cmd =
      app.add_subcommand("put", "Write one status; exits 0 once acknowledged, 1 if it failed after its retries");
  add_connection_options(put_cmd, put.connection);
  put_cmd->add_option("TARGET", put.target_args, target_help)->required()->expected(2, 3);
  put_cmd->add_option("--state", put.state, "UNASSIGNED, RUNNING, PAUSED, FAILED, RESTARTING, STOPPED or DESTROYED");
  put_cmd->add_option("--worker-id", put.worker_id, "The worker reporting the status (connector and task statuses)");
  put_cmd->add_option("--generation", put.generation, "The worker's group generation")->capture_default_str();
  put_cmd->add_option("--trace", put.trace, "Error trace of a FAILED status");
  put_cmd->add_option("--plugin-version", put.plugin_version,
                      "Version of the connector or task plugin (the status's \"version\", Connect 4.1+)");
  put_cmd->add_flag("--safe", put.safe, "putSafe: refuse to overwrite another worker's newer generation");
  put_cmd->add_option("--timeout", put.timeout_s, "Seconds for start-up and for the acknowledgement")
      ->capture_default_str();

  cli::delete_options del;
  auto* delete_cmd = app.add_subcommand("delete", "Delete a status (a tombstone); a connector's tasks go with it");
  add_connection_options(delete_cmd, del.connection);
  delete_cmd->add_option("TARGET", del.target_args, target_help)->required()->expected(2, 3);
  delete_cmd->add_option("--worker-id", del.worker_id, "The worker deleting (logged only)");
  delete_cmd->add_option("--timeout", del.timeout_s, "Seconds for start-up and for the acknowledgement")
      ->capture_default_str();

  cli::get_options get;
  std::string get_kind;
  auto* get_cmd = app.add_subcommand("get", "Show a connector's status, its tasks and its topics");
  add_connection_options(get_cmd, get.connection);
  get_cmd->add_option("KIND", get_kind, "connector")->required()->check(CLI::IsMember({"connector"}));
  get_cmd->add_option("NAME", get.connector, "Connector name")->required();
  get_cmd->add_flag("--json", get.json, "One JSON object per status and line");
  get_cmd->add_option("--timeout", get.timeout_s, "Seconds for start-up")->capture_default_str();

  cli::list_options list;
  auto* list_cmd = app.add_subcommand("list", "Show every connector with a status on the topic");
  add_connection_options(list_cmd, list.connection);
  list_cmd->add_option("--state", list.state,
                       "Only connectors whose own state or one of whose tasks' is this one (any case): "
                       "--state FAILED also lists a RUNNING connector with a FAILED task (degraded)");
  list_cmd->add_flag("--flapping", list.flapping,
                     "Only the flapping connectors and tasks (status.flap.*), each since when, instead of statuses");
  list_cmd->add_flag("--json", list.json, "One JSON object per status (or flapping key) and line");
  list_cmd->add_option("--timeout", list.timeout_s, "Seconds for start-up")->capture_default_str();

  cli::history_options history;
  const std::string history_help = "A connector's or task's transitions, oldest first, as far back as the topic holds";
  auto* history_cmd = app.add_subcommand("history", history_help);
  add_connection_options(history_cmd, history.connection);
  const std::string history_target = "connector NAME | task CONNECTOR ID";
  history_cmd->add_option("TARGET", history.target_args, history_target)->required()->expected(2, 3);
  history_cmd->add_flag("--json", history.json, "One JSON document (GET /status-store/v1/.../history's)");
  history_cmd->add_option("--timeout", history.timeout_s, "Seconds for start-up")->capture_default_str();

  cli::watch_options watch;
  auto* watch_cmd =
      app.add_subcommand("watch", "Print every status change as it is read from the topic, until SIGINT/SIGTERM");
  add_connection_options(watch_cmd, watch.connection);
  watch_cmd->add_option("--connector", watch.connector, "Only this connector's statuses (its tasks and topics too)");
  watch_cmd->add_flag("--json", watch.json, "One JSON object per status and line");
  watch_cmd->add_option("--timeout", watch.timeout_s, "Seconds for reaching the cluster")->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? cli::exit_ok : cli::exit_usage;
  }
  if (log_level.empty())
    log_level = (*put_cmd || *delete_cmd || *get_cmd || *list_cmd || *history_cmd || *watch_cmd) ? "warn" : "info";
  auto level = spdlog::level::from_str(log_level);
  if (level == spdlog::level::off && log_level != "off") {
    std::cerr << "error: --log-level: unknown level '" << log_level << "'\n";
    return cli::exit_usage;
  }
  set_log_level(level);

  try {
    if (*check) return cli::check_config(check_file);
    if (*demo_cmd) return cli::demo(demo);
    if (*run_cmd) return cli::run(run);
    if (*put_cmd) return cli::put(put);
    if (*delete_cmd) return cli::remove(del);
    if (*get_cmd) return cli::get(get);
    if (*list_cmd) return cli::list(list);
    if (*history_cmd) return cli::history(history);
    if (*watch_cmd) return cli::watch(watch);
  } catch (const config_error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return cli::exit_usage;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return cli::exit_failed;
  }
  return cli::exit_usage;
}
