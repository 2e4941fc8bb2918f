// The ingest table's wake-up protocol on virtual time: callers put into the table, the coalescer is
// woken by one message when it goes from empty to waiting, and takes what waits in batches. No lost
// wake-up, never a second one outstanding, the latest update of a key wins in the table, and putSafe,
// tombstones, flush and stop keep their meaning through it.
#define CAF_SUITE ingest
#include "store_fixture.hpp"

#include <map>

using namespace status_store;
using namespace status_store::testing;
using namespace std::chrono_literals;

namespace {

using offer_result = ingest_table::offer_result;

status_update tombstone(std::string key) { return status_update{std::move(key), true, {}, false, {}, 0, 0}; }

}  // namespace

CAF_TEST_FIXTURE_SCOPE(ingest_tests, store_fixture)

CAF_TEST(a hundred puts over ten keys before the wake up cost one wake and write each latest value once) {
  start();
  CAF_CHECK(offer(update("k0", "v0"), false) == offer_result::wake_needed);
  for (int i = 1; i < 100; ++i)
    CAF_CHECK(offer(update("k" + std::to_string(i % 10), "v" + std::to_string(i)), false) == offer_result::waiting);
  CAF_CHECK(produced().empty());
  wake();
  CAF_CHECK_EQUAL(wakes_sent, 1u);
  CAF_REQUIRE_EQUAL(produced().size(), 10u);
  std::map<std::string, std::string> sent;
  for (const auto& r : produced()) sent[r.key] = r.value;
  for (int k = 0; k < 10; ++k) CAF_CHECK_EQUAL(sent["k" + std::to_string(k)], "v" + std::to_string(90 + k));
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.accepted, 100u);
  CAF_CHECK_EQUAL(c.coalesced, 90u);  // replaced in the table, never sent
  CAF_CHECK_EQUAL(c.pending, 10u);
}

CAF_TEST(no wake up is lost and none is doubled) {
  start();
  CAF_CHECK(offer(update("a", "1")) == offer_result::wake_needed);  // delivered: the table is drained
  CAF_CHECK_EQUAL(ingest->waiting(), 0u);
  CAF_CHECK(offer(update("b", "1"), false) == offer_result::wake_needed);  // idle again: a new wake-up
  CAF_CHECK(offer(update("c", "1"), false) == offer_result::waiting);      // already outstanding
  CAF_CHECK_EQUAL(produced().size(), 1u);
  wake();
  CAF_CHECK_EQUAL(produced().size(), 3u);
  CAF_CHECK_EQUAL(wakes_sent, 2u);
  self->send(coalescer, wake_atom::value);  // a stray wake finds nothing and changes nothing
  settle();
  CAF_CHECK_EQUAL(produced().size(), 3u);
  check_conservation();
}

CAF_TEST(a flush takes what waits in the table and leaves the outstanding wake up to be served) {
  start();
  CAF_CHECK(offer(update("a", "1"), false) == offer_result::wake_needed);  // the caller's wake is slow
  auto probe_actor = spawn_flush_probe();
  CAF_REQUIRE_EQUAL(produced().size(), 1u);  // the flush took it
  CAF_CHECK(!probe(probe_actor).flushed);
  CAF_CHECK(offer(update("b", "1"), false) == offer_result::waiting);  // the first wake-up is still out
  wake();                                                              // ... and arrives: it takes b
  CAF_REQUIRE_EQUAL(produced().size(), 2u);
  report(produced()[0], RD_KAFKA_RESP_ERR_NO_ERROR);
  CAF_CHECK(probe(probe_actor).flushed);  // b came after the flush: not waited for
  CAF_CHECK(offer(update("c", "1"), false) == offer_result::wake_needed);
  check_conservation();
}

CAF_TEST(putSafe and tombstones keep their meaning through the table) {
  start();
  observe("t", "other-worker", 9);
  offer(update("t", "stale", "worker-1", 3, true));  // another worker's newer generation is known
  CAF_CHECK(produced().empty());
  offer(tombstone("u"));
  CAF_REQUIRE_EQUAL(produced().size(), 1u);
  CAF_CHECK(produced()[0].tombstone);
  // A putSafe replaced in the table by a plain put is the plain put's turn.
  offer(update("t", "safe", "worker-1", 3, true), false);
  offer(update("t", "plain", "worker-1", 3), false);
  wake();
  CAF_REQUIRE_EQUAL(produced().size(), 2u);
  CAF_CHECK_EQUAL(produced()[1].value, "plain");
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.dropped_stale, 1u);
  CAF_CHECK_EQUAL(c.coalesced, 1u);
}

CAF_TEST(a storm larger than one batch is taken in batches by the same wake up) {
  start();
  CAF_CHECK(offer(update("key-0", "v"), false) == offer_result::wake_needed);
  for (int k = 1; k < 40000; ++k) offer(update("key-" + std::to_string(k), "v"), false);
  self->send(coalescer, wake_atom::value);
  sched.run_once();  // the wake message: one batch taken, the rest continued by the coalescer itself
  CAF_CHECK_GREATER(ingest->waiting(), 0u);
  CAF_CHECK_LESS(ingest->waiting(), 40000u);
  CAF_CHECK(offer(update("late", "v"), false) == offer_result::waiting);  // still one wake-up out
  settle();
  CAF_CHECK_EQUAL(ingest->waiting(), 0u);
  CAF_CHECK_EQUAL(produced().size(), 40001u);
  CAF_CHECK(offer(update("after", "v"), false) == offer_result::wake_needed);
  check_conservation();
}

CAF_TEST(stop closes the table drains what waited and later puts are refused) {
  start();
  offer(update("a", "1"), false);
  auto stopper = spawn_stop_probe(5s);
  CAF_REQUIRE_EQUAL(produced().size(), 1u);  // taken by the stop, not lost
  CAF_CHECK(offer(update("b", "1")) == offer_result::refused);
  report(produced()[0], RD_KAFKA_RESP_ERR_NO_ERROR);
  CAF_REQUIRE(probe(stopper).drained.has_value());
  CAF_CHECK_EQUAL(probe(stopper).drained->failed, 0u);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.accepted, 1u);
  CAF_CHECK_EQUAL(c.success, 1u);
}

CAF_TEST_FIXTURE_SCOPE_END()
