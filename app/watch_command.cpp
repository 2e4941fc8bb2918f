// `status-store watch`: replays the status topic to its end, then prints every status record as it is
// read — a change of state, a new worker or generation, a deletion — one line each (or one JSON object
// per line), until SIGINT or SIGTERM. Read-only: no producer, no consumer group, no committed offset.
// A record that makes its connector or task start or stop flapping is marked, and a key that stops
// flapping because it stayed stable for the window gets a line of its own (app/flap_marks.hpp).
#include "actors/kafka/topic_consumer.hpp"
#include "app/commands.hpp"
#include "app/connection_config.hpp"
#include "app/flap_marks.hpp"
#include "app/stop_signals.hpp"
#include "config/client_settings.hpp"
#include "config/logging.hpp"
#include "messages/status_record_codec.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <variant>

namespace status_store::cli {

namespace {

using json = nlohmann::ordered_json;

const char* kind_name(key_kind kind) {
  switch (kind) {
    case key_kind::connector:
      return "connector";
    case key_kind::task:
      return "task";
    case key_kind::topic:
      return "topic";
  }
  return "?";
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

/// What a record says: a deletion, a topic status or a connector/task status.
using record_content = std::variant<std::monostate, topic_status, status_value>;

const char* mark_name(flap_rule::change mark) {
  return mark == flap_rule::change::started ? "started" : mark == flap_rule::change::stopped ? "stopped" : nullptr;
}

std::string json_line(const consumed_record& r, const parsed_key& key, const record_content& content,
                      flap_rule::change mark) {
  json j{{"key", r.key}, {"type", kind_name(key.kind)}, {"connector", key.connector}};
  if (key.kind == key_kind::task) j["task"] = key.task;
  if (key.kind == key_kind::topic) j["topic"] = key.topic;
  if (std::holds_alternative<std::monostate>(content)) {
    j["deleted"] = true;
  } else if (const auto* t = std::get_if<topic_status>(&content)) {
    j["task"] = t->task;
    j["discover_timestamp"] = t->discover_timestamp;
  } else {
    const auto& v = std::get<status_value>(content);
    j["state"] = to_string(v.state);
    j["trace"] = v.trace ? json(*v.trace) : json(nullptr);
    j["worker_id"] = v.worker_id;
    j["generation"] = v.generation;
    j["version"] = v.version ? json(*v.version) : json(nullptr);
  }
  if (const char* m = mark_name(mark)) j["flapping"] = m;
  j["partition"] = r.partition;
  j["offset"] = r.offset;
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string text_line(const parsed_key& key, const record_content& content, flap_rule::change mark) {
  std::string text = std::string{kind_name(key.kind)} + " " + key.connector;
  if (key.kind == key_kind::task) text += "-" + std::to_string(key.task);
  if (key.kind == key_kind::topic) text += " topic " + key.topic;
  if (std::holds_alternative<std::monostate>(content)) {
    text += " deleted";
  } else if (const auto* t = std::get_if<topic_status>(&content)) {
    text += " active (task " + std::to_string(t->task) + ", discovered " + std::to_string(t->discover_timestamp) + ")";
  } else {
    const auto& v = std::get<status_value>(content);
    text += " " + std::string{to_string(v.state)} + " worker " + v.worker_id + " generation " +
            std::to_string(v.generation);
    if (v.trace && !v.trace->empty()) text += " trace: " + first_line(*v.trace);
  }
  if (mark == flap_rule::change::started) text += "  [starts flapping]";
  if (mark == flap_rule::change::stopped) text += "  [stops flapping]";
  return text;
}

/// What a record says, or nothing for a malformed one.
std::optional<record_content> content_of(const consumed_record& r, const parsed_key& key) {
  if (r.tombstone) return record_content{};
  if (key.kind == key_kind::topic) {
    auto value = decode_topic_value(r.value);
    if (std::holds_alternative<decode_error>(value)) return std::nullopt;
    return record_content{std::get<topic_status>(std::move(value))};
  }
  auto value = decode_status_value(r.value);
  if (std::holds_alternative<decode_error>(value)) return std::nullopt;
  return record_content{std::get<status_value>(std::move(value))};
}

int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// Feeds a connector's or task's record to the flap rule, timed as the view times it: by the record's
/// timestamp, or the wall clock when it has none.
flap_rule::change observe(flap_marks& marks, const consumed_record& r, const parsed_key& key,
                          const record_content& content) {
  if (key.kind == key_kind::topic) return flap_rule::change::none;
  if (std::holds_alternative<std::monostate>(content)) {
    marks.tombstone(key, r.key);
    return flap_rule::change::none;
  }
  return marks.status(key, r.key, std::get<status_value>(content), r.timestamp_ms >= 0 ? r.timestamp_ms : wall_ms());
}

/// The line for a key that stopped flapping on time alone, stable for the window since its last
/// unstable transition.
std::string recovered_line(const std::string& record_key, int64_t window_ms, bool as_json) {
  const auto parsed = parse_key(record_key);
  const auto* key = std::get_if<parsed_key>(&parsed);
  if (!key) return record_key + " stops flapping";  // never: only parsed keys are fed to the rule
  if (as_json) {
    json j{{"key", record_key}, {"type", kind_name(key->kind)}, {"connector", key->connector}};
    if (key->kind == key_kind::task) j["task"] = key->task;
    j["flapping"] = "stopped";
    j["stable_for_ms"] = window_ms;
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  std::string text = std::string{kind_name(key->kind)} + " " + key->connector;
  if (key->kind == key_kind::task) text += "-" + std::to_string(key->task);
  return text + " stops flapping: stable for " + std::to_string(window_ms) + " ms";
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
        const auto content = content_of(r, *k);
        // The replay builds no output, only the flap state: what changes from now on is printed.
        const auto mark = content ? observe(marks, r, *k, *content) : flap_rule::change::none;
        if (!live) continue;
        if (content) line = options.json ? json_line(r, *k, *content, mark) : text_line(*k, *content, mark);
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
