#include "actors/status_view_actor.hpp"

#include "actors/kafka/status_topic_follower.hpp"
#include "actors/policy/log_text.hpp"
#include "actors/policy/stale_unassigned.hpp"
#include "actors/status_view_state.hpp"
#include "actors/threads/thread_priority.hpp"
#include "config/logging.hpp"

#include "caf/actor_system.hpp"
#include "caf/send.hpp"
#include "caf/system_messages.hpp"

#include <algorithm>
#include <chrono>

namespace status_store {

namespace view_detail {

namespace {
// How far below the write path the view's own thread follows the topic, in nice steps: the kernel then
// weighs it at about a tenth of a thread at the usual priority (docs/architecture.md, "The read side's threads").
constexpr int follow_nice_increment = 10;

std::string loggable(std::string_view record_text) {
  return escape_for_log(record_text, static_cast<std::size_t>(defaults::logged_record_text_max_bytes));
}
}  // namespace

using self_ptr = status_view_state::self_ptr;

void status_view_state::init(self_ptr self, observation_sink_actor coalescer, metrics_actor metrics,
                             std::shared_ptr<status_topic_follower> reader, const view_history_settings& history,
                             alert_sink_actor alerts, view_thread thread) {
  self_ = self;
  thread_ = thread;
  coalescer_ = std::move(coalescer);
  metrics_ = std::move(metrics);
  alerts_ = std::move(alerts);
  history_ = history_keeper{history.history, history.flap};
  flap_window_ms_ = history.flap.window_ms;
  self->set_down_handler([this](caf::down_msg& down) { handle_down(down); });
  const auto wall_now = std::chrono::system_clock::now().time_since_epoch();
  epoch_offset_ns_ = history.epoch_offset_ns.value_or(
      std::chrono::duration_cast<std::chrono::nanoseconds>(wall_now).count() - now_ns());
  log_ = component_logger("status-view");
  replay_started_ = last_progress_log_ = self->clock().now();
  if (!reader) return;
  reader_ = std::move(reader);
  const status_feed_actor feed = status_view_full_actor{self};
  reader_->start(
      [feed](std::vector<consumed_record>&& batch) { caf::anon_send(feed, records_atom::value, std::move(batch)); },
      [feed] { caf::anon_send(feed, caught_up_atom::value); });
}

// -- handlers for peers --

void status_view_state::handle_records(std::vector<consumed_record>& records) {
  std::vector<observed_status> observed;
  observed.reserve(records.size());
  for (auto& r : records) {
    ++counters_.records_read;
    if (auto seen = apply(r)) observed.push_back(std::move(*seen));
  }
  if (!caught_up_) {
    counters_.replay_records = counters_.records_read;
    log_progress(false);
  }
  if (!observed.empty()) self_->send(coalescer_, observe_atom::value, std::move(observed));
  send_alerts();
  publish_events();
  schedule_tick(now_ns());  // a key may have started flapping
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
  follow_below_writes();
  // Publish first: whoever waited reads metrics that already show the completed replay.
  self_->send(metrics_, publish_atom::value, counters_);
  for (auto& rp : waiting_for_replay_) rp.deliver(ok_atom::value);
  waiting_for_replay_.clear();
}

// -- timers --

void status_view_state::handle_tick() {
  const int64_t now = now_ns();
  if (tick_at_ns_ && *tick_at_ns_ <= now) tick_at_ns_.reset();
  for (const auto& s : malformed_log_.take_due(now)) log_held_back(s);
  if (const auto recovered = history_.take_recovered(wall_ms(now)); !recovered.empty()) {
    log_->info("{} key(s) stopped flapping: stable for the window", recovered.size());
    note_stopped_flapping(recovered, wall_ms(now));
    send_alerts();
    note_stable_events(recovered);
    publish_events();
  }
  schedule_tick(now);
}

// -- applying records --

/// Applies one record; returns what the coalescer should hear of it if the view changed.
std::optional<observed_status> status_view_state::apply(consumed_record& r) {
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

std::optional<observed_status> status_view_state::apply_connector(consumed_record& r, const parsed_key& key) {
  if (r.tombstone) {  // the connector is gone, and so are its tasks
    erase_connector(key.connector);
    if (events_wanted()) note_record_event(r, key, nullptr);
    return observed_status{r.key, true, {}, 0, r.own};
  }
  auto value = decode_status_value(r.value);
  if (auto* err = std::get_if<decode_error>(&value)) {
    skip(r, "connector status", *err);
    return std::nullopt;
  }
  auto& incoming = std::get<status_value>(value);
  observed_status seen{{}, false, incoming.worker_id, incoming.generation, r.own};
  auto it = connectors_.find(std::string_view{key.connector});
  std::optional<status_state> previous;
  if (it == connectors_.end())
    it = connectors_.emplace(compact_key{key.connector}, stored_status{}).first;
  else
    previous = it->second.state;
  connector_key_into(key.connector, status_key_);
  const status_key_ref ref{status_key_, key.connector, std::nullopt};
  const auto flap = history_.applied(ref, previous, incoming, record_ms(r), r.own);
  note_alerts(ref, previous, incoming, flap, record_ms(r));
  if (events_wanted()) note_status_event(r, key, incoming, flap, false);
  it->second = store_value(std::move(incoming));
  seen.key = std::move(r.key);  // the record's last use
  return seen;
}

std::optional<observed_status> status_view_state::apply_task(consumed_record& r, const parsed_key& key) {
  if (r.tombstone) {
    if (auto it = tasks_.find(key.connector); it != tasks_.end()) {
      it->second.erase(key.task);
      if (it->second.empty()) tasks_.erase(it);
    }
    forget(task_key(key.connector, key.task));
    if (events_wanted()) note_record_event(r, key, nullptr);
    return observed_status{r.key, true, {}, 0, r.own};
  }
  auto value = decode_status_value(r.value);
  if (auto* err = std::get_if<decode_error>(&value)) {
    skip(r, "task status", *err);
    return std::nullopt;
  }
  auto& incoming = std::get<status_value>(value);
  auto& tasks = tasks_[key.connector];
  const auto it = tasks.find(key.task);
  if (it != tasks.end() &&
      is_stale_unassigned(it->second.state, it->second.generation, incoming.state, incoming.generation)) {
    log_->trace("ignoring stale UNASSIGNED (generation {}) for task {}-{} RUNNING in generation {}",
                incoming.generation, loggable(key.connector), key.task, it->second.generation);
    if (events_wanted()) note_status_event(r, key, incoming, flap_rule::change::none, true);
    return std::nullopt;
  }
  observed_status seen{{}, false, incoming.worker_id, incoming.generation, r.own};
  const auto previous = it == tasks.end() ? std::nullopt : std::optional<status_state>{it->second.state};
  task_key_into(key.connector, key.task, status_key_);
  const status_key_ref ref{status_key_, key.connector, key.task};
  const auto flap = history_.applied(ref, previous, incoming, record_ms(r), r.own);
  note_alerts(ref, previous, incoming, flap, record_ms(r));
  if (events_wanted()) note_status_event(r, key, incoming, flap, false);
  tasks[key.task] = store_value(std::move(incoming));
  seen.key = std::move(r.key);  // the record's last use
  return seen;
}

std::optional<observed_status> status_view_state::apply_topic(const consumed_record& r, const parsed_key& key) {
  if (r.tombstone) {
    if (auto it = topics_.find(key.connector); it != topics_.end()) it->second.erase(key.topic);
    if (events_wanted()) note_record_event(r, key, nullptr);
    return observed_status{r.key, true, {}, 0, r.own};
  }
  auto value = decode_topic_value(r.value);
  if (auto* err = std::get_if<decode_error>(&value)) {
    skip(r, "topic status", *err);
    return std::nullopt;
  }
  auto& topic = topics_[key.connector][key.topic] = std::move(std::get<topic_status>(value));
  if (events_wanted()) note_record_event(r, key, &topic);
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
    schedule_tick(now);
}

/// A connector tombstone: the connector, its tasks, and their histories and flap states go.
void status_view_state::erase_connector(const std::string& connector) {
  if (auto it = connectors_.find(std::string_view{connector}); it != connectors_.end()) connectors_.erase(it);
  if (auto it = tasks_.find(connector); it != tasks_.end()) {
    for (const auto& [id, status] : it->second) forget(task_key(connector, id));
    tasks_.erase(it);
  }
  forget(connector_key(connector));
  history_.erased_connector(connector);
}

void status_view_state::forget(std::string_view key) {
  history_.erased(key);
  if (const auto it = alerted_flapping_.find(key); it != alerted_flapping_.end()) alerted_flapping_.erase(it);
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

/// Keeps one tick pending for the earliest of what is due; a later one scheduled before stays and
/// only finds nothing due.
void status_view_state::schedule_tick(int64_t now) {
  std::optional<int64_t> due = malformed_log_.next_due();
  if (const auto stable_ms = history_.next_due()) {
    const int64_t stable_ns = *stable_ms * 1'000'000 - epoch_offset_ns_;
    if (!due || stable_ns < *due) due = stable_ns;
  }
  if (!due || (tick_at_ns_ && *tick_at_ns_ <= *due)) return;
  tick_at_ns_ = due;
  self_->delayed_send(self_, std::chrono::nanoseconds{std::max<int64_t>(*due - now, 0)}, tick_atom::value);
}

/// On its own thread, the view and its reader follow the topic below the write path's priority from
/// now on: the replay, which start-up waits for, ran at the same priority as everything else.
void status_view_state::follow_below_writes() {
  if (thread_ != view_thread::own) return;
  if (reader_) reader_->follow_below(follow_nice_increment);  // its thread and the consumer's
  if (const auto refused = lower_this_thread_priority(follow_nice_increment); !refused.empty())
    log_->warn(
        "could not lower the status view's thread priority ({}): it follows the topic at the write "
        "path's priority",
        refused);
  else
    log_->debug("following the topic on its own thread at nice {}", this_thread_nice());
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
                                                  metrics_actor metrics, std::shared_ptr<status_topic_follower> reader,
                                                  const view_history_settings& history, alert_sink_actor alerts,
                                                  view_thread thread) {
  self->state.init(self, std::move(coalescer), std::move(metrics), std::move(reader), history, std::move(alerts),
                   thread);
  return self->state.make_behavior();
}

}  // namespace view_detail

status_view_full_actor spawn_status_view(caf::actor_system& system, observation_sink_actor coalescer,
                                         metrics_actor metrics, std::shared_ptr<status_topic_follower> reader,
                                         view_history_settings history, alert_sink_actor alerts, view_thread thread) {
  // Its own thread: a batch of records read back (up to 5,000) then never holds a scheduler worker
  // that the coalescer or the producer is waiting for.
  if (thread == view_thread::own)
    return system.spawn<caf::detached>(view_detail::status_view, std::move(coalescer), std::move(metrics),
                                       std::move(reader), std::move(history), std::move(alerts), thread);
  return system.spawn(view_detail::status_view, std::move(coalescer), std::move(metrics), std::move(reader),
                      std::move(history), std::move(alerts), thread);
}

}  // namespace status_store
