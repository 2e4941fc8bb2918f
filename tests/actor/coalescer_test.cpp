// Per-key latest-status coalescing, putSafe, flush and stop, on virtual time.
#define CAF_SUITE coalescer
#include "store_fixture.hpp"

using namespace status_store;
using namespace status_store::testing;
using namespace std::chrono_literals;

CAF_TEST_FIXTURE_SCOPE(coalescer_tests, store_fixture)

CAF_TEST(a hundred updates to one key during failures write only the latest after recovery) {
  start();
  put(update("status-task-conn-0", "v0"));
  CAF_REQUIRE_EQUAL(produced().size(), 1u);
  report(produced().back(), RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);  // the broker is down
  for (int i = 1; i < 100; ++i) put(update("status-task-conn-0", "v" + std::to_string(i)));
  CAF_CHECK_EQUAL(produced().size(), 1u);  // nothing else goes out while the key backs off
  auto during = check_conservation();
  CAF_CHECK_EQUAL(during.in_flight, 0u);
  CAF_CHECK_EQUAL(during.waiting_retry, 1u);
  CAF_CHECK_EQUAL(during.pending, 2u);  // the failed v0 and the latest v99
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_REQUIRE_EQUAL(produced().size(), 2u);
  CAF_CHECK_EQUAL(produced().back().value, "v99");  // the retry sends the latest value
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.accepted, 100u);
  CAF_CHECK_EQUAL(c.success, 1u);
  CAF_CHECK_EQUAL(c.coalesced, 99u);
  CAF_CHECK_EQUAL(c.failure, 0u);
  CAF_CHECK_EQUAL(c.pending, 0u);
}

CAF_TEST(two records per key in flight the newest chasing the head and different keys pipelined) {
  start();
  put(update("status-connector-a", "a1"));
  put(update("status-connector-b", "b1"));
  put(update("status-connector-a", "a2"));  // chases a1
  put(update("status-connector-a", "a3"));  // waits behind both
  CAF_REQUIRE_EQUAL(produced().size(), 3u);
  CAF_CHECK_EQUAL(snapshot().counters.in_flight, 3u);
  report(produced()[0], RD_KAFKA_RESP_ERR_NO_ERROR);  // a1 acknowledged: a3 chases a2 at once
  CAF_REQUIRE_EQUAL(produced().size(), 4u);
  CAF_CHECK_EQUAL(produced().back().value, "a3");
  for (size_t i = 1; i < 4; ++i) report(produced()[i], RD_KAFKA_RESP_ERR_NO_ERROR);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.success, 4u);
  CAF_CHECK_EQUAL(c.in_flight, 0u);
}

CAF_TEST(a retry never overwrites a newer value and late reports are ignored) {
  start();
  put(update("status-topic-t:connector-c", "old"));
  auto old_send = produced().back();
  report(old_send, RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT);
  put(update("status-topic-t:connector-c", "new"));
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_REQUIRE_EQUAL(produced().size(), 2u);
  CAF_CHECK_EQUAL(produced().back().value, "new");
  // A duplicate report for the old send must not resolve the new one.
  report(old_send, RD_KAFKA_RESP_ERR_NO_ERROR);
  CAF_CHECK_EQUAL(snapshot().counters.success, 0u);
  CAF_CHECK_EQUAL(snapshot().counters.in_flight, 1u);
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.success, 1u);
  CAF_CHECK_EQUAL(c.coalesced, 1u);
  CAF_CHECK_EQUAL(produced().size(), 2u);
}

CAF_TEST(a value chasing a non retriable failure is still written) {
  start();
  put(update("status-connector-a", "too-big"));
  put(update("status-connector-a", "fine"));
  CAF_REQUIRE_EQUAL(produced().size(), 2u);
  report(produced()[0], RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE);
  CAF_CHECK_EQUAL(produced().size(), 2u);  // "fine" is on its way already, not sent again
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.failure, 1u);
  CAF_CHECK_EQUAL(c.success, 1u);
}

CAF_TEST(putSafe is dropped when another worker wrote a newer generation) {
  start();
  observe("status-connector-conn", "other-worker", 1);
  put(update("status-connector-conn", "UNASSIGNED", "this-worker", 0, true));
  CAF_CHECK_EQUAL(produced().size(), 0u);  // Connect: verify(never()).send
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.dropped_stale, 1u);
  // Same or newer generation from this worker is written.
  put(update("status-connector-conn", "FAILED", "this-worker", 1, true));
  CAF_CHECK_EQUAL(produced().size(), 1u);
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  check_conservation();
}

