// Bounded retries with the KIP's backoff, on virtual time: every delay exact to the nanosecond, the
// limit respected (no send after the last retry), non-retriable errors never retried.
#define CAF_SUITE retry
#include "store_fixture.hpp"

using namespace status_store;
using namespace status_store::testing;
using namespace std::chrono_literals;

CAF_TEST_FIXTURE_SCOPE(retry_tests, store_fixture)

CAF_TEST(each retry fires exactly at its backoff and the update fails after max retries) {
  start();  // defaults: max.retries 5
  put(update("status-connector-a", "v1"));
  CAF_REQUIRE_EQUAL(produced().size(), 1u);
  for (uint32_t n = 0; n < 5; ++n) {
    report(produced().back(), RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
    const auto delay = next_expected_delay(n);
    // The formula's one-sided jitter keeps the delay within [capped, capped * 1.25).
    const auto capped = std::min(caf::timespan{300ms * (1 << n)}, caf::timespan{10s});
    CAF_CHECK(delay >= capped && delay <= capped + capped / 4);
    CAF_CHECK_EQUAL(snapshot().counters.waiting_retry, 1u);
    CAF_CHECK_EQUAL(advance_time(delay - 1ns), 0u);
    settle();
    CAF_CHECK_EQUAL(produced().size(), n + 1);  // not one nanosecond early
    CAF_CHECK_EQUAL(advance_time(1ns), 1u);
    settle();
    CAF_REQUIRE_EQUAL(produced().size(), n + 2);  // exactly on time
    CAF_CHECK_EQUAL(produced().back().key, "status-connector-a");
    CAF_CHECK_EQUAL(produced().back().value, "v1");
    CAF_CHECK_EQUAL(snapshot().counters.retry, n + 1);
  }
  // The sixth attempt fails too: retries are exhausted, the update fails, and nothing is ever sent again.
  report(produced().back(), RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.failure, 1u);
  CAF_CHECK_EQUAL(c.retry, 5u);
  CAF_CHECK_EQUAL(c.success, 0u);
  CAF_CHECK_EQUAL(c.pending, 0u);
  CAF_CHECK_EQUAL(c.waiting_retry, 0u);
  CAF_CHECK_EQUAL(pending_timers(), 0u);
  CAF_CHECK_EQUAL(advance_time(24h), 0u);
  settle();
  CAF_CHECK_EQUAL(produced().size(), 6u);  // 1 attempt + 5 retries, never a 7th
}

CAF_TEST(max retries zero means a retriable error fails at once) {
  start(0);
  put(update("status-task-a-0", "v1"));
  report(produced().back(), RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.failure, 1u);
  CAF_CHECK_EQUAL(c.retry, 0u);
  CAF_CHECK_EQUAL(pending_timers(), 0u);
  CAF_CHECK_EQUAL(advance_time(1h), 0u);
  settle();
  CAF_CHECK_EQUAL(produced().size(), 1u);
}

CAF_TEST(a non retriable error fails at once without a retry) {
  start();
  put(update("status-connector-big", "v1"));
  report(produced().back(), RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.failure, 1u);
  CAF_CHECK_EQUAL(c.retry, 0u);
  CAF_CHECK_EQUAL(c.waiting_retry, 0u);
  CAF_CHECK_EQUAL(pending_timers(), 0u);
  CAF_CHECK_EQUAL(advance_time(1h), 0u);
  settle();
  CAF_CHECK_EQUAL(produced().size(), 1u);
}

CAF_TEST(an acknowledged update counts one success and arms no timer) {
  start();
  put(update("status-connector-a", "v1"));
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.success, 1u);
  CAF_CHECK_EQUAL(c.failure, 0u);
  CAF_CHECK_EQUAL(c.retry, 0u);
  CAF_CHECK_EQUAL(c.pending, 0u);
  CAF_CHECK_EQUAL(pending_timers(), 0u);
}

CAF_TEST(success after retries counts the retries and one success) {
  start();
  put(update("status-connector-a", "v1"));
  report(produced().back(), RD_KAFKA_RESP_ERR__TRANSPORT);
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  report(produced().back(), RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE);
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(1)), 1u);
  settle();
  report(produced().back(), RD_KAFKA_RESP_ERR_NO_ERROR);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.retry, 2u);
  CAF_CHECK_EQUAL(c.success, 1u);
  CAF_CHECK_EQUAL(c.failure, 0u);
  CAF_CHECK_EQUAL(produced().size(), 3u);
}

CAF_TEST(retries of different keys falling due together share one timer) {
  start();
  put(update("status-connector-a", "a1"));
  put(update("status-connector-b", "b1"));
  CAF_REQUIRE_EQUAL(produced().size(), 2u);
  const auto timed_out = judge_delivery_error(RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  std::vector<delivery_result> batch{
      {"status-connector-a", produced()[0].send_id, RD_KAFKA_RESP_ERR__MSG_TIMED_OUT, 0, "t", timed_out},
      {"status-connector-b", produced()[1].send_id, RD_KAFKA_RESP_ERR__MSG_TIMED_OUT, 0, "t", timed_out}};
  self->send(coalescer, delivered_atom::value, std::move(batch));
  settle();
  const auto first = next_expected_delay(0);
  const auto second = next_expected_delay(0);
  // Only the earliest deadline has a timer; the later key is picked up when it fires.
  CAF_CHECK_EQUAL(pending_timers(), 1u);
  CAF_CHECK_EQUAL(advance_time(std::min(first, second)), 1u);
  settle();
  CAF_CHECK_EQUAL(produced().size(), 3u);
  CAF_CHECK_EQUAL(pending_timers(), 1u);
  CAF_CHECK_EQUAL(advance_time(std::max(first, second) - std::min(first, second)), 1u);
  settle();
  CAF_CHECK_EQUAL(produced().size(), 4u);
  check_conservation();
}

CAF_TEST_FIXTURE_SCOPE_END()
