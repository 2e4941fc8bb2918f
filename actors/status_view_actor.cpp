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

struct status_view_state {
  status_view_state() = default;  // required under C++20, see CMakeLists.txt
  static inline const char* name = "status-store.status-view";

  coalescer_actor coalescer;
  metrics_actor metrics;
  std::shared_ptr<status_topic_follower> reader;
  std::shared_ptr<spdlog::logger> log;

  // Connect keeps the same three maps (connectors, tasks, topics); std::map keeps answers ordered.
  std::unordered_map<compact_key, stored_status, compact_key_hash, compact_key_equal> connectors;  // by name
  std::unordered_map<std::string, std::map<int32_t, stored_status>> tasks;
  interned_strings worker_ids;
  interned_strings versions;
  std::unordered_map<std::string, std::map<std::string, topic_status>> topics;

  view_counters counters;
  // Malformed records are logged at most so often per rule (config/defaults.hpp); a tick tells how
  // many were held back once their window has passed.
  log_rate_limiter malformed_log{
      {defaults::malformed_record_log_lines, defaults::malformed_record_log_interval_ms * 1'000'000}};
  bool malformed_tick_pending = false;
  bool caught_up = false;
  caf::actor_clock::time_point replay_started;
  caf::actor_clock::time_point last_progress_log;
  std::vector<caf::typed_response_promise<ok_atom>> waiting_for_replay;

  ~status_view_state() {
    if (reader) reader->stop();  // joins the reader thread, which holds a handle on this actor
  }
};

using self_ptr = status_view_actor::stateful_pointer<status_view_state>;

stored_status store_value(self_ptr self, status_value&& v) {
  stored_status out{v.state, v.generation, self->state.worker_ids.intern(std::move(v.worker_id)),
                    v.version ? self->state.versions.intern(std::move(*v.version)) : interned_strings::none, nullptr};
  if (v.trace) out.trace = std::make_unique<std::string>(std::move(*v.trace));
  return out;
}

status_value expand(self_ptr self, const stored_status& s) {
  const auto& st = self->state;
  return status_value{
      s.state, s.trace ? std::optional<std::string>{*s.trace} : std::nullopt, st.worker_ids.at(s.worker_id),
      s.generation,
      s.version != interned_strings::none ? std::optional<std::string>{st.versions.at(s.version)} : std::nullopt};
}

int64_t now_ns(self_ptr self) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(self->clock().now().time_since_epoch()).count();
}

std::string loggable(std::string_view record_text) {
  return escape_for_log(record_text, static_cast<std::size_t>(defaults::logged_record_text_max_bytes));
}

void log_held_back(self_ptr self, const log_rate_limiter::summary& s) {
  self->state.log->warn(
      "... and {} more malformed status record(s) ({}) suppressed in the last {:.1f} s; "
      "status-record-read-errors-total counts every one",
      s.suppressed, s.reason, std::chrono::duration<double>(std::chrono::nanoseconds{s.window_ns}).count());
}

/// One tick when the first window with held-back lines passes, so its count is logged even if no
/// record comes after it.
void schedule_held_back_report(self_ptr self, int64_t now) {
  auto& st = self->state;
  if (st.malformed_tick_pending) return;
  if (const auto due = st.malformed_log.next_due()) {
    st.malformed_tick_pending = true;
    self->delayed_send(self, std::chrono::nanoseconds{std::max<int64_t>(*due - now, 0)}, tick_atom::value);
  }
}

void on_tick(self_ptr self) {
  auto& st = self->state;
  st.malformed_tick_pending = false;
  const int64_t now = now_ns(self);
  for (const auto& s : st.malformed_log.take_due(now)) log_held_back(self, s);
  schedule_held_back_report(self, now);
}

/// Counts a malformed record and logs it, escaped and bounded, unless its rule's budget is spent.
/// `part`: what failed to decode ("" for the key, else "connector status", ...).
void skip(self_ptr self, const consumed_record& r, std::string_view part, const decode_error& err) {
  auto& st = self->state;
  ++st.counters.read_errors;
  const auto with_part = [&](const std::string& text) { return part.empty() ? text : std::string{part} + ": " + text; };
  const int64_t now = now_ns(self);
  const auto verdict = st.malformed_log.admit(with_part(err.rule.empty() ? "malformed" : err.rule), now);
  if (verdict.closed) log_held_back(self, *verdict.closed);
  if (verdict.write)
    st.log->warn("skipping malformed status record at partition {} offset {} (key '{}'): {}", r.partition, r.offset,
                 loggable(r.key), loggable(with_part(err.reason)));
  else
    schedule_held_back_report(self, now);
}

