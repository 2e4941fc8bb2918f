#pragma once
// The protocol of status-store: every message and every typed actor interface, in one place.
//
// The path of one status update reads in one direction:
//
//   facade ──ingest table, wake──▶ coalescer ──produce──▶ producer I/O ──(Kafka client)──▶ Kafka
//   (an actor sends put to the coalescer instead)
//                                     ▲  │                     │
//                                     │  └──publish──▶ metrics │
//                                     │                        │
//                                     ├──────delivered─────────┘   (delivery reports, in batches)
//                                     │
//   retry scheduler ◀───schedule── coalescer;  retry scheduler ──retry_due──▶ coalescer
//
// The interfaces below come in three groups: what embedders hold (status_store_actor, status_view_actor,
// metrics_actor); what each peer holds, only as wide as what it sends (delivery_sink_actor, ...); and
// each actor's full interface, its timers included, held only by the actor and the wiring code.
//
// | from            | to              | message                                   | meaning                                   |
// |-----------------|-----------------|-------------------------------------------|-------------------------------------------|
// | facade / worker | coalescer       | put, status_update                        | accept one update (latest per key wins)   |
// | facade / worker | coalescer       | put, vector<status_update>                | accept a batch                            |
// | facade          | coalescer       | wake                                      | updates wait in the ingest table          |
// | status view     | coalescer       | observe, vector<observed_status>          | values read back (putSafe, tombstones)    |
// | facade / worker | coalescer       | flush → ok                                | every update accepted before is resolved  |
// | facade          | coalescer       | stop, timespan → drain_report             | drain, then count the rest failed         |
// | coalescer       | producer I/O    | report_to, delivery_sink_actor            | where delivery reports go (sent once)     |
// | coalescer       | producer I/O    | produce, vector<outgoing_record>          | write these records, one per key          |
// | producer I/O    | coalescer       | delivered, vector<delivery_result>        | judged acks and errors, in batches        |
// | producer I/O    | coalescer       | brokers, bool                             | a broker is reachable (false: hold sends) |
// | coalescer       | retry scheduler | report_to, retry_sink_actor               | where due retries go (sent once)          |
// | coalescer       | retry scheduler | schedule, vector<retry_request>           | back off, then tell me                    |
// | retry scheduler | coalescer       | retry_due, vector<retry_request>          | these retries' backoff has elapsed        |
// | retry scheduler | itself          | fire                                      | delayed self-message: the backoff timer   |
// | coalescer       | itself          | tick                                      | end of a mailbox burst: ship outbox       |
// | coalescer       | itself          | deadline                                  | the stop timeout has elapsed              |
// | coalescer       | itself          | hold_check                                | end held attempts older than the timeout  |
// | coalescer       | metrics         | publish, write_side_report                | counters, gauges, new acks' hop timings   |
// | topic reader    | status view     | records, vector<consumed_record>          | records read from the status topic        |
// | topic reader    | status view     | caught_up                                 | the replay reached the start-up end offsets |
// | facade / worker | status view     | await → ok                                | answers once the replay is complete       |
// | facade / worker | status view     | get, string → connector_view              | a connector's status, tasks and topics    |
// | facade / worker | status view     | get, string, int32 → vector<task_status>  | one task's status: none or one            |
// | facade / worker | status view     | list → vector<string>                     | the connectors with a known status        |
// | facade / worker | status view     | get, all → vector<connector_view>         | every such connector's view, in one pass  |
// | facade / worker | status view     | get, history, string → key_history        | a connector's transitions, oldest first   |
// | facade / worker | status view     | get, history, string, int32 → key_history | a task's transitions, oldest first        |
// | facade / worker | status view     | get, flapping → vector<flapping_key>      | the flapping connectors and tasks, since  |
// | facade / worker | status view     | get, history, all → history_counts        | FAILED entries and flapping per connector |
// | status view     | metrics         | publish, view_counters                    | records read, read errors, replay figures |
// | status view     | itself          | tick                                      | log held-back lines; end stable flapping  |
// | facade / worker | status view     | get, overview → view_overview             | the status page's view, in one pass       |
// | event hub       | status view     | subscribe, status_event_sink_actor        | publish live events here until it exits   |
// | status view     | event hub       | events, vector<status_event>              | the events of one batch or tick           |
// | HTTP listener   | event hub       | join, event_stream_port                   | an event stream opened                    |
// | HTTP listener   | event hub       | leave, uint64                             | an event stream ended                     |
// | status view     | alert sender    | alert, vector<alert_event>                | FAILED, recovered, flapping: to be posted |
// | transport       | alert sender    | posted, uint64, alert_post_result         | how one POST ended (from its own thread)  |
// | alert sender    | itself          | fire, uint64                              | delayed self-message: an alert's backoff  |
// | alert sender    | metrics         | publish, alert_counters                   | raised, sent, retried, failed, dropped    |
// | anyone          | metrics         | get → metrics_snapshot                    | a consistent snapshot                     |
#include "caf/atom.hpp"
#include "caf/fwd.hpp"
#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"
#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/alert.hpp"
#include "messages/event_stream_sink.hpp"
#include "messages/history.hpp"
#include "messages/payloads.hpp"
#include "messages/status.hpp"
#include "messages/status_event.hpp"
#include "messages/view_overview.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace status_store {

