// `status-store watch`: replays the status topic to its end, then prints every status record as it is
// read — a change of state, a new worker or generation, a deletion — one line each (or one JSON object
// per line), until SIGINT or SIGTERM. Read-only: no producer, no consumer group, no committed offset.
// A record that makes its connector or task start or stop flapping is marked, and a key that stops
// flapping because it stayed stable for the window gets a line of its own (app/flap_marks.hpp). The
// JSON lines are the events GET /status-store/v1/events streams (messages/codec/status_event_json.hpp).
#include "actors/kafka/topic_consumer.hpp"
#include "app/commands.hpp"
#include "app/connection_config.hpp"
#include "app/flap_marks.hpp"
#include "app/stop_signals.hpp"
#include "config/client_settings.hpp"
#include "config/logging.hpp"
#include "messages/codec/status_event_json.hpp"
#include "messages/status_event.hpp"

#include <chrono>
#include <iostream>
#include <optional>
#include <string>

namespace status_store::cli {

namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

/// The line watch prints without --json; the JSON is status_event_json, which the event stream sends too.
std::string text_line(const status_event& e) {
  std::string text = std::string{to_string(e.type)} + " " + e.connector;
  if (e.type == key_kind::task) text += "-" + std::to_string(e.task);
  if (e.type == key_kind::topic) text += " topic " + e.topic;
  switch (e.kind) {
    case status_event_kind::stable:
      return text + " stops flapping: stable for " + std::to_string(e.stable_for_ms) + " ms";
    case status_event_kind::deleted:
      text += " deleted";
      break;
    case status_event_kind::topic:
      text += " active (task " + std::to_string(e.task) + ", discovered " + std::to_string(e.discover_timestamp) + ")";
      break;
    case status_event_kind::status:
      text += " " + std::string{to_string(e.value.state)} + " worker " + e.value.worker_id + " generation " +
              std::to_string(e.value.generation);
      if (e.value.trace && !e.value.trace->empty()) text += " trace: " + first_line(*e.value.trace);
      break;
  }
  if (e.flapping == flap_mark::started) text += "  [starts flapping]";
  if (e.flapping == flap_mark::stopped) text += "  [stops flapping]";
  if (e.stale) text += "  [stale UNASSIGNED: not applied]";
  return text;
}

std::string line_of(const status_event& e, bool as_json) { return as_json ? status_event_json(e) : text_line(e); }

int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

flap_mark mark_of(flap_rule::change change) {
  return change == flap_rule::change::started   ? flap_mark::started
         : change == flap_rule::change::stopped ? flap_mark::stopped
                                                : flap_mark::none;
}

/// Feeds a connector's or task's event to the flap rule, timed as the view times it (by the record's
/// timestamp, or the wall clock when it has none), and marks it as the view's events are marked.
void mark(flap_marks& marks, const parsed_key& key, status_event& e) {
  if (key.kind == key_kind::topic) return;
  if (e.kind == status_event_kind::deleted) {
    marks.tombstone(key, e.key);
    return;
  }
  e.stale = marks.is_stale(key, e.key, e.value);
  e.flapping = mark_of(marks.status(key, e.key, e.value, e.timestamp_ms >= 0 ? e.timestamp_ms : wall_ms()));
}

/// The line for a key that stopped flapping on time alone, stable for the window since its last
/// unstable transition.
std::string recovered_line(const std::string& record_key, int64_t window_ms, bool as_json) {
  const auto event = stable_event(record_key, window_ms);
  if (!event) return record_key + " stops flapping";  // never: only parsed keys are fed to the rule
  return line_of(*event, as_json);
}

}  // namespace

int watch(const watch_options& options) {
  stop_signals signals;  // before the consumer's threads exist: only the watcher sees SIGINT/SIGTERM
  const worker_config config = resolve_connection_config(options.connection, {});
  auto log = component_logger("watch");
  kafka_settings settings = consumer_settings(config);
  std::unique_ptr<topic_consumer> consumer;
  try {
    consumer = std::make_unique<topic_consumer>(settings, config.status_topic, std::chrono::seconds{options.timeout_s});
  } catch (const std::exception& e) {
    std::cerr << "error: watch failed: " << e.what() << "\n";
    return exit_failed;
  }
  std::cerr << "watching status topic '" << config.status_topic << "' on " << config.bootstrap_servers
            << (options.connector.empty() ? "" : " for connector '" + options.connector + "'") << ": replaying "
            << consumer->records_at_start() << " record(s), then printing each change; "
            << "SIGINT or SIGTERM stops\n";
  uint64_t replayed = 0, printed = 0, malformed = 0;
  bool announced = false;
  flap_marks marks{{static_cast<uint32_t>(config.flap_threshold), config.flap_window_ms}};
  std::vector<consumed_record> batch;
  while (!signals.received()) {
    batch.clear();
    consumer->poll(batch, 1000, std::chrono::milliseconds{100});
    for (const auto& r : batch) {
      const bool live = !consumer->from_replay(r);
      if (!live) ++replayed;
      auto key = parse_key(r.key);
      std::optional<std::string> line;
      if (auto* k = std::get_if<parsed_key>(&key)) {
        if (!options.connector.empty() && k->connector != options.connector) continue;
        auto event = decode_status_event(r, *k);
        // The replay builds no output, only the flap state: what changes from now on is printed.
        if (event) mark(marks, *k, *event);
        if (!live) continue;
        if (event) line = line_of(*event, options.json);
      }
      if (!line) {
        ++malformed;
        log->warn("skipping malformed status record at partition {} offset {} (key '{}')", r.partition, r.offset,
                  r.key);
        continue;
      }
      std::cout << *line << std::endl;  // one line at a time, also into a pipe
      ++printed;
    }
    for (const auto& key : marks.take_recovered(wall_ms())) {
      if (!announced) continue;  // recovered during the replay: it never showed as flapping
      std::cout << recovered_line(key, config.flap_window_ms, options.json) << std::endl;
      ++printed;
    }
    if (!announced && consumer->caught_up()) {
      announced = true;
      std::cerr << "replayed " << replayed << " record(s); watching";
      if (marks.flapping_count() > 0) std::cerr << " (" << marks.flapping_count() << " connector(s)/task(s) flapping)";
      std::cerr << "\n";
    }
  }
  std::cerr << "stopped by " << signal_name(signals.received()) << ": " << printed << " change(s) printed, "
            << malformed << " malformed record(s) skipped\n";
  return exit_ok;
}

}  // namespace status_store::cli