/// Applies one record; returns what the coalescer should hear of it if the view changed.
std::optional<observed_status> apply(self_ptr self, const consumed_record& r) {
  auto& st = self->state;
  auto parsed = parse_key(r.key);
  if (auto* err = std::get_if<decode_error>(&parsed)) {
    skip(self, r, "", *err);
    return std::nullopt;
  }
  const observed_status deleted{r.key, true, {}, 0, r.own};
  const auto& key = std::get<parsed_key>(parsed);
  switch (key.kind) {
    case key_kind::connector: {
      if (r.tombstone) {  // the connector is gone, and so are its tasks
        if (auto it = st.connectors.find(std::string_view{key.connector}); it != st.connectors.end())
          st.connectors.erase(it);
        st.tasks.erase(key.connector);
        return deleted;
      }
      auto value = decode_status_value(r.value);
      if (auto* err = std::get_if<decode_error>(&value)) {
        skip(self, r, "connector status", *err);
        return std::nullopt;
      }
      auto& incoming = std::get<status_value>(value);
      observed_status seen{r.key, false, incoming.worker_id, incoming.generation, r.own};
      auto it = st.connectors.find(std::string_view{key.connector});
      if (it == st.connectors.end()) it = st.connectors.emplace(compact_key{key.connector}, stored_status{}).first;
      it->second = store_value(self, std::move(incoming));
      return seen;
    }
    case key_kind::task: {
      if (r.tombstone) {
        if (auto it = st.tasks.find(key.connector); it != st.tasks.end()) {
          it->second.erase(key.task);
          if (it->second.empty()) st.tasks.erase(it);
        }
        return deleted;
      }
      auto value = decode_status_value(r.value);
      if (auto* err = std::get_if<decode_error>(&value)) {
        skip(self, r, "task status", *err);
        return std::nullopt;
      }
      auto& incoming = std::get<status_value>(value);
      auto& tasks = st.tasks[key.connector];
      if (auto it = tasks.find(key.task); it != tasks.end() && incoming.state == status_state::unassigned &&
                                          it->second.state == status_state::running &&
                                          it->second.generation >= incoming.generation) {
        st.log->trace("ignoring stale UNASSIGNED (generation {}) for task {}-{} RUNNING in generation {}",
                      incoming.generation, loggable(key.connector), key.task, it->second.generation);
        return std::nullopt;
      }
      observed_status seen{r.key, false, incoming.worker_id, incoming.generation, r.own};
      tasks[key.task] = store_value(self, std::move(incoming));
      return seen;
    }
    case key_kind::topic: {
      if (r.tombstone) {
        if (auto it = st.topics.find(key.connector); it != st.topics.end()) it->second.erase(key.topic);
        return deleted;
      }
      auto value = decode_topic_value(r.value);
      if (auto* err = std::get_if<decode_error>(&value)) {
        skip(self, r, "topic status", *err);
        return std::nullopt;
      }
      st.topics[key.connector][key.topic] = std::move(std::get<topic_status>(value));
      return observed_status{r.key, false, {}, 0, r.own};
    }
  }
  return std::nullopt;
}

void log_progress(self_ptr self, bool force) {
  auto& st = self->state;
  const auto now = self->clock().now();
  if (!force && now - st.last_progress_log < std::chrono::seconds{5}) return;
  st.last_progress_log = now;
  const double seconds = std::chrono::duration<double>(now - st.replay_started).count();
  st.log->info("replay: {} record(s) read in {:.1f} s ({:.0f} records/s)", st.counters.records_read, seconds,
               seconds > 0 ? static_cast<double>(st.counters.records_read) / seconds : 0.0);
}