// ---- atoms (at most 10 characters) ---------------------------------------------------------------
using put_atom = caf::atom_constant<caf::atom("put")>;
using wake_atom = caf::atom_constant<caf::atom("wake")>;
using observe_atom = caf::atom_constant<caf::atom("observe")>;
using flush_atom = caf::atom_constant<caf::atom("flush")>;
using stop_atom = caf::atom_constant<caf::atom("stop")>;
using report_to_atom = caf::atom_constant<caf::atom("report_to")>;
using produce_atom = caf::atom_constant<caf::atom("produce")>;
using delivered_atom = caf::atom_constant<caf::atom("delivered")>;
using schedule_atom = caf::atom_constant<caf::atom("schedule")>;
using retry_due_atom = caf::atom_constant<caf::atom("retry_due")>;
using fire_atom = caf::atom_constant<caf::atom("fire")>;
using tick_atom = caf::atom_constant<caf::atom("tick")>;
using deadline_atom = caf::atom_constant<caf::atom("deadline")>;
using publish_atom = caf::atom_constant<caf::atom("publish")>;
using records_atom = caf::atom_constant<caf::atom("records")>;
using caught_up_atom = caf::atom_constant<caf::atom("caught_up")>;
using await_atom = caf::atom_constant<caf::atom("await")>;
using list_atom = caf::atom_constant<caf::atom("list")>;
using all_atom = caf::atom_constant<caf::atom("all")>;
using brokers_atom = caf::atom_constant<caf::atom("brokers")>;
using hold_check_atom = caf::atom_constant<caf::atom("holdcheck")>;
using history_atom = caf::atom_constant<caf::atom("history")>;
using flapping_atom = caf::atom_constant<caf::atom("flapping")>;
using alert_atom = caf::atom_constant<caf::atom("alert")>;
using posted_atom = caf::atom_constant<caf::atom("posted")>;
using overview_atom = caf::atom_constant<caf::atom("overview")>;
using subscribe_atom = caf::atom_constant<caf::atom("subscribe")>;
using events_atom = caf::atom_constant<caf::atom("events")>;
using join_atom = caf::atom_constant<caf::atom("join")>;
using leave_atom = caf::atom_constant<caf::atom("leave")>;
using get_atom = caf::get_atom;
using ok_atom = caf::ok_atom;

inline constexpr put_atom put_atom_v{};
inline constexpr wake_atom wake_atom_v{};
inline constexpr observe_atom observe_atom_v{};
inline constexpr flush_atom flush_atom_v{};
inline constexpr stop_atom stop_atom_v{};
inline constexpr report_to_atom report_to_atom_v{};
inline constexpr produce_atom produce_atom_v{};
inline constexpr delivered_atom delivered_atom_v{};
inline constexpr schedule_atom schedule_atom_v{};
inline constexpr retry_due_atom retry_due_atom_v{};
inline constexpr fire_atom fire_atom_v{};
inline constexpr tick_atom tick_atom_v{};
inline constexpr deadline_atom deadline_atom_v{};
inline constexpr publish_atom publish_atom_v{};
inline constexpr records_atom records_atom_v{};
inline constexpr caught_up_atom caught_up_atom_v{};
inline constexpr await_atom await_atom_v{};
inline constexpr list_atom list_atom_v{};
inline constexpr all_atom all_atom_v{};
inline constexpr brokers_atom brokers_atom_v{};
inline constexpr hold_check_atom hold_check_atom_v{};
inline constexpr history_atom history_atom_v{};
inline constexpr flapping_atom flapping_atom_v{};
inline constexpr alert_atom alert_atom_v{};
inline constexpr posted_atom posted_atom_v{};
inline constexpr overview_atom overview_atom_v{};
inline constexpr subscribe_atom subscribe_atom_v{};
inline constexpr events_atom events_atom_v{};
inline constexpr join_atom join_atom_v{};
inline constexpr leave_atom leave_atom_v{};

