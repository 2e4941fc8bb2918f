// The status view's alerts: FAILED entered and left, flapping started and stopped, for live records
// only (a replay pages no one), one message per batch or tick; and the whole path from a record read
// back to the document a receiver gets.
#define CAF_SUITE view_alerts
#include "alert_fakes.hpp"
#include "store_fixture.hpp"

#include "actors/alert_sender_actor.hpp"
#include "messages/status_record_codec.hpp"

#include <nlohmann/json.hpp>

using namespace status_store;
using namespace status_store::testing;
using namespace std::chrono_literals;

namespace {

status_record task_record(status_state state, std::optional<std::string> trace = std::nullopt) {
  return encode_task_record(task_status{"conn", 0, status_value{state, std::move(trace), "w1:8083", 4}});
}

struct view_alerts_fixture : store_fixture {
  caf::actor recorder_handle;

  void start_recording() {
    alerts = sys.spawn(alert_recorder);
    recorder_handle = caf::actor_cast<caf::actor>(alerts);
    start();
  }
  ~view_alerts_fixture() override {
    if (recorder_handle) caf::anon_send_exit(recorder_handle, caf::exit_reason::user_shutdown);
    settle();
  }
  alert_recorder_state& recorded() { return deref<alert_recorder_impl>(alerts).state; }
  int64_t now_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(sched.clock().now().time_since_epoch()).count();
  }
  void read_at(const status_record& r, int64_t timestamp_ms) { read_back(r.key, r.value, false, timestamp_ms); }
  void replay_done() {
    self->send(view, caught_up_atom_v);
    settle();
  }
  std::vector<alert_kind> kinds() {
    std::vector<alert_kind> out;
    for (const auto& a : recorded().alerts) out.push_back(a.kind);
    return out;
  }
};

}  // namespace

CAF_TEST_FIXTURE_SCOPE(view_alerts_tests, view_alerts_fixture)

CAF_TEST(live records that enter and leave FAILED raise alerts and the replay raises none) {
  start_recording();
  read_at(task_record(status_state::running), 1000);
  read_at(task_record(status_state::failed, "old\nstack"), 2000);  // during the replay: history only
  replay_done();
  CAF_CHECK(recorded().alerts.empty());
  read_at(task_record(status_state::running), 3000);
  read_at(task_record(status_state::failed, "java.lang.RuntimeException: boom\n\tat X.y(X.java:1)"), 4000);
  read_at(task_record(status_state::failed, "again"), 5000);  // a repeat of FAILED: nothing new
  CAF_REQUIRE_EQUAL(recorded().alerts.size(), 2u);
  CAF_CHECK_EQUAL(recorded().messages, 2u);  // one message for each batch that raised any
  const alert_event recovered = recorded().alerts[0];
  CAF_CHECK(recovered.kind == alert_kind::recovered);
  CAF_CHECK(recovered.state == status_state::running);
  CAF_CHECK(recovered.has_previous && recovered.previous_state == status_state::failed);
  CAF_CHECK_EQUAL(recovered.timestamp_ms, 3000);
  const alert_event failed = recorded().alerts[1];
  CAF_CHECK(failed == (alert_event{alert_kind::failed, "conn", true, 0, status_state::failed, true,
                                   status_state::running, "w1:8083", 4, "java.lang.RuntimeException: boom", 4000}));
}

CAF_TEST(a connector raises alerts as a task does) {
  start_recording();
  replay_done();
  read_back(encode_connector_record(connector_status{"c", {status_state::failed, std::string{"t"}, "w2", 1}}));
  CAF_REQUIRE_EQUAL(recorded().alerts.size(), 1u);
  CAF_CHECK(!recorded().alerts[0].is_task);
  CAF_CHECK(!recorded().alerts[0].has_previous);  // the connector's first record
  CAF_CHECK(recorded().alerts[0].kind == alert_kind::failed);
}

CAF_TEST(flapping raises its start with the record and its end on the tick) {
  view_history.flap = {2, 10'000};
  start_recording();
  replay_done();
  const int64_t t0 = now_ms();
  read_at(task_record(status_state::running), t0);
  read_at(task_record(status_state::failed), t0 + 1);
  read_at(task_record(status_state::running), t0 + 2);
  read_at(task_record(status_state::failed), t0 + 3);
  CAF_CHECK(kinds() == (std::vector<alert_kind>{alert_kind::failed, alert_kind::recovered, alert_kind::failed,
                                                alert_kind::flapping_started}));
  CAF_CHECK_EQUAL(recorded().messages, 3u);  // the record that starts flapping raises both in one
  const auto stable_at = caf::actor_clock::time_point{std::chrono::milliseconds{t0 + 3 + 10'000}};
  advance_time(stable_at - sched.clock().now());
  settle();
  CAF_REQUIRE_EQUAL(recorded().alerts.size(), 5u);
  const alert_event stopped = recorded().alerts[4];
  CAF_CHECK(stopped.kind == alert_kind::flapping_stopped);
  CAF_CHECK(stopped.state == status_state::failed);  // still FAILED, but no longer flapping
  CAF_CHECK_EQUAL(stopped.timestamp_ms, t0 + 3 + 10'000);
}

CAF_TEST(flapping that started during the replay raises no end) {
  view_history.flap = {1, 10'000};
  start_recording();
  read_at(task_record(status_state::failed), now_ms());  // flapping from the replay
  replay_done();
  advance_time(10s);
  settle();
  CAF_CHECK(recorded().alerts.empty());
}

CAF_TEST(a record read back becomes the document the receiver gets after its 503) {
  auto transport = std::make_shared<fake_transport>();
  const metrics_actor sender_metrics = spawn_metrics(sys);
  const alert_sender_actor sender =
      spawn_alert_sender(sys, alert_sender_config{retry, test_seed, 10, "connect-status"}, transport, sender_metrics);
  alerts = sender;
  start();
  replay_done();
  read_back(task_record(status_state::failed, "boom"));
  CAF_REQUIRE_EQUAL(transport->bodies.size(), 1u);
  const auto doc = nlohmann::json::parse(transport->bodies[0]);
  CAF_CHECK(doc["event"] == "failed");
  CAF_CHECK(doc["connector"] == "conn");
  CAF_CHECK(doc["task"] == 0);
  CAF_CHECK(doc["trace"] == "boom");
  CAF_CHECK(doc["status_topic"] == "connect-status");
  transport->answer(503);
  settle();
  const auto delay = next_expected_delay(0);  // the sender's first jitter draw (the same seed)
  CAF_CHECK_EQUAL(advance_time(delay - 1ns), 0u);
  CAF_CHECK_EQUAL(advance_time(1ns), 1u);
  settle();
  CAF_CHECK_EQUAL(transport->bodies.size(), 2u);
  transport->answer(200);
  settle();
  transport->unanswered.clear();
  for (auto hdl : {caf::actor_cast<caf::actor>(sender), caf::actor_cast<caf::actor>(sender_metrics)})
    caf::anon_send_exit(hdl, caf::exit_reason::user_shutdown);
  settle();
}

CAF_TEST_FIXTURE_SCOPE_END()
