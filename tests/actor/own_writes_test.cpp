// Own writes recognised as own: a record this store wrote, read back later, never abandons a retry of
// ours — whether its send was acknowledged, timed out although the broker kept it (a leader died
// after writing it), or was written twice by librdkafka. Another writer's record still does.
// The read-backs here carry the writer header exactly as the status reader marks them (`own`).
#define CAF_SUITE own_writes
#include "connect_statuses.hpp"
#include "store_fixture.hpp"

#include "messages/status_record_codec.hpp"

using namespace status_store;
using namespace status_store::testing;
using namespace std::chrono_literals;

CAF_TEST_FIXTURE_SCOPE(own_writes_tests, store_fixture)

CAF_TEST(a tombstone that timed out but was written does not abandon its own retry) {
  start();
  put(make_update(task0(status_state::destroyed, worker, 3)));
  report(produced()[0], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);  // the client was told it failed ...
  read_back(produced()[0]);                                 // ... but the broker kept it
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_REQUIRE_EQUAL(produced().size(), 2u);  // retried, not abandoned
  CAF_CHECK(produced()[1].tombstone);
  report(produced()[1], RD_KAFKA_RESP_ERR_NO_ERROR);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.dropped_stale, 0u);
  CAF_CHECK_EQUAL(c.success, 1u);
  CAF_CHECK_EQUAL(c.pending, 0u);
}

CAF_TEST(a timed out tombstone read back never abandons the newer value waiting behind it) {
  // The trace of the field report: a task-topic tombstone sent twice, both timed out, both on the
  // topic, read back only after the second timeout. A newer value put meanwhile must be written.
  start();
  put(make_topic_deletion("conn", "t"));
  report(produced()[0], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_REQUIRE_EQUAL(produced().size(), 2u);
  report(produced()[1], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  put(make_update(topic_status{"t", "conn", 0, 1234}));  // waits behind the backing-off tombstone
  read_back(produced()[0]);
  read_back(produced()[1]);
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(1)), 1u);
  settle();
  CAF_REQUIRE_EQUAL(produced().size(), 3u);
  CAF_CHECK(!produced()[2].tombstone);  // the retry carries the latest value
  report(produced()[2], RD_KAFKA_RESP_ERR_NO_ERROR);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.dropped_stale, 0u);
  CAF_CHECK_EQUAL(c.coalesced, 1u);  // the tombstone, superseded by the newer value
  CAF_CHECK_EQUAL(c.success, 1u);
  CAF_CHECK_EQUAL(c.pending, 0u);
}

CAF_TEST(duplicates of an acknowledged tombstone read back after a newer retry began abandon nothing) {
  // librdkafka may write one send twice (its own retry of a request whose answer was lost): two
  // echoes for one acknowledgement. Counting echoes would take the second for another writer's.
  start();
  put(make_update(task0(status_state::destroyed, worker, 3)));
  report(produced()[0], RD_KAFKA_RESP_ERR_NO_ERROR);
  put(make_update(task0(status_state::running, worker, 4)));
  report(produced()[1], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  read_back(produced()[0]);
  read_back(produced()[0]);  // the duplicate
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_REQUIRE_EQUAL(produced().size(), 3u);
  CAF_CHECK_EQUAL(produced()[2].value, produced()[1].value);
  CAF_CHECK_EQUAL(check_conservation().dropped_stale, 0u);
}

CAF_TEST(our own record naming another worker never makes a retry of ours stale) {
  // A store may write statuses on behalf of several worker ids (the demo does): its own earlier
  // record of another worker's newer generation, read back late, is not a new owner's write.
  start();
  put(make_update(task0(status_state::running, other_worker, 6)));
  report(produced()[0], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);  // timed out, but on the topic
  put(make_update(task0(status_state::running, worker, 5)));
  read_back(produced()[0]);
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_REQUIRE_EQUAL(produced().size(), 2u);
  CAF_CHECK_EQUAL(produced()[1].value, encode_status_value(task0(status_state::running, worker, 5).value));
  CAF_CHECK_EQUAL(check_conservation().dropped_stale, 0u);
}

CAF_TEST(the same records written by another writer still abandon the retry) {
  // The counterpart of the tests above: identical bytes without our writer header are another
  // writer's, and Connect's guards apply to them.
  start();
  put(make_update(task0(status_state::running, worker, 5)));
  report(produced()[0], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  read_back(encode_task_record(task0(status_state::running, other_worker, 6)));  // a new owner
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_CHECK_EQUAL(produced().size(), 1u);
  put(make_update(task0(status_state::running, worker, 7)));
  report(produced()[1], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  read_back(produced()[1].key, std::nullopt);  // another writer deletes the task
  advance_time(1h);
  settle();
  CAF_CHECK_EQUAL(produced().size(), 2u);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.dropped_stale, 2u);
  CAF_CHECK_EQUAL(c.pending, 0u);
}

CAF_TEST_FIXTURE_SCOPE_END()
