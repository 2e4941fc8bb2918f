// status-store: the executable. `demo` shows the whole store working on an embedded mock cluster;
// `check-config` validates a worker configuration file.
#include "app/commands.hpp"
#include "config/config_error.hpp"
#include "config/logging.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

using namespace status_store;

namespace {

void add_connection_options(CLI::App* verb, cli::connection_options& o) {
  verb->add_option("--config", o.config_file, "Worker configuration (.properties)")->check(CLI::ExistingFile);
  verb->add_option("--bootstrap-servers", o.bootstrap_servers, "Kafka bootstrap servers; 'mock' = embedded mock cluster");
  verb->add_option("--topic", o.topic, "Status topic (status.storage.topic)");
  verb->add_option("--set", o.overrides, "Extra setting key=value (repeatable)");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"status-store: persists Kafka Connect connector, task and topic statuses to a compacted Kafka topic,\n"
               "with bounded, jittered retries (status.storage.retry.*) and success/retry/failure metrics."};
  app.require_subcommand(1);
  std::string log_level = "info";
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error or off")->capture_default_str();

  std::string check_file;
  auto* check = app.add_subcommand("check-config", "Validate a worker configuration and print the effective settings");
  check->add_option("FILE", check_file, "Worker configuration (.properties)")->required();

  cli::demo_options demo;
  auto* demo_cmd = app.add_subcommand(
      "demo", "Simulate a worker's status updates through a broker outage, then verify the topic (no Kafka needed)");
  add_connection_options(demo_cmd, demo.connection);
  demo_cmd->add_option("--connectors", demo.connectors, "Simulated connectors")->capture_default_str()->check(CLI::Range(1, 100000));
  demo_cmd->add_option("--tasks", demo.tasks_per_connector, "Tasks per connector")->capture_default_str()->check(CLI::Range(0, 1000));
  demo_cmd->add_option("--duration", demo.duration_s, "Seconds of updates")->capture_default_str()->check(CLI::Range(0.1, 3600.0));
  demo_cmd->add_option("--rate", demo.rate, "Workload steps per second (a rebalance or deletion reports several statuses)")->capture_default_str()->check(CLI::Range(1.0, 1e7));
  demo_cmd->add_option("--outage", demo.outage_s, "Seconds the brokers are down mid-run (0 = none)")->capture_default_str()->check(CLI::Range(0.0, 3600.0));
  demo_cmd->add_option("--seed", demo.seed, "Workload and jitter seed")->capture_default_str();
  demo_cmd->add_flag("!--no-progress", demo.progress, "Log lines instead of a live progress line");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? cli::exit_ok : cli::exit_usage;
  }
  auto level = spdlog::level::from_str(log_level);
  if (level == spdlog::level::off && log_level != "off") {
    std::cerr << "error: --log-level: unknown level '" << log_level << "'\n";
    return cli::exit_usage;
  }
  set_log_level(level);

  try {
    if (*check) return cli::check_config(check_file);
    if (*demo_cmd) return cli::demo(demo);
  } catch (const config_error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return cli::exit_usage;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return cli::exit_failed;
  }
  return cli::exit_usage;
}