CAF_TEST(putSafe with no previous value is written) {
  start();
  put(update("status-connector-conn", "FAILED", "this-worker", 0, true));
  CAF_CHECK_EQUAL(produced().size(), 1u);
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  CAF_CHECK_EQUAL(check_conservation().success, 1u);
}

CAF_TEST(putSafe overrides a value set by the same worker even with a lower generation) {
  start();
  observe("status-task-conn-0", "this-worker", 1);
  put(update("status-task-conn-0", "UNASSIGNED", "this-worker", 0, true));
  CAF_CHECK_EQUAL(produced().size(), 1u);
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.success, 1u);
  CAF_CHECK_EQUAL(c.dropped_stale, 0u);
}

CAF_TEST(a plain put overrides whatever is known) {
  start();
  observe("status-connector-conn", "other-worker", 1);
  put(update("status-connector-conn", "UNASSIGNED", "this-worker", 0, false));
  CAF_CHECK_EQUAL(produced().size(), 1u);
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  CAF_CHECK_EQUAL(check_conservation().success, 1u);
}

CAF_TEST(a putSafe retry is dropped once a newer generation of another worker is read back) {
  start();
  put(update("status-task-conn-0", "UNASSIGNED", "this-worker", 3, true));
  report(produced().back(), RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  observe("status-task-conn-0", "new-owner", 4);  // the new owner's RUNNING is read back meanwhile
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_CHECK_EQUAL(produced().size(), 1u);  // the stale UNASSIGNED is not re-sent
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.dropped_stale, 1u);
  CAF_CHECK_EQUAL(c.pending, 0u);
}