/// What the view knows of one connector: its status, its tasks (by id) and its topics.
connector_view view_of(self_ptr self, std::string_view connector) {
  auto& s = self->state;
  connector_view v;
  v.name = std::string{connector};
  if (auto it = s.connectors.find(connector); it != s.connectors.end()) {
    v.found = true;
    v.connector = connector_status{v.name, expand(self, it->second)};
  }
  if (auto it = s.tasks.find(v.name); it != s.tasks.end())
    for (const auto& [id, value] : it->second) v.tasks.push_back(task_status{v.name, id, expand(self, value)});
  if (auto it = s.topics.find(v.name); it != s.topics.end())
    for (const auto& [name, status] : it->second) v.topics.push_back(status);
  return v;
}

status_view_actor::behavior_type status_view(self_ptr self, coalescer_actor coalescer, metrics_actor metrics,
                                             std::shared_ptr<status_topic_follower> reader) {
  auto& st = self->state;
  st.coalescer = std::move(coalescer);
  st.metrics = std::move(metrics);
  st.log = component_logger("status-view");
  st.replay_started = st.last_progress_log = self->clock().now();
  if (reader) {
    st.reader = std::move(reader);
    auto view = caf::actor_cast<status_view_actor>(self);
    st.reader->start(
        [view](std::vector<consumed_record>&& batch) { caf::anon_send(view, records_atom::value, std::move(batch)); },
        [view] { caf::anon_send(view, caught_up_atom::value); });
  }
  return {
      [=](records_atom, std::vector<consumed_record>& records) {
        auto& s = self->state;
        std::vector<observed_status> observed;
        observed.reserve(records.size());
        for (const auto& r : records) {
          ++s.counters.records_read;
          if (auto seen = apply(self, r)) observed.push_back(std::move(*seen));
        }
        if (!s.caught_up) {
          s.counters.replay_records = s.counters.records_read;
          log_progress(self, false);
        }
        if (!observed.empty()) self->send(s.coalescer, observe_atom::value, std::move(observed));
        self->send(s.metrics, publish_atom::value, s.counters);
      },
      [=](caught_up_atom) {
        auto& s = self->state;
        if (s.caught_up) return;
        s.caught_up = true;
        s.counters.replay_records = s.counters.records_read;
        s.counters.replay_ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(self->clock().now() - s.replay_started).count();
        log_progress(self, true);
        s.log->info("replay complete: {} connector(s), {} with tasks, {} with topics; {} malformed record(s) skipped",
                    s.connectors.size(), s.tasks.size(), s.topics.size(), s.counters.read_errors);
        // Publish first: whoever waited reads metrics that already show the completed replay.
        self->send(s.metrics, publish_atom::value, s.counters);
        for (auto& rp : s.waiting_for_replay) rp.deliver(ok_atom::value);
        s.waiting_for_replay.clear();
      },
      [=](await_atom) -> caf::result<ok_atom> {
        if (self->state.caught_up) return ok_atom::value;
        auto rp = self->make_response_promise<ok_atom>();
        self->state.waiting_for_replay.push_back(rp);
        return rp;
      },
      [=](get_atom, const std::string& connector) { return view_of(self, connector); },
      [=](get_atom, const std::string& connector, int32_t task) {
        // One map lookup: the REST task endpoint need not copy the connector's other tasks and topics.
        std::vector<task_status> found;
        if (auto it = self->state.tasks.find(connector); it != self->state.tasks.end())
          if (auto t = it->second.find(task); t != it->second.end())
            found.push_back(task_status{connector, task, expand(self, t->second)});
        return found;
      },
      [=](get_atom, all_atom) {
        // One pass for clients that list every connector with its status (Connect's ?expand=status).
        std::vector<connector_view> views;
        views.reserve(self->state.connectors.size());
        for (const auto& [name, value] : self->state.connectors) views.push_back(view_of(self, name.view()));
        std::sort(views.begin(), views.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
        return views;
      },
      [=](list_atom) {
        std::vector<std::string> names;
        names.reserve(self->state.connectors.size());
        for (const auto& [name, value] : self->state.connectors) names.emplace_back(name.view());
        std::sort(names.begin(), names.end());
        return names;
      },
      [=](tick_atom) { on_tick(self); },
  };
}

}  // namespace

status_view_actor spawn_status_view(caf::actor_system& system, coalescer_actor coalescer, metrics_actor metrics,
                                    std::shared_ptr<status_topic_follower> reader) {
  return system.spawn(status_view, std::move(coalescer), std::move(metrics), std::move(reader));
}

}  // namespace status_store
