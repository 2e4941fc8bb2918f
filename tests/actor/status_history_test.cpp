// The status view's history and flap state: kept from the records it applies, during the replay and
// live, timed by record timestamps, erased with tombstones; flapping ends on the view's tick.
#define CAF_SUITE status_history
#include "store_fixture.hpp"

#include "messages/status_record_codec.hpp"

using namespace status_store;
using namespace status_store::testing;
using namespace std::chrono_literals;

namespace {
status_record task_record(status_state state, const char* worker = "w1", int32_t generation = 1,
                          std::optional<std::string> trace = std::nullopt) {
  return encode_task_record(task_status{"conn", 0, status_value{state, std::move(trace), worker, generation}});
}

struct history_fixture : store_fixture {
  template <class T, class... Ts>
  T ask(Ts&&... xs) {
    std::optional<T> result;
    auto rh = self->request(view, caf::infinite, std::forward<Ts>(xs)...);
    settle();
    rh.receive([&](T& answer) { result = std::move(answer); }, [&](caf::error& err) { CAF_FAIL(sys.render(err)); });
    CAF_REQUIRE(result.has_value());
    return std::move(*result);
  }
  key_history task_history() { return ask<key_history>(get_atom::value, history_atom::value, std::string{"conn"}, 0); }
  std::vector<flapping_key> flapping() { return ask<std::vector<flapping_key>>(get_atom::value, flapping_atom::value); }
  /// The virtual clock in ms: the fixture's view takes it as the wall clock.
  int64_t now_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(sched.clock().now().time_since_epoch()).count();
  }
  void read_at(const status_record& r, int64_t timestamp_ms, bool own = false) {
    read_back(r.key, r.value, own, timestamp_ms);
  }
};
}  // namespace

CAF_TEST_FIXTURE_SCOPE(status_history_tests, history_fixture)

CAF_TEST(history spans the replay and live records and a repeat adds nothing) {
  start();
  read_at(task_record(status_state::running), 1000);
  read_at(task_record(status_state::failed, "w1", 1, "java.lang.RuntimeException: boom\n\tat X.y(X.java:1)"), 2000);
  self->send(view, caught_up_atom::value);
  settle();
  read_at(task_record(status_state::running, "w2", 2), 3000, true);
  read_at(task_record(status_state::running, "w2", 2), 4000, true);  // the same status again
  const auto h = task_history();
  CAF_REQUIRE_EQUAL(h.transitions.size(), 3u);
  CAF_CHECK(h.transitions[0] == (status_transition{status_state::running, "w1", 1, "", 1000, false}));
  CAF_CHECK(h.transitions[1] ==
            (status_transition{status_state::failed, "w1", 1, "java.lang.RuntimeException: boom", 2000, false}));
  CAF_CHECK(h.transitions[2] == (status_transition{status_state::running, "w2", 2, "", 3000, true}));
  CAF_CHECK(h.any_kept);
  CAF_CHECK_EQUAL(h.reaches_back_to_ms, 1000);
  // A record without a timestamp is timed by the view's wall clock.
  read_back(task_record(status_state::paused, "w2", 2).key, task_record(status_state::paused, "w2", 2).value);
  const auto later = task_history();  // CAF's check macros keep a reference: no temporaries in them
  CAF_REQUIRE_EQUAL(later.transitions.size(), 4u);
  CAF_CHECK_EQUAL(later.transitions[3].timestamp_ms, now_ms());
}

CAF_TEST(a tombstone erases the history of its key and a connector tombstone that of its tasks) {
  start();
  read_at(encode_connector_record(connector_status{"conn", {status_state::running, std::nullopt, "w1", 1}}), 10);
  read_at(task_record(status_state::running), 20);
  read_at(task_record(status_state::failed), 30);
  read_back(task_record(status_state::running).key, std::nullopt);  // the task's tombstone
  CAF_CHECK(task_history().transitions.empty());
  const auto of_connector = ask<key_history>(get_atom::value, history_atom::value, std::string{"conn"});
  CAF_CHECK_EQUAL(of_connector.transitions.size(), 1u);
  read_at(task_record(status_state::failed), 40);
  read_back("status-connector-conn", std::nullopt);
  CAF_CHECK(task_history().transitions.empty());
  const auto connector = ask<key_history>(get_atom::value, history_atom::value, std::string{"conn"});
  CAF_CHECK(connector.transitions.empty());
  CAF_CHECK(!connector.any_kept);  // nothing is left anywhere
}