// ---- inspect: lets CAF print messages in tests and logs ----------------------------------------------
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, status_update& x) {
  return f(caf::meta::type_name("status_update"), x.key, x.tombstone, x.value, x.safe, x.worker_id, x.generation,
           x.put_ns);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, observed_status& x) {
  return f(caf::meta::type_name("observed_status"), x.key, x.tombstone, x.worker_id, x.generation, x.own);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, outgoing_record& x) {
  return f(caf::meta::type_name("outgoing_record"), x.key, x.tombstone, x.value, x.send_id);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, delivery_result& x) {
  return f(caf::meta::type_name("delivery_result"), x.key, x.send_id, x.error, x.partition, x.error_text,
           x.verdict.outcome, x.verdict.authentication, x.verdict.advice, x.reported_ns, x.queue_us);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, retry_request& x) {
  return f(caf::meta::type_name("retry_request"), x.key, x.retry_count, x.ticket);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, store_counters& x) {
  return f(caf::meta::type_name("store_counters"), x.accepted, x.success, x.failure, x.authentication_failure, x.retry,
           x.attempt_errors, x.coalesced, x.dropped_stale, x.pending, x.in_flight, x.waiting_retry, x.held,
           x.oldest_unacked_since_ns, x.ack_latency_p50_us, x.ack_latency_p99_us, x.ack_latency_max_us);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, consumed_record& x) {
  return f(caf::meta::type_name("consumed_record"), x.key, x.tombstone, x.value, x.partition, x.offset, x.own,
           x.timestamp_ms);
}
namespace detail {
/// CAF 0.17 inspects caf::optional but not std::optional; this adapter does for a std::optional field
/// what CAF does for its own (a presence flag, then the value).
template <class T>
struct std_optional_field {
  std::optional<T>& x;
};
template <class Inspector, class T>
std::enable_if_t<Inspector::reads_state, typename Inspector::result_type> inspect(Inspector& f,
                                                                                  std_optional_field<T>& w) {
  return w.x ? f(true, *w.x) : f(false);
}
template <class Inspector, class T>
std::enable_if_t<Inspector::writes_state, typename Inspector::result_type> inspect(Inspector& f,
                                                                                   std_optional_field<T>& w) {
  bool present = false;
  T value{};
  caf::optional_inspect_helper<T> helper{present, value};
  auto result = f(present, helper);
  if (present)
    w.x = std::move(value);
  else
    w.x.reset();
  return result;
}
}  // namespace detail

