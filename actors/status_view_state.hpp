#pragma once
// The status view's state, shared by its two source files: status_view_actor.cpp applies what the
// topic reader feeds it, status_view_queries.cpp answers the embedder. Private to the view.
#include "actors/kafka/status_topic_follower.hpp"
#include "actors/policy/compact_key.hpp"
#include "actors/policy/history_keeper.hpp"
#include "actors/policy/interned_strings.hpp"
#include "actors/policy/log_rate_limiter.hpp"
#include "actors/status_view_actor.hpp"
#include "config/defaults.hpp"
#include "config/logging.hpp"
#include "messages/status_record_codec.hpp"

#include "caf/stateful_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace status_store::view_detail {

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
            std::shared_ptr<status_topic_follower> reader, const view_history_settings& history,
            alert_sink_actor alerts, view_thread thread);

  status_view_full_actor::behavior_type make_behavior() {
    return {
        [this](await_atom) { return handle_await(); },
        [this](get_atom, const std::string& connector) { return view_of(connector); },
        [this](get_atom, const std::string& connector, int32_t task) { return handle_get_task(connector, task); },
        [this](list_atom) { return handle_list(); },
        [this](get_atom, all_atom) { return handle_get_all(); },
        [this](get_atom, history_atom, const std::string& connector) { return handle_history(connector); },
        [this](get_atom, history_atom, const std::string& connector, int32_t task) {
          return handle_task_history(connector, task);
        },
        [this](get_atom, flapping_atom) { return handle_flapping(); },
        [this](get_atom, history_atom, all_atom) { return handle_history_counts(); },
        [this](get_atom, overview_atom) { return handle_overview(); },
        [this](subscribe_atom, status_event_sink_actor& sink) { handle_subscribe(std::move(sink)); },
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
  key_history handle_history(const std::string& connector) const;
  key_history handle_task_history(const std::string& connector, int32_t task) const;
  std::vector<flapping_key> handle_flapping() const;
  history_counts handle_history_counts() const;
  view_overview handle_overview() const;
  void handle_subscribe(status_event_sink_actor sink);

  // -- handlers for peers --
  void handle_records(std::vector<consumed_record>& records);
  void handle_caught_up();

  // -- timers --
  void handle_tick();

  // -- applying records --
  std::optional<observed_status> apply(consumed_record& r);
  std::optional<observed_status> apply_connector(consumed_record& r, const parsed_key& key);
  std::optional<observed_status> apply_task(consumed_record& r, const parsed_key& key);
  std::optional<observed_status> apply_topic(const consumed_record& r, const parsed_key& key);
  void skip(const consumed_record& r, std::string_view part, const decode_error& err);
  void erase_connector(const std::string& connector);
  /// A tombstone of `key`: its history, flap state and alerted flapping go.
  void forget(std::string_view key);
  /// The record's timestamp, or the wall clock's when it has none.
  int64_t record_ms(const consumed_record& r) const { return r.timestamp_ms >= 0 ? r.timestamp_ms : wall_ms(now_ns()); }

  // -- alerts (status_view_alerts.cpp) --
  /// The alerts a live record of `ref` raises: FAILED entered or left, flapping started or stopped.
  void note_alerts(const status_key_ref& ref, std::optional<status_state> previous, const status_value& value,
                   flap_rule::change flap, int64_t at_ms);
  /// The keys the tick found stable for the window, those whose flapping was alerted.
  void note_stopped_flapping(const std::vector<flapping_key>& recovered, int64_t at_ms);
  /// Hands what was noted to the alert sender, in one message.
  void send_alerts();

  // -- events for subscribers (status_view_events.cpp) --
  /// Whether the records now read become events: the replay is complete and someone subscribed.
  bool events_wanted() const { return caught_up_ && !subscribers_.empty(); }
  /// The event of a connector's or task's status the view applied (or, `stale`, did not).
  void note_status_event(const consumed_record& r, const parsed_key& key, const status_value& value,
                         flap_rule::change flap, bool stale);
  /// The event of a tombstone or topic status; `topic` null for a tombstone.
  void note_record_event(const consumed_record& r, const parsed_key& key, const topic_status* topic);
  /// The events of keys the tick found stable for the window.
  void note_stable_events(const std::vector<flapping_key>& recovered);
  /// Hands what was noted to every subscriber, one message each.
  void publish_events();
  /// A subscriber exited: it is forgotten.
  void handle_down(const caf::down_msg& down);

  // -- helpers --
  int64_t now_ns() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(self_->clock().now().time_since_epoch()).count();
  }
  stored_status store_value(status_value&& v);
  status_value expand(const stored_status& s) const;
  /// The actor clock's `now` (ns) as wall-clock ms since epoch, the unit of record timestamps.
  int64_t wall_ms(int64_t now) const {
    const int64_t wall_ns = now + epoch_offset_ns_;
    return wall_ns / 1'000'000 - (wall_ns % 1'000'000 < 0 ? 1 : 0);
  }
  void log_held_back(const log_rate_limiter::summary& s);
  /// One tick when the first of what waits for time is due: a malformed-log window passes, or a
  /// flapping key has been stable for the window. None when nothing waits.
  void schedule_tick(int64_t now);
  void follow_below_writes();
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
  std::optional<int64_t> tick_at_ns_;  // the earliest tick scheduled, on the actor clock
  history_keeper history_{{}, {}};
  alert_sink_actor alerts_;                              // null: no webhook
  std::vector<alert_event> noted_alerts_;                // of the batch or tick being handled
  std::set<std::string, std::less<>> alerted_flapping_;  // keys whose start of flapping was alerted
  std::vector<status_event_sink_actor> subscribers_;     // monitored: removed when they exit
  std::vector<status_event> noted_events_;               // of the batch or tick being handled
  int64_t flap_window_ms_ = 0;                           // status.flap.window.ms, for stable events
  int64_t epoch_offset_ns_ = 0;                          // wall clock minus actor clock (steady), set at init
  std::string status_key_;  // the record's key in canonical form, rebuilt per record without allocating
  bool caught_up_ = false;
  view_thread thread_ = view_thread::shared;
  caf::actor_clock::time_point replay_started_;
  caf::actor_clock::time_point last_progress_log_;
  std::vector<caf::typed_response_promise<ok_atom>> waiting_for_replay_;
};

}  // namespace status_store::view_detail
