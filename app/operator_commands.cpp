// Operator verbs that work against any cluster, including a status topic written by Kafka Connect:
// put, delete, get, list (history and list --flapping: app/history_command.cpp). Each starts a store
// (which replays the topic, so putSafe and the view see what the topic says), does one thing, and
// stops it.
#include "actors/kafka/status_topic_admin.hpp"
#include "app/commands.hpp"
#include "app/connection_config.hpp"
#include "app/connector_states.hpp"
#include "app/operator_store.hpp"
#include "app/status_json.hpp"
#include "app/store/metric_names.hpp"
#include "app/store/store.hpp"
#include "config/ascii.hpp"
#include "config/config_error.hpp"
#include "messages/status_record_codec.hpp"

#include <charconv>
#include <iomanip>
#include <iostream>
#include <memory>

namespace status_store::cli {

namespace {

target parse_target(const std::vector<std::string>& args) {
  if (args.empty())
    throw config_error("TARGET", "", "must be: connector NAME | task CONNECTOR ID | topic CONNECTOR TOPIC");
  const std::string& kind = args[0];
  if (kind == "connector" && args.size() == 2) return target{target_kind::connector, args[1], 0, {}};
  if (kind == "task" && args.size() == 3) return target{target_kind::task, args[1], parse_task_id(args[2]), {}};
  if (kind == "topic" && args.size() == 3) return target{target_kind::topic, args[1], 0, args[2]};
  std::string given;
  for (const auto& a : args) given += (given.empty() ? "" : " ") + a;
  throw config_error("TARGET", given, "must be: connector NAME | task CONNECTOR ID | topic CONNECTOR TOPIC");
}

status_state parse_state(const std::string& text) {
  auto state = parse_status_state(ascii_uppercase(text));
  if (!state)
    throw config_error("--state", text,
                       "must be one of UNASSIGNED, RUNNING, PAUSED, FAILED, RESTARTING, STOPPED, DESTROYED");
  return *state;
}

void print_metrics(const metrics_snapshot& m) {
  for (const auto& s : metric_samples(m)) std::cerr << "  " << s.name << " " << static_cast<int64_t>(s.value) << "\n";
}

/// Waits for the update(s) to be resolved and turns the counters into an exit code.
int finish_write(store& s, int timeout_s, const char* what) {
  const bool flushed = s.flush(std::chrono::seconds{timeout_s});
  const auto m = s.metrics();
  s.stop();
  const auto& c = m.counters;
  if (flushed && c.failure == 0 && c.dropped_stale == 0 && c.success == c.accepted) {
    std::cout << what << ": acknowledged\n";
    return exit_ok;
  }
  if (c.dropped_stale > 0)
    std::cerr << "error: " << what << " refused: another worker's newer generation is on the topic (putSafe)\n";
  else if (!flushed)
    std::cerr << "error: " << what << " not acknowledged within " << timeout_s << " s\n";
  else
    std::cerr << "error: " << what << " failed after its retries (see the log above for the error)\n";
  print_metrics(m);
  return exit_failed;
}

void print_table(const connector_view& v) {
  auto row = [](const std::string& what, const status_value& value) {
    std::cout << std::left << std::setw(28) << what << std::setw(12) << to_string(value.state) << std::setw(24)
              << value.worker_id << std::setw(6) << value.generation;
    if (value.version && !value.version->empty()) std::cout << " version " << *value.version;
    if (value.trace) {
      const auto& t = *value.trace;
      std::cout << " " << t.substr(0, t.find('\n'));
    }
    std::cout << "\n";
  };
  if (v.found) row("connector " + v.name, v.connector.value);
  for (const auto& t : v.tasks) row("  task " + std::to_string(t.task), t.value);
  for (const auto& t : v.topics)
    std::cout << "  topic " << t.topic << " (task " << t.task << ", discovered " << t.discover_timestamp << ")\n";
}

}  // namespace

// Operator verbs need no topic-creation defaults beyond the worker's; only the time bound differs.
worker_config operator_config(const connection_options& connection, int timeout_s) {
  worker_config config = resolve_connection_config(connection, {});
  config.startup_timeout_ms = static_cast<int64_t>(timeout_s) * 1000;
  return config;
}

int32_t parse_task_id(const std::string& text) {
  int32_t id = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc{} || end != text.data() + text.size() || id < 0)
    throw config_error("TASK", text, "must be a task number (0, 1, ...)");
  return id;
}