// status_state travels as its underlying byte.
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, status_value& x) {
  detail::std_optional_field<std::string> trace{x.trace};
  detail::std_optional_field<std::string> version{x.version};
  return f(caf::meta::type_name("status_value"), reinterpret_cast<uint8_t&>(x.state), trace, x.worker_id, x.generation,
           version);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, connector_status& x) {
  return f(caf::meta::type_name("connector_status"), x.connector, x.value);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, task_status& x) {
  return f(caf::meta::type_name("task_status"), x.connector, x.task, x.value);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, topic_status& x) {
  return f(caf::meta::type_name("topic_status"), x.topic, x.connector, x.task, x.discover_timestamp);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, connector_view& x) {
  return f(caf::meta::type_name("connector_view"), x.name, x.found, x.connector, x.tasks, x.topics);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, key_change& x) {
  return f(caf::meta::type_name("key_change"), x.key, x.last_change_ms);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, view_overview& x) {
  return f(caf::meta::type_name("view_overview"), x.connectors, x.changes, x.flapping);
}
// The enums travel as their underlying bytes.
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, status_event& x) {
  return f(caf::meta::type_name("status_event"), reinterpret_cast<uint8_t&>(x.kind), x.key,
           reinterpret_cast<uint8_t&>(x.type), x.connector, x.task, x.topic, x.value, x.discover_timestamp,
           reinterpret_cast<uint8_t&>(x.flapping), x.stale, x.partition, x.offset, x.timestamp_ms, x.stable_for_ms);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, view_counters& x) {
  return f(caf::meta::type_name("view_counters"), x.records_read, x.read_errors, x.replay_records, x.replay_ms);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ack_timing& x) {
  return f(caf::meta::type_name("ack_timing"), x.put_to_ack_us, x.ingest_wait_us, x.key_wait_us, x.to_producer_us,
           x.producer_queue_us, x.report_to_coalescer_us);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, write_side_report& x) {
  return f(caf::meta::type_name("write_side_report"), x.counters, x.acks);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, latency_distribution& x) {
  return f(caf::meta::type_name("latency_distribution"), x.at_or_below, x.count, x.sum_us, x.p50_us, x.p99_us,
           x.p999_us, x.max_us);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, write_hops& x) {
  return f(caf::meta::type_name("write_hops"), x.ingest_wait, x.key_wait, x.to_producer, x.producer_queue,
           x.report_to_coalescer);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, metrics_snapshot& x) {
  return f(caf::meta::type_name("metrics_snapshot"), x.counters, x.oldest_unacked_age_ms, x.view, x.updates_after_stop,
           x.alerts, x.hops);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, drain_report& x) {
  return f(caf::meta::type_name("drain_report"), x.failed, x.failed_keys);
}

// ---- typed actor interfaces: what embedders hold ------------------------------------------------------

/// The embedder's handle on the coalescer (store::actor()): updates and flush, nothing else. Obtained
/// by CAF's typed-actor subtyping from the coalescer's full interface (below), so a worker cannot send
/// what only the coalescer's peers and timers send (deadline, delivered, retry_due, brokers, ...):
/// tests/unit/public_handle_test.cpp.
using status_store_actor =
    caf::typed_actor<caf::reacts_to<put_atom, status_update>,               // accept one update
                     caf::reacts_to<put_atom, std::vector<status_update>>,  // accept a batch
                     caf::replies_to<flush_atom>::with<ok_atom>>;           // all accepted before are resolved

/// Where the status view publishes the events of what it reads once the replay is complete (the event
/// hub of `status-store run`, or an embedder's actor): one message per batch of records or per tick.
using status_event_sink_actor = caf::typed_actor<caf::reacts_to<events_atom, std::vector<status_event>>>;

/// The status view's queries (store::view()): what the topic says, answered from the view; and its
/// events, to a subscriber it monitors (forgotten when it exits).
using status_view_actor = caf::typed_actor<
    caf::replies_to<await_atom>::with<ok_atom>,                                        // once the replay is complete
    caf::replies_to<get_atom, std::string>::with<connector_view>,                      // one connector
    caf::replies_to<get_atom, std::string, int32_t>::with<std::vector<task_status>>,   // one task: none or one
    caf::replies_to<list_atom>::with<std::vector<std::string>>,                        // connectors()
    caf::replies_to<get_atom, all_atom>::with<std::vector<connector_view>>,            // every connector with a status
    caf::replies_to<get_atom, history_atom, std::string>::with<key_history>,           // a connector's transitions
    caf::replies_to<get_atom, history_atom, std::string, int32_t>::with<key_history>,  // a task's transitions
    caf::replies_to<get_atom, flapping_atom>::with<std::vector<flapping_key>>,         // the flapping keys
    caf::replies_to<get_atom, history_atom, all_atom>::with<history_counts>,  // per connector: the metrics' counts
    caf::replies_to<get_atom, overview_atom>::with<view_overview>,            // the status page's view
    caf::reacts_to<subscribe_atom, status_event_sink_actor>>;                 // publish live events there

/// Metrics aggregation: combines what the write side and the read side publish into consistent
/// snapshots.
using metrics_actor = caf::typed_actor<caf::reacts_to<publish_atom, write_side_report>,     // from the coalescer
                                       caf::reacts_to<publish_atom, view_counters>,         // from the status view
                                       caf::reacts_to<publish_atom, alert_counters>,        // from the alert sender
                                       caf::replies_to<get_atom>::with<metrics_snapshot>>;  // a snapshot

// ---- private interfaces: what the actors' peers hold ----------------------------------------------------
// Each peer holds a handle only as wide as what it sends, converted from the receiver's full
// interface by CAF's typed-actor subtyping (a conversion to a handle with more is a compile error).

