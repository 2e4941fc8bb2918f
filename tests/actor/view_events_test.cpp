// The status view's events (docs/http-service.md#the-event-stream) and the event hub that serves them
// to the event streams: live records only, one message per batch, every record read (a stale
// UNASSIGNED marked, tombstones, topic statuses), a key stable for the flap window, subscribers
// forgotten when they exit; the hub formats a batch once and drops a stream whose sink refuses it.
#define CAF_SUITE view_events
#include "store_fixture.hpp"

#include "actors/event_hub_actor.hpp"
#include "messages/codec/status_event_json.hpp"
#include "messages/status_record_codec.hpp"

#include <algorithm>

using namespace status_store;
using namespace status_store::testing;
using namespace std::chrono_literals;

namespace {

struct event_recorder_state {
  event_recorder_state() = default;
  static inline const char* name = "test.event-recorder";
  std::vector<status_event> events;
  size_t messages = 0;
};
using event_recorder_impl = std::remove_pointer_t<status_event_sink_actor::stateful_pointer<event_recorder_state>>;

status_event_sink_actor::behavior_type event_recorder(
    status_event_sink_actor::stateful_pointer<event_recorder_state> self) {
  return {
      [=](events_atom, std::vector<status_event>& events) {
        ++self->state.messages;
        for (auto& e : events) self->state.events.push_back(std::move(e));
      },
  };
}

/// A stream as the hub sees it: it keeps what it is offered, and refuses once told it ended.
struct fake_sink : event_stream_sink {
  std::vector<std::shared_ptr<const std::string>> offered;
  bool ended = false;
  bool offer(std::shared_ptr<const std::string> frames) override {
    if (ended) return false;
    offered.push_back(std::move(frames));
    return true;
  }
};

status_record task_record(int32_t task, status_state state, int32_t generation = 4) {
  return encode_task_record(task_status{"conn", task, status_value{state, std::nullopt, "w1:8083", generation}});
}

struct view_events_fixture : store_fixture {
  status_event_sink_actor recorder;

  void subscribe() {
    recorder = sys.spawn(event_recorder);
    self->send(view, subscribe_atom_v, recorder);
    settle();
  }
  ~view_events_fixture() override {
    if (recorder) caf::anon_send_exit(recorder, caf::exit_reason::user_shutdown);
    settle();
  }
  event_recorder_state& recorded() { return deref<event_recorder_impl>(recorder).state; }
  void replay_done() {
    self->send(view, caught_up_atom_v);
    settle();
  }
  void read_batch(const std::vector<status_record>& records) {
    std::vector<consumed_record> batch;
    for (const auto& r : records)
      batch.push_back(consumed_record{r.key, !r.value.has_value(), r.value.value_or(""), 3, next_offset++, false, 7});
    self->send(view, records_atom_v, std::move(batch));
    settle();
  }
};

}  // namespace

CAF_TEST_FIXTURE_SCOPE(view_events_tests, view_events_fixture)

CAF_TEST(live records become events in one message per batch and the replay none) {
  start();
  subscribe();
  read_back(task_record(0, status_state::running));  // the replay
  replay_done();
  CAF_CHECK(recorded().events.empty());
  read_batch({task_record(0, status_state::failed), task_record(1, status_state::running),
              encode_topic_record(topic_status{"orders", "conn", 1, 99}), encode_topic_tombstone("orders", "conn")});
  CAF_CHECK_EQUAL(recorded().messages, 1u);
  CAF_REQUIRE_EQUAL(recorded().events.size(), 4u);
  const auto& failed = recorded().events[0];
  CAF_CHECK(failed.kind == status_event_kind::status && failed.type == key_kind::task);
  CAF_CHECK_EQUAL(failed.key, "status-task-conn-0");
  CAF_CHECK(failed.value.state == status_state::failed);
  CAF_CHECK_EQUAL(failed.partition, 3);
  CAF_CHECK_EQUAL(failed.timestamp_ms, 7);
  CAF_CHECK(recorded().events[2].kind == status_event_kind::topic);
  CAF_CHECK_EQUAL(recorded().events[2].discover_timestamp, 99);
  CAF_CHECK(recorded().events[3].kind == status_event_kind::deleted);
}

CAF_TEST(the events are those watch prints with the same JSON for the same record) {
  start();
  subscribe();
  replay_done();
  const auto r = task_record(2, status_state::paused);
  read_batch({r});
  CAF_REQUIRE_EQUAL(recorded().events.size(), 1u);
  const consumed_record read{r.key, false, *r.value, 3, next_offset - 1, false, 7};
  const auto parsed = std::get<parsed_key>(parse_key(r.key));
  CAF_CHECK_EQUAL(status_event_json(recorded().events[0]), status_event_json(*decode_status_event(read, parsed)));
}

