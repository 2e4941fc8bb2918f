// The status view's events (docs/http-service.md#the-event-stream): once the replay is complete, every
// record it reads becomes an event for its subscribers — a status (applied, or a stale UNASSIGNED it
// did not apply), a tombstone or a topic status — and so does a key the tick found stable for the
// flap window. Noted while a batch or tick is handled, handed to each subscriber in one message at its
// end; nothing is noted while no one subscribed. Subscribers are monitored and forgotten when they exit.
#include "actors/status_view_state.hpp"

#include "caf/send.hpp"
#include "caf/system_messages.hpp"

#include <algorithm>

namespace status_store::view_detail {

namespace {

flap_mark mark_of(flap_rule::change change) {
  return change == flap_rule::change::started   ? flap_mark::started
         : change == flap_rule::change::stopped ? flap_mark::stopped
                                                : flap_mark::none;
}

}  // namespace

void status_view_state::handle_subscribe(status_event_sink_actor sink) {
  if (!sink || std::find(subscribers_.begin(), subscribers_.end(), sink) != subscribers_.end()) return;
  self_->monitor(sink);
  log_->debug("event subscriber {} added ({} in all)", sink.id(), subscribers_.size() + 1);
  subscribers_.push_back(std::move(sink));
}

void status_view_state::handle_down(const caf::down_msg& down) {
  std::erase_if(subscribers_, [&](const status_event_sink_actor& s) { return s.address() == down.source; });
}

void status_view_state::note_status_event(const consumed_record& r, const parsed_key& key, const status_value& value,
                                          flap_rule::change flap, bool stale) {
  status_event e = record_event(r, key);
  e.value = value;
  e.flapping = mark_of(flap);
  e.stale = stale;
  noted_events_.push_back(std::move(e));
}

void status_view_state::note_record_event(const consumed_record& r, const parsed_key& key, const topic_status* topic) {
  status_event e = record_event(r, key);
  if (topic == nullptr) {
    e.kind = status_event_kind::deleted;
  } else {
    e.kind = status_event_kind::topic;
    e.task = topic->task;
    e.discover_timestamp = topic->discover_timestamp;
  }
  noted_events_.push_back(std::move(e));
}

void status_view_state::note_stable_events(const std::vector<flapping_key>& recovered) {
  if (!events_wanted()) return;
  for (const auto& k : recovered) {
    const std::string key = k.is_task ? task_key(k.connector, k.task) : connector_key(k.connector);
    if (auto e = stable_event(key, flap_window_ms_)) noted_events_.push_back(std::move(*e));
  }
}

void status_view_state::publish_events() {
  if (noted_events_.empty()) return;
  // One copy per subscriber but the last, which gets the batch itself.
  for (size_t i = 0; i + 1 < subscribers_.size(); ++i) self_->send(subscribers_[i], events_atom::value, noted_events_);
  if (!subscribers_.empty()) self_->send(subscribers_.back(), events_atom::value, std::move(noted_events_));
  noted_events_.clear();
}

}  // namespace status_store::view_detail