/// What producer I/O reports to (the coalescer).
using delivery_sink_actor =
    caf::typed_actor<caf::reacts_to<delivered_atom, std::vector<delivery_result>>,  // judged acks and errors
                     caf::reacts_to<brokers_atom, bool>>;                           // any broker reachable?

/// What the retry scheduler reports to (the coalescer).
using retry_sink_actor = caf::typed_actor<caf::reacts_to<retry_due_atom, std::vector<retry_request>>>;  // backoff over

/// What the status view reports to (the coalescer): values read back, for putSafe and retries.
using observation_sink_actor = caf::typed_actor<caf::reacts_to<observe_atom, std::vector<observed_status>>>;

/// What the status view reports to (the alert sender): the alerts of one batch of records or one tick.
using alert_sink_actor = caf::typed_actor<caf::reacts_to<alert_atom, std::vector<alert_event>>>;

/// What the topic reader feeds the status view.
using status_feed_actor = caf::typed_actor<caf::reacts_to<records_atom, std::vector<consumed_record>>,  // records read
                                           caf::reacts_to<caught_up_atom>>;  // the replay reached the end

/// Producer I/O, as the coalescer holds it: owns the Kafka producer client.
using producer_actor = caf::typed_actor<caf::reacts_to<report_to_atom, delivery_sink_actor>,  // where reports go
                                        caf::reacts_to<produce_atom, std::vector<outgoing_record>>>;  // write these

/// The retry scheduler, as the coalescer holds it: backoff as delayed self-messages, never a sleeping
/// thread.
using retry_scheduler_actor =
    caf::typed_actor<caf::reacts_to<report_to_atom, retry_sink_actor>,            // where due retries go
                     caf::reacts_to<schedule_atom, std::vector<retry_request>>>;  // back off these keys

// ---- private interfaces: each actor's full interface, its own timers included --------------------------
// CAF 0.17 types a self-message like any other, so an actor's timers are in its full interface; only
// the actor itself and the code that wires the actors together (spawn_*, the facade, tests) hold it.

/// The facade's part of the coalescer's interface, beyond the embedder's: the ingest's wake-up and
/// the drain.
using coalescer_facade_part =
    caf::typed_actor<caf::reacts_to<wake_atom>,                                       // take what waits in the ingest
                     caf::replies_to<stop_atom, caf::timespan>::with<drain_report>>;  // drain, then give up

/// The coalescer's own timers.
using coalescer_timer_part = caf::typed_actor<caf::reacts_to<tick_atom>,         // ship outbox and counters
                                              caf::reacts_to<deadline_atom>,     // the drain timeout elapsed
                                              caf::reacts_to<hold_check_atom>>;  // expire held attempts

/// The coalescer: what embedders send, what the facade adds, what its peers report, and its timers.
using coalescer_actor = status_store_actor::extend_with<coalescer_facade_part, delivery_sink_actor, retry_sink_actor,
                                                        observation_sink_actor, coalescer_timer_part>;

/// The retry scheduler with its backoff timer.
using retry_scheduler_full_actor = retry_scheduler_actor::extend<caf::reacts_to<fire_atom>>;  // self: a timer elapsed

/// The alert sender: the view's alerts, its transport's answers (sent from the transport's thread by
/// the callback the sender gives it) and its backoff timer.
using alert_sender_actor =
    alert_sink_actor::extend<caf::reacts_to<posted_atom, uint64_t, alert_post_result>,  // how attempt n ended
                             caf::reacts_to<fire_atom, uint64_t>>;  // self: attempt n's backoff elapsed

/// The event hub (actors/event_hub_actor.hpp): the view's events, formatted once and offered to every
/// event stream that joined; streams join and leave from the HTTP listener's threads.
using event_hub_actor =
    status_event_sink_actor::extend<caf::reacts_to<join_atom, event_stream_port>,  // a stream opened
                                    caf::reacts_to<leave_atom, uint64_t>>;         // stream n ended

/// The status view: queries, the topic reader's feed, and its tick.
using status_view_full_actor = status_view_actor::extend_with<status_feed_actor>::extend<
    caf::reacts_to<tick_atom>>;  // self: log held-back lines, end flapping of keys stable for the window

}  // namespace status_store