std::unique_ptr<store> start_store(const worker_config& config, const char* what, bool writes) {
  try {
    return std::make_unique<store>(config);
  } catch (const no_broker_reachable& e) {
    std::cerr << "error: " << what << " failed: " << e.what() << "\n";
    if (writes) {
      metrics_snapshot m;
      m.counters.accepted = m.counters.failure = 1;
      print_metrics(m);
    }
    return nullptr;
  }
}

int put(const put_options& o) {
  const target what = parse_target(o.target_args);
  worker_config config = operator_config(o.connection, o.timeout_s);
  if (what.kind != target_kind::topic && o.worker_id.empty())
    throw config_error("--worker-id", "", "is required for connector and task statuses");
  const status_state state = what.kind == target_kind::topic ? status_state::running : parse_state(o.state);
  const auto started = start_store(config, "put", true);
  if (!started) return exit_failed;
  store& s = *started;
  status_value value{state, o.trace, o.worker_id, o.generation, o.plugin_version};
  switch (what.kind) {
    case target_kind::connector:
      o.safe ? s.put_safe(connector_status{what.connector, value}) : s.put(connector_status{what.connector, value});
      break;
    case target_kind::task:
      o.safe ? s.put_safe(task_status{what.connector, what.task, value})
             : s.put(task_status{what.connector, what.task, value});
      break;
    case target_kind::topic:
      s.put(topic_status{
          what.topic, what.connector, what.task,
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count()});
      break;
  }
  return finish_write(s, o.timeout_s, "put");
}

int remove(const delete_options& o) {
  const target what = parse_target(o.target_args);
  worker_config config = operator_config(o.connection, o.timeout_s);
  const auto started = start_store(config, "delete", true);
  if (!started) return exit_failed;
  store& s = *started;
  const status_value destroyed{status_state::destroyed, std::nullopt, o.worker_id, 0};
  switch (what.kind) {
    case target_kind::connector:
      // As Connect's herder does on deletion: the tasks' tombstones first, then the connector's.
      for (const auto& t : s.get_all(what.connector)) s.put(task_status{what.connector, t.task, destroyed});
      s.put(connector_status{what.connector, destroyed});
      break;
    case target_kind::task:
      s.put(task_status{what.connector, what.task, destroyed});
      break;
    case target_kind::topic:
      s.delete_topic(what.connector, what.topic);
      break;
  }
  return finish_write(s, o.timeout_s, "delete");
}

int get(const get_options& o) {
  worker_config config = operator_config(o.connection, o.timeout_s);
  const auto started = start_store(config, "get", false);
  if (!started) return exit_failed;
  store& s = *started;
  const connector_view v = s.describe(o.connector);
  s.stop();
  if (!v.found && v.tasks.empty() && v.topics.empty()) {
    std::cerr << "error: no status found for connector '" << o.connector << "'\n";
    return exit_failed;
  }
  if (o.json)
    for (const auto& line : status_lines_json(v)) std::cout << line << "\n";
  else
    print_table(v);
  return exit_ok;
}

int list(const list_options& o) {
  if (o.flapping) return list_flapping(o);
  std::optional<status_state> state;
  if (!o.state.empty() && !(state = parse_reported_state(o.state)))
    throw config_error("--state", o.state, "must be one of " + std::string{reported_state_names} + " (any case)");
  worker_config config = operator_config(o.connection, o.timeout_s);
  const auto started = start_store(config, "list", false);
  if (!started) return exit_failed;
  store& s = *started;
  std::vector<connector_view> views;
  if (state) {  // one pass over the view, as GET /connectors?state= answers
    views = with_state(s.describe_all(), *state);
  } else {
    for (const auto& name : s.connectors()) views.push_back(s.describe(name));
  }
  s.stop();
  size_t degraded = 0;
  for (const auto& v : views) {
    degraded += is_degraded(v) ? 1 : 0;
    if (o.json)
      for (const auto& line : status_lines_json(v)) std::cout << line << "\n";
    else
      print_table(v);
  }
  if (o.json) return exit_ok;
  std::cout << views.size() << " connector(s)";
  if (state) std::cout << " with a " << to_string(*state) << " connector or task";
  // The one an operator misses: its own state says RUNNING.
  if (degraded > 0) std::cout << ", " << degraded << " degraded (RUNNING with a FAILED task)";
  std::cout << "\n";
  return exit_ok;
}

}  // namespace status_store::cli
