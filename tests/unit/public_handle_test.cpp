// The embedder's handle (store::actor(), status_store_actor) is a subtype of the coalescer's typed
// interface that holds put, put batch and flush only: what the coalescer's peers and timers send
// (deadline, delivered, retry_due, brokers, observe, tick, hold_check, wake, stop) cannot be sent
// through it. CAF refuses to compile a send the handle's signatures do not hold (its send checks
// exactly this membership), so these static_asserts are the compile-time proof. The same holds for the
// narrow handles the coalescer's peers hold.
#include "app/store/store.hpp"
#include "messages/protocol.hpp"

#include <gtest/gtest.h>

using namespace status_store;

namespace {

template <class Signature>
constexpr bool embedders_can_send = caf::detail::tl_contains<status_store_actor::signatures, Signature>::value;

static_assert(caf::detail::tl_subset_of<status_store_actor::signatures, coalescer_actor::signatures>::value,
              "the public handle is obtained from the coalescer's by subtyping");
// CAF converts a handle only to one whose signatures are a subset (a static_assert in its
// constructor): no way back from the public handle to the whole interface.
static_assert(!caf::detail::tl_subset_of<coalescer_actor::signatures, status_store_actor::signatures>::value,
              "no way back to the whole interface");

static_assert(std::is_same_v<decltype(std::declval<const store&>().actor()), status_store_actor>,
              "store::actor() hands out the public handle, not the coalescer's whole interface");

static_assert(embedders_can_send<caf::reacts_to<put_atom, status_update>>);
static_assert(embedders_can_send<caf::reacts_to<put_atom, std::vector<status_update>>>);
static_assert(embedders_can_send<caf::replies_to<flush_atom>::with<ok_atom>>);

static_assert(!embedders_can_send<caf::reacts_to<deadline_atom>>, "deadline would fail every pending update");
static_assert(!embedders_can_send<caf::reacts_to<delivered_atom, std::vector<delivery_result>>>, "a forged delivery");
static_assert(!embedders_can_send<caf::reacts_to<retry_due_atom, std::vector<retry_request>>>);
static_assert(!embedders_can_send<caf::reacts_to<brokers_atom, bool>>);
static_assert(!embedders_can_send<caf::reacts_to<observe_atom, std::vector<observed_status>>>);
static_assert(!embedders_can_send<caf::reacts_to<tick_atom>>);
static_assert(!embedders_can_send<caf::reacts_to<hold_check_atom>>);
static_assert(!embedders_can_send<caf::reacts_to<wake_atom>>);
static_assert(!embedders_can_send<caf::replies_to<stop_atom, caf::timespan>::with<drain_report>>);

// The peers' handles are as narrow: producer I/O reports deliveries and reachability, the retry
// scheduler due retries, the status view what it read back; none of them can fail the drain
// (deadline) or put an update. Each converts from the coalescer's full interface, never back.
template <class Handle, class Signature>
constexpr bool can_send = caf::detail::tl_contains<typename Handle::signatures, Signature>::value;

// (CAF's converting constructor asserts the subset inside its body, so std::is_convertible cannot
// tell; the subset is what it checks.)
template <class Narrow, class Whole>
constexpr bool converts_from =
    caf::detail::tl_subset_of<typename Narrow::signatures, typename Whole::signatures>::value;

static_assert(converts_from<delivery_sink_actor, coalescer_actor>);
static_assert(converts_from<retry_sink_actor, coalescer_actor>);
static_assert(converts_from<observation_sink_actor, coalescer_actor>);
static_assert(!converts_from<coalescer_actor, delivery_sink_actor>, "no way back to the whole interface");

static_assert(can_send<delivery_sink_actor, caf::reacts_to<delivered_atom, std::vector<delivery_result>>>);
static_assert(can_send<delivery_sink_actor, caf::reacts_to<brokers_atom, bool>>);
static_assert(!can_send<delivery_sink_actor, caf::reacts_to<deadline_atom>>, "producer I/O cannot end the drain");
static_assert(!can_send<delivery_sink_actor, caf::reacts_to<put_atom, status_update>>, "nor put an update");
static_assert(!can_send<delivery_sink_actor, caf::reacts_to<retry_due_atom, std::vector<retry_request>>>);
static_assert(caf::detail::tl_size<delivery_sink_actor::signatures>::value == 2);

static_assert(can_send<retry_sink_actor, caf::reacts_to<retry_due_atom, std::vector<retry_request>>>);
static_assert(!can_send<retry_sink_actor, caf::reacts_to<deadline_atom>>, "the scheduler cannot end the drain");
static_assert(!can_send<retry_sink_actor, caf::reacts_to<put_atom, status_update>>, "nor put an update");
static_assert(!can_send<retry_sink_actor, caf::reacts_to<delivered_atom, std::vector<delivery_result>>>);
static_assert(caf::detail::tl_size<retry_sink_actor::signatures>::value == 1);

static_assert(!can_send<observation_sink_actor, caf::reacts_to<deadline_atom>>);
static_assert(!can_send<observation_sink_actor, caf::reacts_to<put_atom, status_update>>);

// What the coalescer holds of the producer and the scheduler, and what embedders hold of the view,
// leave out those actors' own timers.
static_assert(!can_send<retry_scheduler_actor, caf::reacts_to<fire_atom>>, "fire is the scheduler's own timer");
static_assert(can_send<retry_scheduler_full_actor, caf::reacts_to<fire_atom>>);
static_assert(!can_send<status_view_actor, caf::reacts_to<tick_atom>>, "tick is the view's own timer");
static_assert(!can_send<status_view_actor, caf::reacts_to<records_atom, std::vector<consumed_record>>>,
              "embedders cannot forge records read from the topic");
static_assert(std::is_same_v<decltype(std::declval<const store&>().view()), status_view_actor>);
static_assert(converts_from<status_feed_actor, status_view_full_actor>);
static_assert(converts_from<status_view_actor, status_view_full_actor>);
static_assert(converts_from<retry_scheduler_actor, retry_scheduler_full_actor>);
static_assert(!can_send<status_feed_actor, caf::reacts_to<tick_atom>>);

// The event hub hears the view's events; the listener's threads send it join and leave. What the view
// holds of it is the events alone.
static_assert(converts_from<status_event_sink_actor, event_hub_actor>);
static_assert(!can_send<status_event_sink_actor, caf::reacts_to<join_atom, event_stream_port>>);
static_assert(caf::detail::tl_size<status_event_sink_actor::signatures>::value == 1);
static_assert(can_send<status_view_actor, caf::reacts_to<subscribe_atom, status_event_sink_actor>>);

}  // namespace

TEST(PublicHandle, HoldsPutPutBatchAndFlushOnly) {
  // The static_asserts above are the test; this counts it and pins the size of the interface.
  EXPECT_EQ(caf::detail::tl_size<status_store_actor::signatures>::value, 3u);
  EXPECT_EQ(caf::detail::tl_size<coalescer_actor::signatures>::value, 12u);
}

TEST(PublicHandle, PeersHoldOnlyWhatTheySend) {
  // The static_asserts above are the test; this counts it and pins the peers' interfaces.
  EXPECT_EQ(caf::detail::tl_size<delivery_sink_actor::signatures>::value, 2u);
  EXPECT_EQ(caf::detail::tl_size<retry_sink_actor::signatures>::value, 1u);
  EXPECT_EQ(caf::detail::tl_size<observation_sink_actor::signatures>::value, 1u);
  // with history, flapping, counts, the status page's overview and the event subscription
  EXPECT_EQ(caf::detail::tl_size<status_view_actor::signatures>::value, 11u);
}
