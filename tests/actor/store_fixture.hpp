#pragma once
// The four actors of the write path on CAF's deterministic test coordinator: virtual time, a fake
// producer in place of Kafka, and the retry jitter seeded so a test can replay the exact delays.
#include "caf_dsl.hpp"

#include "actors/coalescer_actor.hpp"
#include "actors/kafka/delivery_error_table.hpp"
#include "actors/metrics_actor.hpp"
#include "actors/policy/backoff_policy.hpp"
#include "actors/retry_scheduler_actor.hpp"
#include "actors/status_view_actor.hpp"
#include "messages/protocol.hpp"
#include "messages/status_updates.hpp"

#include <librdkafka/rdkafka.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace status_store::testing {

inline constexpr uint64_t test_seed = 42;

/// Stands in for producer I/O: remembers every record it was asked to write.
struct fake_producer_state {
  fake_producer_state() = default;
  static inline const char* name = "test.fake-producer";
  std::vector<outgoing_record> produced;
};
using fake_producer_impl = std::remove_pointer_t<producer_actor::stateful_pointer<fake_producer_state>>;

inline producer_actor::behavior_type fake_producer(producer_actor::stateful_pointer<fake_producer_state> self) {
  return {
      [=](report_to_atom, delivery_sink_actor&) {},
      [=](produce_atom, std::vector<outgoing_record>& records) {
        for (auto& r : records) self->state.produced.push_back(std::move(r));
      },
  };
}

/// Asks the coalescer to flush or stop and records the answer, so a test can check whether it has
/// arrived yet without blocking.
struct probe_state {
  probe_state() = default;
  static inline const char* name = "test.probe";
  bool flushed = false;
  std::optional<drain_report> drained;
  std::optional<metrics_snapshot> metrics_after_drain;  // asked for as soon as the drain answered
};
using probe_impl = caf::stateful_actor<probe_state>;

inline caf::behavior flush_probe(probe_impl* self, coalescer_actor coalescer) {
  self->request(coalescer, caf::infinite, flush_atom::value)
      .then([=](ok_atom) { self->state.flushed = true; }, [](caf::error&) {});
  return {[](int) {}};
}

inline caf::behavior stop_probe(probe_impl* self, coalescer_actor coalescer, caf::timespan drain) {
  self->request(coalescer, caf::infinite, stop_atom::value, drain)
      .then([=](drain_report& r) { self->state.drained = std::move(r); }, [](caf::error&) {});
  return {[](int) {}};
}

/// As stop_probe, then asks the metrics actor at once, as the facade's final report does.
inline caf::behavior stop_then_metrics_probe(probe_impl* self, coalescer_actor coalescer, metrics_actor metrics,
                                             caf::timespan drain) {
  self->request(coalescer, caf::infinite, stop_atom::value, drain)
      .then(
          [=](drain_report& r) {
            self->state.drained = std::move(r);
            self->request(metrics, caf::infinite, get_atom::value)
                .then([=](metrics_snapshot& m) { self->state.metrics_after_drain = std::move(m); }, [](caf::error&) {});
          },
          [](caf::error&) {});
  return {[](int) {}};
}

inline status_update update(std::string key, std::string value, std::string worker = "worker-1", int32_t generation = 1,
                            bool safe = false) {
  return status_update{std::move(key), false, std::move(value), safe, std::move(worker), generation};
}

struct store_fixture : test_coordinator_fixture<> {
  retry_settings retry;  // the KIP's defaults: 300 ms, x2, cap 10 s, jitter 0.25 (max_retries: start())
  jitter_source expected_jitter{test_seed};  // replays the scheduler's random sequence
  metrics_actor metrics;
  retry_scheduler_actor scheduler;
  producer_actor producer;
  coalescer_actor coalescer;
  status_view_full_actor view;  // the queries and the topic reader's feed
  alert_sink_actor alerts;      // where the view's alerts go; null (none) unless a test sets it before start()
  std::shared_ptr<ingest_table> ingest = std::make_shared<ingest_table>();  // the facade's door
  size_t wakes_sent = 0;
  std::vector<caf::actor> probes;
  int64_t next_offset = 0;
  // The view's history settings; the wall clock is the virtual clock (record timestamps in its ms).
  view_history_settings view_history{{}, {}, 0};

  void start(uint32_t max_retries = defaults::max_retries, uint64_t jitter_seed = test_seed,
             int64_t attempt_timeout_ms = defaults::message_timeout_ms) {
    retry.max_retries = static_cast<int32_t>(max_retries);
    metrics = spawn_metrics(sys);
    scheduler = spawn_retry_scheduler(sys, retry_scheduler_config{retry, jitter_seed});
    producer = sys.spawn(fake_producer);
    coalescer = spawn_coalescer(sys, coalescer_config{retry, attempt_timeout_ms}, producer, scheduler, metrics, ingest);
    view = spawn_status_view(sys, coalescer, metrics, nullptr, view_history, alerts);  // records fed by the test
    settle();
  }

  ~store_fixture() override { stop_all(); }

  /// Stops every actor of the store (and the probes), so a test can start a fresh store.
  void stop_all() {
    for (auto hdl : {caf::actor_cast<caf::actor>(coalescer), caf::actor_cast<caf::actor>(producer),
                     caf::actor_cast<caf::actor>(scheduler), caf::actor_cast<caf::actor>(metrics),
                     caf::actor_cast<caf::actor>(view)})
      if (hdl) caf::anon_send_exit(hdl, caf::exit_reason::user_shutdown);
    for (auto& p : probes) caf::anon_send_exit(p, caf::exit_reason::user_shutdown);
    probes.clear();
    settle();
    coalescer = nullptr;
    producer = nullptr;
    scheduler = nullptr;
    metrics = nullptr;
    view = nullptr;
  }