CAF_TEST(a stale UNASSIGNED is an event marked stale) {
  start();
  subscribe();
  replay_done();
  read_batch({task_record(0, status_state::running, 5), task_record(0, status_state::unassigned, 4)});
  CAF_REQUIRE_EQUAL(recorded().events.size(), 2u);
  CAF_CHECK(!recorded().events[0].stale);
  CAF_CHECK(recorded().events[1].stale);
  CAF_CHECK(recorded().events[1].value.state == status_state::unassigned);
}

CAF_TEST(a connector tombstone is one deleted event) {
  start();
  subscribe();
  replay_done();
  read_back(encode_connector_record(connector_status{"conn", {status_state::running, std::nullopt, "w", 1}}));
  read_back(connector_key("conn"), std::nullopt);
  CAF_REQUIRE_EQUAL(recorded().events.size(), 2u);
  CAF_CHECK(recorded().events[1].kind == status_event_kind::deleted);
  CAF_CHECK(recorded().events[1].type == key_kind::connector);
}

CAF_TEST(flapping is marked on the record that starts it and a stable key is an event of its own) {
  view_history.flap = {2, 10'000};
  start();
  subscribe();
  replay_done();
  const int64_t t0 =
      std::chrono::duration_cast<std::chrono::milliseconds>(sched.clock().now().time_since_epoch()).count();
  for (int i = 0; i < 4; ++i)
    read_back(task_record(0, i % 2 == 0 ? status_state::running : status_state::failed).key,
              task_record(0, i % 2 == 0 ? status_state::running : status_state::failed).value, false, t0 + i);
  CAF_REQUIRE_EQUAL(recorded().events.size(), 4u);
  CAF_CHECK(recorded().events[2].flapping == flap_mark::none);
  CAF_CHECK(recorded().events[3].flapping == flap_mark::started);
  advance_time(caf::actor_clock::time_point{std::chrono::milliseconds{t0 + 3 + 10'000}} - sched.clock().now());
  settle();
  CAF_REQUIRE_EQUAL(recorded().events.size(), 5u);
  CAF_CHECK(recorded().events[4].kind == status_event_kind::stable);
  CAF_CHECK_EQUAL(recorded().events[4].stable_for_ms, 10'000);
  CAF_CHECK_EQUAL(recorded().events[4].key, "status-task-conn-0");
}

CAF_TEST(a subscriber that exits is forgotten and the others still hear every batch) {
  start();
  subscribe();
  const auto first = recorder;
  subscribe();
  self->send(view, subscribe_atom_v, recorder);  // subscribing twice changes nothing
  settle();
  replay_done();
  caf::anon_send_exit(first, caf::exit_reason::user_shutdown);
  settle();
  read_back(task_record(0, status_state::running));
  read_back(task_record(0, status_state::paused));
  CAF_CHECK_EQUAL(recorded().messages, 2u);
  CAF_CHECK_EQUAL(recorded().events.size(), 2u);
}

CAF_TEST(the hub formats a batch once and offers it to every stream until one refuses) {
  start();
  const event_hub_actor hub = spawn_event_hub(sys, view);
  settle();
  replay_done();
  auto a = std::make_shared<fake_sink>();
  auto b = std::make_shared<fake_sink>();
  self->send(hub, join_atom_v, event_stream_port{1, a});
  self->send(hub, join_atom_v, event_stream_port{2, b});
  settle();
  read_batch({task_record(0, status_state::failed), task_record(1, status_state::running)});
  CAF_REQUIRE_EQUAL(a->offered.size(), 1u);
  CAF_REQUIRE_EQUAL(b->offered.size(), 1u);
  CAF_CHECK(a->offered[0] == b->offered[0]);  // one string, shared
  CAF_CHECK_EQUAL(a->offered[0]->find("event: status\ndata: {\"key\":\"status-task-conn-0\""), 0u);
  CAF_CHECK_EQUAL(std::count(a->offered[0]->begin(), a->offered[0]->end(), '\n'), 6);  // 2 events, 3 line breaks each
  b->ended = true;                                                                     // its client left
  read_batch({task_record(0, status_state::running)});
  b->ended = false;  // were it offered again, it would take it: it must not be
  read_batch({task_record(0, status_state::paused)});
  CAF_CHECK_EQUAL(a->offered.size(), 3u);
  CAF_CHECK_EQUAL(b->offered.size(), 1u);
  self->send(hub, leave_atom_v, uint64_t{1});
  settle();
  read_batch({task_record(0, status_state::failed)});
  CAF_CHECK_EQUAL(a->offered.size(), 3u);
  caf::anon_send_exit(hub, caf::exit_reason::user_shutdown);
  settle();
}

CAF_TEST_FIXTURE_SCOPE_END()
