#include "actors/status_view_actor.hpp"

#include "actors/kafka/status_topic_follower.hpp"
#include "actors/policy/compact_key.hpp"
#include "actors/policy/interned_strings.hpp"
#include "actors/policy/log_rate_limiter.hpp"
#include "actors/policy/log_text.hpp"
#include "config/defaults.hpp"
#include "config/logging.hpp"
#include "messages/status_record_codec.hpp"

#include "caf/actor_system.hpp"
#include "caf/send.hpp"
#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>

namespace status_store {

namespace {

/// A status as the view keeps it: 24 bytes plus the trace when there is one; worker ids and plugin
/// versions are interned (a cluster has a handful of workers and plugin versions, and many keys).
/// Expanded to status_value only for answers.
struct stored_status {
  status_state state = status_state::unassigned;
  int32_t generation = 0;
  uint32_t worker_id = interned_strings::none;
  uint32_t version = interned_strings::none;  // none: JSON null, or a Connect 3.x / 4.0 record
  std::unique_ptr<std::string> trace;
};
static_assert(sizeof(stored_status) <= 24, "a million statuses: keep it small");

std::string loggable(std::string_view record_text) {
  return escape_for_log(record_text, static_cast<std::size_t>(defaults::logged_record_text_max_bytes));
}

class status_view_state {
 public:
  status_view_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.status-view";

  // Typed with the feed and the tick; embedders hold status_view_actor, the queries only.
  using self_ptr = status_view_full_actor::stateful_pointer<status_view_state>;

  ~status_view_state() {
    if (reader_) reader_->stop();  // joins the reader thread, which holds a handle on this actor
  }

  /// Wires the state to its actor and peers; starts `reader` (may be null) feeding it.
  void init(self_ptr self, observation_sink_actor coalescer, metrics_actor metrics,
            std::shared_ptr<status_topic_follower> reader);

  status_view_full_actor::behavior_type make_behavior() {
    return {
        [this](await_atom) { return handle_await(); },
        [this](get_atom, const std::string& connector) { return view_of(connector); },
        [this](get_atom, const std::string& connector, int32_t task) { return handle_get_task(connector, task); },
        [this](list_atom) { return handle_list(); },
        [this](get_atom, all_atom) { return handle_get_all(); },
        [this](records_atom, std::vector<consumed_record>& records) { handle_records(records); },
        [this](caught_up_atom) { handle_caught_up(); },
        [this](tick_atom) { handle_tick(); },
    };
  }

 private:
  // -- handlers for the embedder --
  caf::result<ok_atom> handle_await();
  connector_view view_of(std::string_view connector) const;
  std::vector<task_status> handle_get_task(const std::string& connector, int32_t task) const;
  std::vector<std::string> handle_list() const;
  std::vector<connector_view> handle_get_all() const;

  // -- handlers for peers --
  void handle_records(std::vector<consumed_record>& records);
  void handle_caught_up();

  // -- timers --
  void handle_tick();

  // -- applying records --
  std::optional<observed_status> apply(const consumed_record& r);
  std::optional<observed_status> apply_connector(const consumed_record& r, const parsed_key& key);
  std::optional<observed_status> apply_task(const consumed_record& r, const parsed_key& key);
  std::optional<observed_status> apply_topic(const consumed_record& r, const parsed_key& key);
  void skip(const consumed_record& r, std::string_view part, const decode_error& err);

  // -- helpers --
  int64_t now_ns() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(self_->clock().now().time_since_epoch()).count();
  }
  stored_status store_value(status_value&& v);
  status_value expand(const stored_status& s) const;
  void log_held_back(const log_rate_limiter::summary& s);
  void schedule_held_back_report(int64_t now);
  void log_progress(bool force);

  self_ptr self_ = nullptr;
  observation_sink_actor coalescer_;
  metrics_actor metrics_;
  std::shared_ptr<status_topic_follower> reader_;
  std::shared_ptr<spdlog::logger> log_;

