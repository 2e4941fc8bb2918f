// `status-store watch`: replays the status topic to its end, then prints every status record as it is
// read — a change of state, a new worker or generation, a deletion — one line each (or one JSON object
// per line), until SIGINT or SIGTERM. Read-only: no producer, no consumer group, no committed offset.
#include "actors/kafka/topic_consumer.hpp"
#include "app/commands.hpp"
#include "app/connection_config.hpp"
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

std::string json_line(const consumed_record& r, const parsed_key& key, const record_content& content) {
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
  j["partition"] = r.partition;
  j["offset"] = r.offset;
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string text_line(const parsed_key& key, const record_content& content) {
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
  return text;
}

/// One printed line for a record, in the requested form only, or nothing for a malformed one
/// (logged instead).
std::optional<std::string> describe(const consumed_record& r, const parsed_key& key, bool as_json) {
  record_content content;
  if (!r.tombstone && key.kind == key_kind::topic) {
    auto value = decode_topic_value(r.value);
    if (std::holds_alternative<decode_error>(value)) return std::nullopt;
    content = std::get<topic_status>(std::move(value));
  } else if (!r.tombstone) {
    auto value = decode_status_value(r.value);
    if (std::holds_alternative<decode_error>(value)) return std::nullopt;
    content = std::get<status_value>(std::move(value));
  }
  return as_json ? json_line(r, key, content) : text_line(key, content);
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
        if (!live) continue;  // the replay builds no output: only what changes from now on
        line = describe(r, *k, options.json);
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
    if (!announced && consumer->caught_up()) {
      announced = true;
      std::cerr << "replayed " << replayed << " record(s); watching\n";
    }
  }
  std::cerr << "stopped by " << signal_name(signals.received()) << ": " << printed << " change(s) printed, "
            << malformed << " malformed record(s) skipped\n";
  return exit_ok;
}

}  // namespace status_store::cli
