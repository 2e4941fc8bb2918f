// The embedder's handle (store::actor(), status_store_actor) is a subtype of the coalescer's typed
// interface that holds put, put batch and flush only: what the coalescer's peers and timers send
// (deadline, delivered, retry_due, brokers, observe, tick, hold_check, wake, stop) cannot be sent
// through it. CAF refuses to compile a send the handle's signatures do not hold (its send checks
// exactly this membership), so these static_asserts are the compile-time proof.
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

}  // namespace

TEST(PublicHandle, HoldsPutPutBatchAndFlushOnly) {
  // The static_asserts above are the test; this counts it and pins the size of the interface.
  EXPECT_EQ(caf::detail::tl_size<status_store_actor::signatures>::value, 3u);
  EXPECT_EQ(caf::detail::tl_size<coalescer_actor::signatures>::value, 12u);
}
