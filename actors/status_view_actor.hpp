#pragma once
// The status view: what the status topic says, built only from records read back (a status becomes
// visible when it is read back, as in Connect). Rules, each pinned by a test named after Connect's:
// - A connector tombstone removes the connector and all its tasks (not its topics); a task
//   tombstone removes the task; a topic tombstone removes that topic and leaves the connector's
//   (possibly empty) topic set.
// - Tasks only (KAFKA-12525): a read-back UNASSIGNED does not replace a RUNNING of the same or a
//   higher generation — a delayed UNASSIGNED from the previous owner must not hide a running task.
//   Connector statuses have no such filter.
// - Malformed records (unknown key prefix, empty names, non-numeric task id, bad JSON, wrong types,
//   unknown state) are skipped, counted in status-record-read-errors-total, and logged with their
//   offset, key and reason, escaped and cut (actors/policy/log_text.hpp), at most 10 per rule a minute;
//   then one line says how many more were held back (actors/policy/log_rate_limiter.hpp, timed by the
//   actor's clock). A malformed value creates no entry and changes none.
// - Every applied record is passed on to the coalescer (observe), so putSafe and retries decide on
//   what the topic says.
// - Every applied connector and task status is a step of that key's history and flap state
//   (actors/policy/history_keeper.hpp), timed by the record's timestamp; a tombstone erases them (a
//   connector's, also its tasks'). The tick ends flapping for keys stable for the window.
// - Once the replay is complete, a connector or task entering or leaving FAILED, or starting or
//   stopping flapping, is an alert for the alert sender (if any), one message per batch or tick; the
//   replay's records raise none (docs/operations.md#webhook-alerts).
// - Once the replay is complete, every record read (and every key the tick finds stable for the flap
//   window) is an event for the subscribers (subscribe; monitored, forgotten when they exit), one
//   message per batch or tick, in read order: the events `watch` prints, a stale UNASSIGNED marked as
//   such (docs/http-service.md#the-event-stream).
// - In the store the view runs on a thread of its own, which with its reader follows the topic below
//   the write path's priority once the replay is complete: reading back never holds up a write
//   (docs/architecture.md, "The read side's threads").
#include "actors/policy/flap_rule.hpp"
#include "actors/policy/status_history.hpp"
#include "messages/protocol.hpp"

#include <cstdint>
#include <memory>
#include <optional>

namespace status_store {

class status_topic_follower;

/// The history's caps and the flap rule (worker_config's status.history.* and status.flap.*).
struct view_history_settings {
  status_history::limits history;
  flap_rule::limits flap;
  /// Wall clock minus the actor clock, in ns: how the tick compares the actor's (steady) clock with
  /// record timestamps. Measured at spawn when not given; tests on virtual time give 0.
  std::optional<int64_t> epoch_offset_ns;
};

/// Where the view runs: `own` is a thread of its own (the store's), whose priority is lowered once
/// the replay is complete; `shared` the actor system's workers (tests on the test coordinator).
enum class view_thread : uint8_t { shared, own };

/// `reader` may be null (tests feed records directly); otherwise the view starts it and owns it, and it
/// feeds the view through a status_feed_actor handle. Returns the view's full interface, for wiring;
/// embedders get its queries (status_view_actor) from it.
/// `alerts` may be null: no webhook, no alerts.
status_view_full_actor spawn_status_view(caf::actor_system& system, observation_sink_actor coalescer,
                                         metrics_actor metrics, std::shared_ptr<status_topic_follower> reader,
                                         view_history_settings history = {}, alert_sink_actor alerts = {},
                                         view_thread thread = view_thread::shared);

}  // namespace status_store
