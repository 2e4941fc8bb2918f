// The alert sender on virtual time with a fake receiver: the KIP's backoff between attempts, a full
// outage ending in counted failures, refusals that are not retried, and the queue's bound.
#define CAF_SUITE alert_sender
#include "alert_fakes.hpp"

#include "actors/alert_sender_actor.hpp"
#include "actors/metrics_actor.hpp"
#include "messages/codec/alert_document.hpp"

#include <cmath>

using namespace status_store;
using namespace status_store::testing;
using namespace std::chrono_literals;

namespace {

constexpr uint64_t seed = 7;

alert_event task_failed(std::string connector) {
  alert_event a;
  a.connector = std::move(connector);
  a.is_task = true;
  a.state = status_state::failed;
  a.has_previous = true;
  a.previous_state = status_state::running;
  a.worker_id = "w1:8083";
  return a;
}

struct alert_fixture : test_coordinator_fixture<> {
  std::shared_ptr<fake_transport> transport = std::make_shared<fake_transport>();
  retry_settings retry;                 // the KIP's defaults: 300 ms, x2, cap 10 s, jitter 0.25
  jitter_source expected_jitter{seed};  // replays the sender's random sequence
  metrics_actor metrics;
  alert_sender_actor sender;

  void start(int32_t max_retries = 5, std::size_t capacity = 100) {
    retry.max_retries = max_retries;
    metrics = spawn_metrics(sys);
    sender = spawn_alert_sender(sys, alert_sender_config{retry, seed, capacity, "connect-status"}, transport, metrics);
    sched.run();
  }
  ~alert_fixture() override {
    transport->unanswered.clear();  // their handles on the sender
    for (auto hdl : {caf::actor_cast<caf::actor>(sender), caf::actor_cast<caf::actor>(metrics)})
      if (hdl) caf::anon_send_exit(hdl, caf::exit_reason::user_shutdown);
    sched.run();
  }

  void raise(std::vector<alert_event> alerts) {
    self->send(sender, alert_atom_v, std::move(alerts));
    sched.run();
  }
  void answer(int32_t status) {
    transport->answer(status);
    sched.run();
  }
  alert_counters counters() {
    std::optional<metrics_snapshot> result;
    auto rh = self->request(metrics, caf::infinite, get_atom::value);
    sched.run();
    rh.receive([&](metrics_snapshot& s) { result = s; }, [&](caf::error& err) { CAF_FAIL(sys.render(err)); });
    CAF_REQUIRE(result.has_value());
    return result->alerts;
  }
  /// The KIP's formula with the default settings written out, replaying the seeded jitter.
  caf::timespan next_expected_delay(uint32_t n) {
    const double capped = std::min(300.0 * std::pow(2.0, n), 10000.0);
    return caf::timespan{std::llround((capped + capped * 0.25 * expected_jitter.next()) * 1e6)};
  }
  /// Proves nothing is posted 1 ns before `delay`, and the retry at exactly `delay`.
  void expect_retry_after(caf::timespan delay) {
    const size_t posts = transport->bodies.size();
    CAF_CHECK_EQUAL(advance_time(delay - 1ns), 0u);
    sched.run();
    CAF_CHECK_EQUAL(transport->bodies.size(), posts);
    CAF_CHECK_EQUAL(advance_time(1ns), 1u);
    sched.run();
    CAF_CHECK_EQUAL(transport->bodies.size(), posts + 1);
  }
};

}  // namespace

CAF_TEST_FIXTURE_SCOPE(alert_sender_tests, alert_fixture)

CAF_TEST(a receiver answering 503 then 200 gets the alert after the KIPs backoff) {
  start();
  raise({task_failed("my-src")});
  CAF_REQUIRE_EQUAL(transport->bodies.size(), 1u);
  CAF_CHECK_EQUAL(transport->bodies[0], alert_document(task_failed("my-src"), "connect-status"));
  answer(503);
  CAF_CHECK_EQUAL(sched.clock().schedule().size(), 1u);  // the backoff timer, nothing else
  expect_retry_after(next_expected_delay(0));
  CAF_REQUIRE_EQUAL(transport->bodies.size(), 2u);
  CAF_CHECK_EQUAL(transport->bodies[1], transport->bodies[0]);  // the same document again
  answer(200);
  const auto c = counters();
  CAF_CHECK_EQUAL(c.raised, 1u);
  CAF_CHECK_EQUAL(c.sent, 1u);
  CAF_CHECK_EQUAL(c.retried, 1u);
  CAF_CHECK_EQUAL(c.failed, 0u);
  CAF_CHECK_EQUAL(c.pending, 0u);
  CAF_CHECK(sched.clock().schedule().empty());
}

