// The status view's alerts (docs/operations.md#webhook-alerts): what a live record or the tick changed
// for a connector or task, noted while a batch or tick is handled and handed to the alert sender in
// one message at its end. The replay's records raise none: they tell what happened before this
// store started, which a restart must not page anyone about again.
#include "actors/status_view_state.hpp"

#include "messages/codec/status_key_format.hpp"

#include "caf/send.hpp"

namespace status_store::view_detail {

namespace {

alert_event alert_of(alert_kind kind, const status_key_ref& ref, std::optional<status_state> previous,
                     const status_value& value, int64_t at_ms) {
  alert_event alert;
  alert.kind = kind;
  alert.connector = std::string{ref.connector};
  alert.is_task = ref.task.has_value();
  alert.task = ref.task.value_or(0);
  alert.state = value.state;
  alert.has_previous = previous.has_value();
  alert.previous_state = previous.value_or(status_state::unassigned);
  alert.worker_id = value.worker_id;
  alert.generation = value.generation;
  alert.trace_first_line = value.trace ? first_line_of(*value.trace) : std::string{};
  alert.timestamp_ms = at_ms;
  return alert;
}

}  // namespace

void status_view_state::note_alerts(const status_key_ref& ref, std::optional<status_state> previous,
                                    const status_value& value, flap_rule::change flap, int64_t at_ms) {
  if (!alerts_ || !caught_up_) return;
  const auto note = [&](alert_kind kind) { noted_alerts_.push_back(alert_of(kind, ref, previous, value, at_ms)); };
  if (is_failed_entry(previous, value.state))
    note(alert_kind::failed);
  else if (is_failed_exit(previous, value.state))
    note(alert_kind::recovered);
  if (flap == flap_rule::change::started) {
    alerted_flapping_.emplace(ref.key);
    note(alert_kind::flapping_started);
  } else if (flap == flap_rule::change::stopped) {
    // Only the end of a flapping whose start was alerted: not of one that started during the replay.
    if (const auto it = alerted_flapping_.find(ref.key); it != alerted_flapping_.end()) {
      alerted_flapping_.erase(it);
      note(alert_kind::flapping_stopped);
    }
  }
}

void status_view_state::note_stopped_flapping(const std::vector<flapping_key>& recovered, int64_t at_ms) {
  if (!alerts_) return;
  for (const auto& f : recovered) {
    const std::string key = f.is_task ? task_key(f.connector, f.task) : connector_key(f.connector);
    const auto alerted = alerted_flapping_.find(key);
    if (alerted == alerted_flapping_.end()) continue;
    alerted_flapping_.erase(alerted);
    // The key's status now: a flapping key has one (a tombstone forgets its flapping).
    const stored_status* now = nullptr;
    if (!f.is_task) {
      if (const auto it = connectors_.find(std::string_view{f.connector}); it != connectors_.end()) now = &it->second;
    } else if (const auto it = tasks_.find(f.connector); it != tasks_.end()) {
      if (const auto task = it->second.find(f.task); task != it->second.end()) now = &task->second;
    }
    if (now == nullptr) continue;
    const status_key_ref ref{key, f.connector, f.is_task ? std::optional<int32_t>{f.task} : std::nullopt};
    noted_alerts_.push_back(alert_of(alert_kind::flapping_stopped, ref, std::nullopt, expand(*now), at_ms));
  }
}

void status_view_state::send_alerts() {
  if (noted_alerts_.empty()) return;
  self_->send(alerts_, alert_atom_v, std::move(noted_alerts_));
  noted_alerts_.clear();
}

}  // namespace status_store::view_detail