  /// Runs every message that is ready; never fires a timer (unlike the fixture's run()).
  void settle() { sched.run(); }

  void put(status_update u) {
    self->send(coalescer, put_atom::value, std::move(u));
    settle();
  }

  /// A caller's put through the ingest table, as the facade does it: the wake message is sent only
  /// when the table says so; `deliver_wake` false leaves it unsent (the caller's thread is slow).
  ingest_table::offer_result offer(status_update u, bool deliver_wake = true) {
    const auto result = ingest->offer(std::move(u));
    if (result == ingest_table::offer_result::wake_needed && deliver_wake) wake();
    return result;
  }
  void wake() {
    ++wakes_sent;
    self->send(coalescer, wake_atom::value);
    settle();
  }

  void observe(std::string key, std::string worker, int32_t generation) {
    self->send(coalescer, observe_atom::value,
               std::vector<observed_status>{observed_status{std::move(key), false, std::move(worker), generation}});
    settle();
  }

  /// The delivery report the real producer's poll thread would send.
  void report(const outgoing_record& r, rd_kafka_resp_err_t err) {
    std::vector<delivery_result> batch{
        delivery_result{r.key, r.send_id, err, 0, err ? rd_kafka_err2str(err) : "", judge_delivery_error(err)}};
    self->send(coalescer, delivered_atom::value, std::move(batch));
    settle();
  }

  std::vector<outgoing_record>& produced() { return deref<fake_producer_impl>(producer).state.produced; }

  /// The status topic as the view reads it: one record at a time, at increasing offsets. `own`: the
  /// record carries this store's writer header (by default it is another writer's).
  /// `timestamp_ms`: the record's timestamp (-1: none).
  void read_back(std::string key, std::optional<std::string> value, bool own = false, int64_t timestamp_ms = -1) {
    std::vector<consumed_record> batch{
        consumed_record{std::move(key), !value.has_value(), value.value_or(""), 0, next_offset++, own, timestamp_ms}};
    self->send(view, records_atom::value, std::move(batch));
    settle();
  }
  /// The record a fake producer was given comes back from the topic, with our writer header.
  void read_back(const outgoing_record& r) {
    read_back(r.key, r.tombstone ? std::nullopt : std::optional<std::string>{r.value}, true);
  }
  void read_back(const status_record& r) { read_back(r.key, r.value); }

  connector_view describe(const std::string& connector) {
    std::optional<connector_view> result;
    auto rh = self->request(view, caf::infinite, get_atom::value, connector);
    settle();
    rh.receive([&](connector_view& v) { result = std::move(v); }, [&](caf::error& err) { CAF_FAIL(sys.render(err)); });
    CAF_REQUIRE(result.has_value());
    return *result;
  }

  std::vector<std::string> connectors() {
    std::vector<std::string> result;
    auto rh = self->request(view, caf::infinite, list_atom::value);
    settle();
    rh.receive([&](std::vector<std::string>& v) { result = std::move(v); },
               [&](caf::error& err) { CAF_FAIL(sys.render(err)); });
    return result;
  }

  caf::actor spawn_flush_probe() {
    probes.push_back(sys.spawn(flush_probe, coalescer));
    settle();
    return probes.back();
  }
  caf::actor spawn_stop_probe(caf::timespan drain) {
    probes.push_back(sys.spawn(stop_probe, coalescer, drain));
    settle();
    return probes.back();
  }
  caf::actor spawn_stop_then_metrics_probe(caf::timespan drain) {
    probes.push_back(sys.spawn(stop_then_metrics_probe, coalescer, metrics, drain));
    settle();
    return probes.back();
  }
  probe_state& probe(const caf::actor& p) { return deref<probe_impl>(p).state; }

  metrics_snapshot snapshot() {
    std::optional<metrics_snapshot> result;
    auto rh = self->request(metrics, caf::infinite, get_atom::value);
    settle();
    rh.receive([&](metrics_snapshot& s) { result = s; }, [&](caf::error& err) { CAF_FAIL(sys.render(err)); });
    CAF_REQUIRE(result.has_value());
    return *result;
  }

  /// accepted = success + failure + coalesced + dropped_stale + pending, checked through the metrics
  /// actor exactly as an operator would read it.
  store_counters check_conservation() {
    auto c = snapshot().counters;
    CAF_CHECK_EQUAL(c.accepted, c.success + c.failure + c.coalesced + c.dropped_stale + c.pending);
    return c;
  }

  /// The delay the scheduler must choose for retry `n`, replaying its seeded jitter. The KIP's formula
  /// is written out here with the default settings as literals, independently of backoff_delay(), so
  /// a mistake there cannot hide in the test (a delay 1 ns short fails the retry suite).
  caf::timespan next_expected_delay(uint32_t n) {
    const double u = expected_jitter.next();
    const double capped = std::min(300.0 * std::pow(2.0, n), 10000.0);
    return caf::timespan{std::llround((capped + capped * 0.25 * u) * 1e6)};
  }

  size_t pending_timers() { return sched.clock().schedule().size(); }
};

}  // namespace status_store::testing