CAF_TEST(a receiver that stays down costs each alert its retries then counts it failed) {
  start(2);
  raise({task_failed("a"), task_failed("b")});
  CAF_REQUIRE_EQUAL(transport->bodies.size(), 1u);  // one at a time, in order
  for (const char* name : {"a", "b"}) {
    const std::string body = alert_document(task_failed(name), "connect-status");
    CAF_CHECK_EQUAL(transport->bodies.back(), body);
    answer(0);
    expect_retry_after(next_expected_delay(0));
    answer(502);
    expect_retry_after(next_expected_delay(1));
    CAF_CHECK_EQUAL(transport->bodies.back(), body);
    answer(0);  // the last of 1 + max.retries attempts: lost, and the next alert goes
  }
  CAF_CHECK_EQUAL(transport->bodies.size(), 6u);
  CAF_CHECK(transport->unanswered.empty());
  const auto c = counters();
  CAF_CHECK_EQUAL(c.raised, 2u);
  CAF_CHECK_EQUAL(c.sent, 0u);
  CAF_CHECK_EQUAL(c.retried, 4u);
  CAF_CHECK_EQUAL(c.failed, 2u);
  CAF_CHECK_EQUAL(c.pending, 0u);
  CAF_CHECK(sched.clock().schedule().empty());
}

CAF_TEST(a refusal other than 408 429 and 5xx fails at once) {
  start();
  raise({task_failed("a"), task_failed("b")});
  answer(400);
  CAF_CHECK(sched.clock().schedule().empty());  // no backoff: the next alert is posted at once
  CAF_CHECK_EQUAL(transport->bodies.size(), 2u);
  answer(204);
  const auto c = counters();
  CAF_CHECK_EQUAL(c.failed, 1u);
  CAF_CHECK_EQUAL(c.retried, 0u);
  CAF_CHECK_EQUAL(c.sent, 1u);
}

CAF_TEST(a full queue drops the oldest waiting alert and counts it) {
  start(5, 2);
  raise({task_failed("a"), task_failed("b"), task_failed("c"), task_failed("d")});
  // a is being sent; b, c, d wait for two places: b goes.
  auto c = counters();
  CAF_CHECK_EQUAL(c.raised, 4u);
  CAF_CHECK_EQUAL(c.dropped, 1u);
  CAF_CHECK_EQUAL(c.pending, 3u);
  answer(200);
  answer(200);
  answer(200);
  CAF_REQUIRE_EQUAL(transport->bodies.size(), 3u);
  CAF_CHECK_EQUAL(transport->bodies[1], alert_document(task_failed("c"), "connect-status"));
  CAF_CHECK_EQUAL(transport->bodies[2], alert_document(task_failed("d"), "connect-status"));
  c = counters();
  CAF_CHECK_EQUAL(c.sent, 3u);
  CAF_CHECK_EQUAL(c.dropped, 1u);
  CAF_CHECK_EQUAL(c.pending, 0u);
  CAF_CHECK_EQUAL(c.raised, c.sent + c.failed + c.dropped + c.pending);
}

CAF_TEST(alerts raised while one backs off wait behind it) {
  start();
  raise({task_failed("a")});
  answer(503);
  raise({task_failed("b")});
  CAF_CHECK_EQUAL(transport->bodies.size(), 1u);  // b waits: the receiver sees a before b
  CAF_CHECK_EQUAL(counters().pending, 2u);
  expect_retry_after(next_expected_delay(0));
  answer(200);
  CAF_REQUIRE_EQUAL(transport->bodies.size(), 3u);
  CAF_CHECK_EQUAL(transport->bodies[2], alert_document(task_failed("b"), "connect-status"));
  answer(200);
  CAF_CHECK_EQUAL(counters().sent, 2u);
}

CAF_TEST_FIXTURE_SCOPE_END()