  // Connect keeps the same three maps (connectors, tasks, topics); std::map keeps answers ordered.
  std::unordered_map<compact_key, stored_status, compact_key_hash, compact_key_equal> connectors_;  // by name
  std::unordered_map<std::string, std::map<int32_t, stored_status>> tasks_;
  interned_strings worker_ids_;
  interned_strings versions_;
  std::unordered_map<std::string, std::map<std::string, topic_status>> topics_;

  view_counters counters_;
  // Malformed records are logged at most so often per rule (config/defaults.hpp); a tick tells how
  // many were held back once their window has passed.
  log_rate_limiter malformed_log_{
      {defaults::malformed_record_log_lines, defaults::malformed_record_log_interval_ms * 1'000'000}};
  bool malformed_tick_pending_ = false;
  bool caught_up_ = false;
  caf::actor_clock::time_point replay_started_;
  caf::actor_clock::time_point last_progress_log_;
  std::vector<caf::typed_response_promise<ok_atom>> waiting_for_replay_;
};

using self_ptr = status_view_state::self_ptr;

void status_view_state::init(self_ptr self, observation_sink_actor coalescer, metrics_actor metrics,
                             std::shared_ptr<status_topic_follower> reader) {
  self_ = self;
  coalescer_ = std::move(coalescer);
  metrics_ = std::move(metrics);
  log_ = component_logger("status-view");
  replay_started_ = last_progress_log_ = self->clock().now();
  if (!reader) return;
  reader_ = std::move(reader);
  const status_feed_actor feed = status_view_full_actor{self};
  reader_->start(
      [feed](std::vector<consumed_record>&& batch) { caf::anon_send(feed, records_atom::value, std::move(batch)); },
      [feed] { caf::anon_send(feed, caught_up_atom::value); });
}

// -- handlers for the embedder --

caf::result<ok_atom> status_view_state::handle_await() {
  if (caught_up_) return ok_atom::value;
  auto rp = self_->make_response_promise<ok_atom>();
  waiting_for_replay_.push_back(rp);
  return rp;
}

/// What the view knows of one connector: its status, its tasks (by id) and its topics.
connector_view status_view_state::view_of(std::string_view connector) const {
  connector_view v;
  v.name = std::string{connector};
  if (auto it = connectors_.find(connector); it != connectors_.end()) {
    v.found = true;
    v.connector = connector_status{v.name, expand(it->second)};
  }
  if (auto it = tasks_.find(v.name); it != tasks_.end())
    for (const auto& [id, value] : it->second) v.tasks.push_back(task_status{v.name, id, expand(value)});
  if (auto it = topics_.find(v.name); it != topics_.end())
    for (const auto& [name, status] : it->second) v.topics.push_back(status);
  return v;
}

/// One map lookup: the REST task endpoint need not copy the connector's other tasks and topics.
std::vector<task_status> status_view_state::handle_get_task(const std::string& connector, int32_t task) const {
  std::vector<task_status> found;
  if (auto it = tasks_.find(connector); it != tasks_.end())
    if (auto t = it->second.find(task); t != it->second.end())
      found.push_back(task_status{connector, task, expand(t->second)});
  return found;
}

std::vector<std::string> status_view_state::handle_list() const {
  std::vector<std::string> names;
  names.reserve(connectors_.size());
  for (const auto& [name, value] : connectors_) names.emplace_back(name.view());
  std::sort(names.begin(), names.end());
  return names;
}

/// One pass for clients that list every connector with its status (Connect's ?expand=status).
std::vector<connector_view> status_view_state::handle_get_all() const {
  std::vector<connector_view> views;
  views.reserve(connectors_.size());
  for (const auto& [name, value] : connectors_) views.push_back(view_of(name.view()));
  std::sort(views.begin(), views.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return views;
}

// -- handlers for peers --

void status_view_state::handle_records(std::vector<consumed_record>& records) {
  std::vector<observed_status> observed;
  observed.reserve(records.size());
  for (const auto& r : records) {
    ++counters_.records_read;
    if (auto seen = apply(r)) observed.push_back(std::move(*seen));
  }
  if (!caught_up_) {
    counters_.replay_records = counters_.records_read;
    log_progress(false);
  }
  if (!observed.empty()) self_->send(coalescer_, observe_atom::value, std::move(observed));
  self_->send(metrics_, publish_atom::value, counters_);
}

void status_view_state::handle_caught_up() {
  if (caught_up_) return;
  caught_up_ = true;
  counters_.replay_records = counters_.records_read;
  counters_.replay_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(self_->clock().now() - replay_started_).count();
  log_progress(true);
  log_->info("replay complete: {} connector(s), {} with tasks, {} with topics; {} malformed record(s) skipped",
             connectors_.size(), tasks_.size(), topics_.size(), counters_.read_errors);
  // Publish first: whoever waited reads metrics that already show the completed replay.
  self_->send(metrics_, publish_atom::value, counters_);
  for (auto& rp : waiting_for_replay_) rp.deliver(ok_atom::value);
  waiting_for_replay_.clear();
}

// -- timers --

void status_view_state::handle_tick() {
  malformed_tick_pending_ = false;
  const int64_t now = now_ns();
  for (const auto& s : malformed_log_.take_due(now)) log_held_back(s);
  schedule_held_back_report(now);
}

// -- applying records --

/// Applies one record; returns what the coalescer should hear of it if the view changed.
std::optional<observed_status> status_view_state::apply(const consumed_record& r) {
  auto parsed = parse_key(r.key);
  if (auto* err = std::get_if<decode_error>(&parsed)) {
    skip(r, "", *err);
    return std::nullopt;
  }
  const auto& key = std::get<parsed_key>(parsed);
  switch (key.kind) {
    case key_kind::connector:
      return apply_connector(r, key);
    case key_kind::task:
      return apply_task(r, key);
    case key_kind::topic:
      return apply_topic(r, key);
  }
  return std::nullopt;
}

std::optional<observed_status> status_view_state::apply_connector(const consumed_record& r, const parsed_key& key) {
  if (r.tombstone) {  // the connector is gone, and so are its tasks
    if (auto it = connectors_.find(std::string_view{key.connector}); it != connectors_.end()) connectors_.erase(it);
    tasks_.erase(key.connector);
    return observed_status{r.key, true, {}, 0, r.own};
  }
  auto value = decode_status_value(r.value);
  if (auto* err = std::get_if<decode_error>(&value)) {
    skip(r, "connector status", *err);
    return std::nullopt;
  }
  auto& incoming = std::get<status_value>(value);
  observed_status seen{r.key, false, incoming.worker_id, incoming.generation, r.own};
  auto it = connectors_.find(std::string_view{key.connector});
  if (it == connectors_.end()) it = connectors_.emplace(compact_key{key.connector}, stored_status{}).first;
  it->second = store_value(std::move(incoming));
  return seen;
}

std::optional<observed_status> status_view_state::apply_task(const consumed_record& r, const parsed_key& key) {
  if (r.tombstone) {
    if (auto it = tasks_.find(key.connector); it != tasks_.end()) {
      it->second.erase(key.task);
      if (it->second.empty()) tasks_.erase(it);
    }
    return observed_status{r.key, true, {}, 0, r.own};
  }
  auto value = decode_status_value(r.value);
  if (auto* err = std::get_if<decode_error>(&value)) {
    skip(r, "task status", *err);
    return std::nullopt;
  }
  auto& incoming = std::get<status_value>(value);
  auto& tasks = tasks_[key.connector];
  if (auto it = tasks.find(key.task); it != tasks.end() && incoming.state == status_state::unassigned &&
                                      it->second.state == status_state::running &&
                                      it->second.generation >= incoming.generation) {
    log_->trace("ignoring stale UNASSIGNED (generation {}) for task {}-{} RUNNING in generation {}",
                incoming.generation, loggable(key.connector), key.task, it->second.generation);
    return std::nullopt;
  }
  observed_status seen{r.key, false, incoming.worker_id, incoming.generation, r.own};
  tasks[key.task] = store_value(std::move(incoming));
  return seen;
}

std::optional<observed_status> status_view_state::apply_topic(const consumed_record& r, const parsed_key& key) {
  if (r.tombstone) {
    if (auto it = topics_.find(key.connector); it != topics_.end()) it->second.erase(key.topic);
    return observed_status{r.key, true, {}, 0, r.own};
  }
  auto value = decode_topic_value(r.value);
  if (auto* err = std::get_if<decode_error>(&value)) {
    skip(r, "topic status", *err);
    return std::nullopt;
  }
  topics_[key.connector][key.topic] = std::move(std::get<topic_status>(value));
  return observed_status{r.key, false, {}, 0, r.own};
}

/// Counts a malformed record and logs it, escaped and bounded, unless its rule's budget is spent.
/// `part`: what failed to decode ("" for the key, else "connector status", ...).
void status_view_state::skip(const consumed_record& r, std::string_view part, const decode_error& err) {
  ++counters_.read_errors;
  const auto with_part = [&](const std::string& text) { return part.empty() ? text : std::string{part} + ": " + text; };
  const int64_t now = now_ns();
  const auto verdict = malformed_log_.admit(with_part(err.rule.empty() ? "malformed" : err.rule), now);
  if (verdict.closed) log_held_back(*verdict.closed);
  if (verdict.write)
    log_->warn("skipping malformed status record at partition {} offset {} (key '{}'): {}", r.partition, r.offset,
               loggable(r.key), loggable(with_part(err.reason)));
  else
    schedule_held_back_report(now);
}

// -- helpers --

stored_status status_view_state::store_value(status_value&& v) {
  stored_status out{v.state, v.generation, worker_ids_.intern(std::move(v.worker_id)),
                    v.version ? versions_.intern(std::move(*v.version)) : interned_strings::none, nullptr};
  if (v.trace) out.trace = std::make_unique<std::string>(std::move(*v.trace));
  return out;
}

status_value status_view_state::expand(const stored_status& s) const {
  return status_value{
      s.state, s.trace ? std::optional<std::string>{*s.trace} : std::nullopt, worker_ids_.at(s.worker_id), s.generation,
      s.version != interned_strings::none ? std::optional<std::string>{versions_.at(s.version)} : std::nullopt};
}

void status_view_state::log_held_back(const log_rate_limiter::summary& s) {
  log_->warn(
      "... and {} more malformed status record(s) ({}) suppressed in the last {:.1f} s; "
      "status-record-read-errors-total counts every one",
      s.suppressed, s.reason, std::chrono::duration<double>(std::chrono::nanoseconds{s.window_ns}).count());
}

/// One tick when the first window with held-back lines passes, so its count is logged even if no
/// record comes after it.
void status_view_state::schedule_held_back_report(int64_t now) {
  if (malformed_tick_pending_) return;
  if (const auto due = malformed_log_.next_due()) {
    malformed_tick_pending_ = true;
    self_->delayed_send(self_, std::chrono::nanoseconds{std::max<int64_t>(*due - now, 0)}, tick_atom::value);
  }
}

void status_view_state::log_progress(bool force) {
  const auto now = self_->clock().now();
  if (!force && now - last_progress_log_ < std::chrono::seconds{5}) return;
  last_progress_log_ = now;
  const double seconds = std::chrono::duration<double>(now - replay_started_).count();
  log_->info("replay: {} record(s) read in {:.1f} s ({:.0f} records/s)", counters_.records_read, seconds,
             seconds > 0 ? static_cast<double>(counters_.records_read) / seconds : 0.0);
}

status_view_full_actor::behavior_type status_view(self_ptr self, observation_sink_actor coalescer,
                                                  metrics_actor metrics,
                                                  std::shared_ptr<status_topic_follower> reader) {
  self->state.init(self, std::move(coalescer), std::move(metrics), std::move(reader));
  return self->state.make_behavior();
}

}  // namespace

status_view_full_actor spawn_status_view(caf::actor_system& system, observation_sink_actor coalescer,
                                         metrics_actor metrics, std::shared_ptr<status_topic_follower> reader) {
  return system.spawn(status_view, std::move(coalescer), std::move(metrics), std::move(reader));
}

}  // namespace status_store