CAF_TEST(flapping starts from record timestamps and ends on the tick after the stable window) {
  view_history.flap = {2, 10'000};
  start();
  CAF_REQUIRE(sched.clock().schedule().empty());
  const int64_t t0 = now_ms();
  read_at(task_record(status_state::running), t0);
  read_at(task_record(status_state::failed), t0 + 1);
  CAF_CHECK(flapping().empty());  // one unstable transition of two
  read_at(task_record(status_state::running), t0 + 2);
  read_at(task_record(status_state::failed), t0 + 3);
  const auto flapping_now = flapping();
  CAF_REQUIRE_EQUAL(flapping_now.size(), 1u);
  CAF_CHECK(flapping_now[0] == (flapping_key{"conn", true, 0, t0 + 3}));
  // Stable from t0 + 3 ms for the 10 s window: the tick is due then, not 1 ns earlier.
  const auto stable_at = caf::actor_clock::time_point{std::chrono::milliseconds{t0 + 3 + 10'000}};
  CAF_CHECK_EQUAL(advance_time(stable_at - sched.clock().now() - 1ns), 0u);
  settle();
  CAF_CHECK_EQUAL(flapping().size(), 1u);
  CAF_CHECK_EQUAL(advance_time(1ns), 1u);
  settle();
  CAF_CHECK(flapping().empty());
  CAF_CHECK(sched.clock().schedule().empty());  // nothing flaps: no timer
}

CAF_TEST(no timer runs while nothing flaps) {
  start();  // threshold 3
  const int64_t t0 = now_ms();
  read_at(task_record(status_state::running), t0);
  read_at(task_record(status_state::failed), t0 + 1);
  read_at(task_record(status_state::running), t0 + 2);
  read_at(task_record(status_state::failed), t0 + 3);
  CAF_CHECK(flapping().empty());
  CAF_CHECK(sched.clock().schedule().empty());
}

CAF_TEST(a tombstone of a flapping key ends its flapping) {
  view_history.flap = {1, 10'000};
  start();
  read_at(task_record(status_state::failed), now_ms());
  CAF_CHECK_EQUAL(flapping().size(), 1u);
  read_back(task_record(status_state::running).key, std::nullopt);
  CAF_CHECK(flapping().empty());
}

CAF_TEST(the counts name every connector with a status with its FAILED entries and flapping keys) {
  view_history.flap = {2, 10'000};
  start();
  const int64_t t0 = now_ms();
  read_at(encode_connector_record(connector_status{"conn", {status_state::running, std::nullopt, "w1", 1}}), t0);
  read_at(encode_connector_record(connector_status{"calm", {status_state::running, std::nullopt, "w1", 1}}), t0);
  read_at(task_record(status_state::failed), t0 + 1);
  read_at(task_record(status_state::running), t0 + 2);
  read_at(task_record(status_state::failed), t0 + 3);
  read_at(task_record(status_state::failed), t0 + 4);  // a repeat: not counted
  const auto counts = ask<history_counts>(get_atom::value, history_atom::value, all_atom::value);
  CAF_CHECK(counts == (history_counts{{{"calm", 0, 0}, {"conn", 2, 1}}}));
  read_back("status-connector-conn", std::nullopt);  // its tombstone: its series go
  const auto after = ask<history_counts>(get_atom::value, history_atom::value, all_atom::value);
  CAF_CHECK(after == (history_counts{{{"calm", 0, 0}}}));
}

CAF_TEST_FIXTURE_SCOPE_END()