CAF_TEST(flush waits for retries and answers once everything before it is resolved) {
  start();
  put(update("status-connector-a", "a1"));
  report(produced().back(), RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  auto probe_actor = spawn_flush_probe();
  put(update("status-connector-b", "b1"));  // accepted after the flush: not waited for
  CAF_CHECK(!probe(probe_actor).flushed);
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_CHECK(!probe(probe_actor).flushed);  // the retry is in flight, not yet acknowledged
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  CAF_CHECK(probe(probe_actor).flushed);
  CAF_CHECK_EQUAL(check_conservation().pending, 1u);  // b1 still in flight
}

CAF_TEST(flush with nothing pending answers at once) {
  start();
  auto probe_actor = spawn_flush_probe();
  CAF_CHECK(probe(probe_actor).flushed);
}

CAF_TEST(stop drains retries that complete within the timeout) {
  start();
  put(update("status-connector-a", "a1"));
  report(produced().back(), RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  auto probe_actor = spawn_stop_probe(2s);
  CAF_CHECK(!probe(probe_actor).drained);
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  CAF_REQUIRE(probe(probe_actor).drained.has_value());
  CAF_CHECK_EQUAL(probe(probe_actor).drained->failed, 0u);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.success, 1u);
  CAF_CHECK_EQUAL(c.pending, 0u);
}

CAF_TEST(stop during an outage counts what is left as failed at the deadline) {
  start();
  put(update("status-connector-a", "a1"));
  put(update("status-connector-b", "b1"));
  report(produced()[0], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  put(update("status-connector-a", "a2"));  // waits for a1's retry
  auto probe_actor = spawn_stop_probe(1s);
  put(update("status-connector-c", "refused"));  // not accepted once stopping
  CAF_CHECK_EQUAL(advance_time(1s - 1ns), 1u);   // the first retry fires (300..375 ms)
  settle();
  CAF_CHECK(!probe(probe_actor).drained);
  CAF_CHECK_EQUAL(advance_time(1ns), 1u);  // the drain deadline, exactly
  settle();
  CAF_REQUIRE(probe(probe_actor).drained.has_value());
  const auto drained = *probe(probe_actor).drained;
  CAF_CHECK_EQUAL(drained.failed, 2u);  // a2 (a1 was superseded by the retry) and b1
  CAF_CHECK_EQUAL(drained.failed_keys.size(), 2u);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.accepted, 3u);
  CAF_CHECK_EQUAL(c.failure, 2u);
  CAF_CHECK_EQUAL(c.coalesced, 1u);
  CAF_CHECK_EQUAL(c.pending, 0u);
  CAF_CHECK_EQUAL(c.in_flight, 0u);
  // Reports arriving after the deadline change nothing.
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  CAF_CHECK_EQUAL(check_conservation().success, 0u);
}

CAF_TEST(the metrics asked for as soon as the drain deadline answers already count its failures) {
  start();
  put(update("status-connector-a", "a1"));
  put(update("status-connector-b", "b1"));
  auto probe_actor = spawn_stop_then_metrics_probe(1s);
  CAF_CHECK_EQUAL(advance_time(1s), 1u);  // the drain deadline
  settle();
  CAF_REQUIRE(probe(probe_actor).metrics_after_drain.has_value());
  CAF_CHECK_EQUAL(probe(probe_actor).drained->failed, 2u);
  const auto& c = probe(probe_actor).metrics_after_drain->counters;  // what the final report shows
  CAF_CHECK_EQUAL(c.failure, 2u);
  CAF_CHECK_EQUAL(c.pending, 0u);
}

CAF_TEST(stop with nothing pending answers at once) {
  start();
  auto probe_actor = spawn_stop_probe(10s);
  CAF_REQUIRE(probe(probe_actor).drained.has_value());
  CAF_CHECK_EQUAL(probe(probe_actor).drained->failed, 0u);
}

CAF_TEST(the oldest unacknowledged age grows with virtual time) {
  start();
  put(update("status-connector-a", "a1"));
  CAF_CHECK_EQUAL(advance_time(1500ms), 0u);
  CAF_CHECK_EQUAL(snapshot().oldest_unacked_age_ms, 1500);
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  CAF_CHECK_EQUAL(snapshot().oldest_unacked_age_ms, 0);
}

CAF_TEST(put to ack latency is measured in virtual time for written updates only) {
  start();
  CAF_CHECK_EQUAL(snapshot().counters.ack_latency_max_us, -1);  // nothing acknowledged yet
  put(update("status-connector-a", "a1"));
  advance_time(40ms);
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  auto c = snapshot().counters;
  CAF_CHECK_EQUAL(c.ack_latency_max_us, 40000);
  CAF_CHECK_EQUAL(c.ack_latency_p50_us, 40000);  // one value: its bucket's edge is capped by max
  // An update written by a retry: its latency runs from its accept, across the failure and backoff.
  put(update("status-connector-b", "b1"));
  report(produced().back(), RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);  // b1 will be retried after a backoff
  const auto delay = next_expected_delay(0);
  CAF_CHECK_EQUAL(advance_time(delay), 1u);
  settle();
  CAF_REQUIRE_EQUAL(produced().size(), 3u);
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  c = snapshot().counters;
  const auto expected_us = std::chrono::duration_cast<std::chrono::microseconds>(delay).count();
  CAF_CHECK_EQUAL(c.ack_latency_max_us, expected_us);  // max is exact, not bucketed
  // The median of two is the lower, 40 ms, reported at most 1/16 high (its bucket's upper edge).
  CAF_CHECK_GREATER_OR_EQUAL(c.ack_latency_p50_us, 40000);
  CAF_CHECK_LESS_OR_EQUAL(c.ack_latency_p50_us, 40000 + 40000 / 16);
}

CAF_TEST(the hops of an acknowledged update add up to its put to ack time) {
  start();
  const auto now_ns = [&] {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(sched.clock().now().time_since_epoch()).count();
  };
  auto u = update("status-connector-a", "a1");
  u.put_ns = now_ns();  // as the facade stamps it
  offer(std::move(u), /*deliver_wake=*/false);
  advance_time(2ms);  // the caller's wake message is slow: 2 ms in the ingest table
  wake();
  CAF_REQUIRE_EQUAL(produced().size(), 1u);  // handed on at once: no key wait
  advance_time(10ms);
  // librdkafka held it 8 ms and reported it 1 ms before the coalescer handled the report: 1 ms went
  // from handing it on to librdkafka taking it.
  delivery_result r{produced().back().key, produced().back().send_id, 0, 0, "", judge_delivery_error({})};
  r.reported_ns = now_ns() - 1'000'000;
  r.queue_us = 8000;
  self->send(coalescer, delivered_atom::value, std::vector<delivery_result>{r});
  settle();
  const auto m = snapshot();
  CAF_CHECK_EQUAL(m.counters.ack_latency_max_us, 12000);
  CAF_CHECK_EQUAL(m.hops.ingest_wait.max_us, 2000);
  CAF_CHECK_EQUAL(m.hops.key_wait.max_us, 0);
  CAF_CHECK_EQUAL(m.hops.to_producer.max_us, 1000);
  CAF_CHECK_EQUAL(m.hops.producer_queue.max_us, 8000);
  CAF_CHECK_EQUAL(m.hops.report_to_coalescer.max_us, 1000);
  for (const auto* hop : {&m.hops.ingest_wait, &m.hops.key_wait, &m.hops.to_producer, &m.hops.producer_queue,
                          &m.hops.report_to_coalescer})
    CAF_CHECK_EQUAL(hop->count, 1u);
  CAF_CHECK_EQUAL(m.hops.producer_queue.at_or_below[7], 0u);  // 2.5 ms
  CAF_CHECK_EQUAL(m.hops.producer_queue.at_or_below[9], 1u);  // 10 ms
}

CAF_TEST(the timer of an abandoned retry does not fire a later retry early) {
  // Found by the fault simulation (seeds 613, 1145, 1212, 1320, 1358, 1862 of the first 2,000).
  start();
  put(update("status-task-conn-0", "v1"));
  report(produced().back(), RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);  // retry 1 due at d0
  const auto first_timer = next_expected_delay(0);
  read_back("status-task-conn-0", std::nullopt);  // another worker deletes the task: retry abandoned
  CAF_CHECK_EQUAL(advance_time(first_timer / 2), 0u);
  put(update("status-task-conn-0", "v2"));  // sent at once, fails, backs off again
  report(produced().back(), RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  const auto second_timer = next_expected_delay(0);
  const size_t sends = produced().size();
  advance_time(first_timer - first_timer / 2);  // the abandoned retry's timer fires ...
  settle();
  CAF_CHECK_EQUAL(produced().size(), sends);  // ... and sends nothing
  advance_time(first_timer / 2 + second_timer - first_timer);
  settle();
  CAF_CHECK_EQUAL(produced().size(), sends + 1);  // the real retry, on time
  CAF_CHECK_EQUAL(produced().back().value, "v2");
  check_conservation();
}

CAF_TEST(an outage hold writes each key once with its latest value and ends held attempts on time) {
  start(/*max_retries=*/1);
  put(update("status-connector-a", "a1"));
  put(update("status-connector-b", "b1"));
  CAF_REQUIRE_EQUAL(produced().size(), 2u);
  self->send(coalescer, brokers_atom::value, false);  // the producer saw _ALL_BROKERS_DOWN and purged
  settle();
  report(produced()[0], RD_KAFKA_RESP_ERR__PURGE_QUEUE);
  report(produced()[1], RD_KAFKA_RESP_ERR__PURGE_QUEUE);
  put(update("status-connector-a", "a2"));
  put(update("status-connector-a", "a3"));
  CAF_CHECK_EQUAL(produced().size(), 2u);  // held: nothing reaches the producer
  // b stays held past one attempt timeout (message.timeout.ms): its attempt ends as timed out and a
  // retry is scheduled, counted, and held again when due.
  advance_time(std::chrono::milliseconds{defaults::message_timeout_ms});
  settle();
  const auto first = next_expected_delay(0);  // the two keys' retries, in either order
  const auto second = next_expected_delay(0);
  advance_time(std::max(first, second));
  settle();
  CAF_CHECK_EQUAL(produced().size(), 2u);
  CAF_CHECK_EQUAL(snapshot().counters.retry, 2u);    // a and b, one retry each
  self->send(coalescer, brokers_atom::value, true);  // a metadata probe reached a broker
  settle();
  CAF_REQUIRE_EQUAL(produced().size(), 4u);
  std::map<std::string, std::string> released;
  for (size_t i = 2; i < 4; ++i) released[produced()[i].key] = produced()[i].value;
  CAF_CHECK_EQUAL(released["status-connector-a"], "a3");
  CAF_CHECK_EQUAL(released["status-connector-b"], "b1");
  for (size_t i = 2; i < 4; ++i) report(produced()[i], RD_KAFKA_RESP_ERR_NO_ERROR);
  const auto c = check_conservation();
  CAF_CHECK_EQUAL(c.success, 2u);
  CAF_CHECK_EQUAL(c.failure, 0u);
  CAF_CHECK_EQUAL(c.pending, 0u);
}

CAF_TEST(a full outage under the hold ends in counted failures and never hangs) {
  start(/*max_retries=*/2);
  self->send(coalescer, brokers_atom::value, false);
  settle();
  put(update("status-connector-a", "a1"));
  CAF_CHECK_EQUAL(produced().size(), 0u);
  for (int attempt = 0; attempt < 3; ++attempt) {
    advance_time(std::chrono::milliseconds{defaults::message_timeout_ms});
    settle();
    if (attempt < 2) {
      advance_time(next_expected_delay(attempt));
      settle();
    }
  }
  const auto c = check_conservation();
  CAF_CHECK_EQUAL(c.retry, 2u);
  CAF_CHECK_EQUAL(c.failure, 1u);
  CAF_CHECK_EQUAL(c.pending, 0u);
  CAF_CHECK_EQUAL(produced().size(), 0u);
}

CAF_TEST_FIXTURE_SCOPE_END()
