// Kafka Connect's KafkaStatusBackingStoreTest and KafkaStatusBackingStoreFormatTest, ported: each test
// is named after the Java test it mirrors (reference: ../shared/reference/kafka-status-store.md §2).
// The producer is a fake; "read back" feeds the status view what the topic would return. As in
// Connect, a status becomes visible only when it is read back.
// Two Java tests live elsewhere: misconfigurationOfStatusBackingStore and testClientIds are in
// tests/unit/conformance_config_test.cpp (they are about configuration).
#define CAF_SUITE conformance
#include "connect_statuses.hpp"
#include "store_fixture.hpp"

#include "messages/status_record_codec.hpp"

using namespace status_store;
using namespace status_store::testing;
using namespace std::chrono_literals;

CAF_TEST_FIXTURE_SCOPE(conformance_tests, store_fixture)

// ---- KafkaStatusBackingStoreTest ---------------------------------------------------------------------

CAF_TEST(putConnectorState) {
  start();
  put(make_update(conn(status_state::running, worker, 0)));
  CAF_REQUIRE_EQUAL(produced().size(), 1u);
  CAF_CHECK_EQUAL(produced()[0].key, "status-connector-conn");
  CAF_CHECK_EQUAL(produced()[0].value,
                  R"({"state":"RUNNING","trace":null,"worker_id":"localhost:8083","generation":0,"version":null})");
  report(produced()[0], RD_KAFKA_RESP_ERR_NO_ERROR);
  CAF_CHECK(!describe("conn").found);  // not visible until read back
  check_conservation();
}

CAF_TEST(putConnectorStateRetriableFailure) {
  start();
  put(make_update(conn(status_state::running, worker, 0)));
  report(produced()[0], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);  // Java: TimeoutException
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_REQUIRE_EQUAL(produced().size(), 2u);
  CAF_CHECK_EQUAL(produced()[1].value, produced()[0].value);
  report(produced()[1], RD_KAFKA_RESP_ERR_NO_ERROR);
  CAF_CHECK(!describe("conn").found);
  CAF_CHECK_EQUAL(check_conservation().success, 1u);
}

CAF_TEST(putConnectorStateNonRetriableFailure) {
  start();
  put(make_update(conn(status_state::running, worker, 0)));
  report(produced()[0], RD_KAFKA_RESP_ERR_UNKNOWN);  // Java: UnknownServerException
  CAF_CHECK_EQUAL(pending_timers(), 0u);
  CAF_CHECK_EQUAL(produced().size(), 1u);
  CAF_CHECK(!describe("conn").found);
  CAF_CHECK_EQUAL(check_conservation().failure, 1u);
}

CAF_TEST(putSafeConnectorIgnoresStaleStatus) {
  start();
  read_back(encode_connector_record(conn(status_state::running, other_worker, 1)));
  put(make_update(conn(status_state::unassigned, worker, 0), true));
  CAF_CHECK_EQUAL(produced().size(), 0u);  // verify(never()).send
  auto v = describe("conn");
  CAF_REQUIRE(v.found);
  CAF_CHECK(v.connector == conn(status_state::running, other_worker, 1));
  CAF_CHECK_EQUAL(check_conservation().dropped_stale, 1u);
}

CAF_TEST(putSafeWithNoPreviousValueIsPropagated) {
  start();
  put(make_update(conn(status_state::failed, worker, 0), true));
  CAF_REQUIRE_EQUAL(produced().size(), 1u);
  auto value = decode_status_value(produced()[0].value);
  CAF_REQUIRE(std::holds_alternative<status_value>(value));
  CAF_CHECK(std::get<status_value>(value).state == status_state::failed);
  CAF_CHECK_EQUAL(std::get<status_value>(value).worker_id, worker);
  CAF_CHECK_EQUAL(std::get<status_value>(value).generation, 0);
}

CAF_TEST(putSafeOverridesValueSetBySameWorker) {
  start();
  read_back(encode_connector_record(conn(status_state::running, worker, 1)));
  put(make_update(conn(status_state::unassigned, worker, 0), true));
  CAF_REQUIRE_EQUAL(produced().size(), 1u);  // same worker wins, even with a lower generation
  report(produced()[0], RD_KAFKA_RESP_ERR_NO_ERROR);
  read_back(produced()[0]);
  CAF_CHECK(describe("conn").connector == conn(status_state::unassigned, worker, 0));
}

CAF_TEST(putConnectorStateShouldOverride) {
  start();
  read_back(encode_connector_record(conn(status_state::running, other_worker, 1)));
  put(make_update(conn(status_state::unassigned, worker, 0)));  // plain put: no stale filter
  CAF_REQUIRE_EQUAL(produced().size(), 1u);
  report(produced()[0], RD_KAFKA_RESP_ERR_NO_ERROR);
  read_back(produced()[0]);
  CAF_CHECK(describe("conn").connector == conn(status_state::unassigned, worker, 0));
}

CAF_TEST(readConnectorState) {
  start();
  // Connect decodes the generation from a JSON integer (a Long in Java).
  read_back("status-connector-conn", R"({"worker_id":"localhost:8083","state":"RUNNING","generation":0})");
  auto v = describe("conn");
  CAF_REQUIRE(v.found);
  CAF_CHECK(v.connector == conn(status_state::running, worker, 0));
}

CAF_TEST(putTaskState) {
  start();
  put(make_update(task0(status_state::running, worker, 0)));
  CAF_REQUIRE_EQUAL(produced().size(), 1u);
  CAF_CHECK_EQUAL(produced()[0].key, "status-task-conn-0");
  report(produced()[0], RD_KAFKA_RESP_ERR_NO_ERROR);
  CAF_CHECK(describe("conn").tasks.empty());  // not visible until read back
}

CAF_TEST(readTaskState) {
  start();
  read_back("status-task-conn-0", R"({"worker_id":"localhost:8083","state":"RUNNING","generation":0})");
  auto tasks = describe("conn").tasks;
  CAF_REQUIRE_EQUAL(tasks.size(), 1u);
  CAF_CHECK(tasks[0] == task0(status_state::running, worker, 0));
}

CAF_TEST(readTaskStateShouldIgnoreStaleStatusesFromOtherWorkers) {
  start();
  read_back(encode_task_record(task0(status_state::running, other_worker, 10)));
  read_back(encode_task_record(task0(status_state::unassigned, worker, 9)));  // KAFKA-12525: ignored
  CAF_CHECK(describe("conn").tasks.at(0) == task0(status_state::running, other_worker, 10));
  read_back(encode_task_record(task0(status_state::running, "localhost:8085", 1)));  // not UNASSIGNED: taken
  CAF_CHECK(describe("conn").tasks.at(0) == task0(status_state::running, "localhost:8085", 1));
}

CAF_TEST(deleteConnectorState) {
  start();
  read_back(encode_connector_record(conn(status_state::running, worker, 0)));
  read_back(encode_task_record(task0(status_state::running, worker, 0)));
  CAF_CHECK_EQUAL(connectors(), std::vector<std::string>{"conn"});
  CAF_CHECK_EQUAL(describe("conn").tasks.size(), 1u);
  read_back("status-connector-conn", std::nullopt);  // the tombstone cascades to the tasks
  CAF_CHECK(connectors().empty());
  CAF_CHECK(describe("conn").tasks.empty());
}

CAF_TEST(deleteTaskState) {
  start();
  read_back(encode_task_record(task0(status_state::running, worker, 0)));
  read_back("status-task-conn-0", std::nullopt);
  CAF_CHECK(describe("conn").tasks.empty());
}

// ---- KafkaStatusBackingStoreFormatTest ---------------------------------------------------------------

CAF_TEST(readInvalidStatus) {
  start();
  for (const char* key :
       {"status-unknown", "status-connector-", "status-task-", "status-task-foo-source-#", "status-topic-",
        "status-topic-:connector-", "status-topic-foo-topic:", "status-topic-foo-topic:connector-"})
    read_back(key, R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":0})");
  CAF_CHECK(connectors().empty());
  CAF_CHECK(describe("foo-source").tasks.empty());
  CAF_CHECK(describe("").topics.empty());
  CAF_CHECK_EQUAL(snapshot().view.read_errors, 8u);  // skipped, logged and counted; the reader goes on
  read_back(encode_connector_record(conn(status_state::running, worker, 0)));
  CAF_CHECK(describe("conn").found);
}

CAF_TEST(readInvalidStatusValue) {
  start();
  read_back("status-connector-conn", "invalid");
  read_back("status-task-conn-0", "invalid");
  read_back("status-topic-foo:connector-conn", "invalid");
  auto v = describe("conn");
  CAF_CHECK(!v.found);  // no cache entry is created
  CAF_CHECK(v.tasks.empty());
  CAF_CHECK(v.topics.empty());
  CAF_CHECK(connectors().empty());
  CAF_CHECK_EQUAL(snapshot().view.read_errors, 3u);
  // A malformed value does not remove a good one either.
  read_back(encode_connector_record(conn(status_state::paused, worker, 2)));
  read_back("status-connector-conn", R"({"state":"RUNNIN","trace":null,"worker_id":"w","generation":0})");
  CAF_CHECK(describe("conn").connector == conn(status_state::paused, worker, 2));
}

CAF_TEST(readTopicStatus) {
  start();
  topic_status t{"foo-topic", "foo-source", 0, 1580000000000};
  read_back(encode_topic_record(t));
  auto topics = describe("foo-source").topics;
  CAF_REQUIRE_EQUAL(topics.size(), 1u);
  CAF_CHECK(topics[0] == t);
}

CAF_TEST(deleteTopicStatus) {
  start();
  CAF_CHECK(!encode_topic_tombstone("foo", "bar").value.has_value());  // serializeTopicStatus(null) == null
  read_back(encode_topic_record(topic_status{"foo", "bar", 0, 1}));
  read_back("status-topic-foo:connector-bar", std::nullopt);
  CAF_CHECK(describe("bar").topics.empty());
}

CAF_TEST(putTopicState) {
  start();
  topic_status t{"foo-topic", "foo-source", 0, 1580000000000};
  put(make_update(t));
  CAF_REQUIRE_EQUAL(produced().size(), 1u);
  CAF_CHECK_EQUAL(produced()[0].key, "status-topic-foo-topic:connector-foo-source");
  auto decoded_value = decode_topic_value(produced()[0].value);
  CAF_REQUIRE(std::holds_alternative<topic_status>(decoded_value));
  CAF_CHECK(std::get<topic_status>(decoded_value) == t);
  report(produced()[0], RD_KAFKA_RESP_ERR_NO_ERROR);
  CAF_CHECK(describe("foo-source").topics.empty());  // getTopic is null until read back
  read_back(produced()[0]);
  CAF_REQUIRE_EQUAL(describe("foo-source").topics.size(), 1u);
  CAF_CHECK(describe("foo-source").topics[0] == t);
}

CAF_TEST(putTopicStateRetriableFailure) {
  start();
  put(make_update(topic_status{"foo-topic", "foo-source", 0, 1}));
  report(produced()[0], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  // Java checks the re-send happens asynchronously within 1 s; here: exactly at its backoff.
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_CHECK_EQUAL(produced().size(), 2u);
}

CAF_TEST(putTopicStateNonRetriableFailure) {
  start();
  put(make_update(topic_status{"foo-topic", "foo-source", 0, 1}));
  report(produced()[0], RD_KAFKA_RESP_ERR_UNKNOWN);
  CAF_CHECK_EQUAL(advance_time(1h), 0u);
  settle();
  CAF_CHECK_EQUAL(produced().size(), 1u);
  CAF_CHECK_EQUAL(check_conservation().failure, 1u);
}

CAF_TEST(putTopicStateShouldOverridePreviousState) {
  start();
  topic_status first{"foo-topic", "foo-source", 0, 1}, second{"bar-topic", "foo-source", 0, 2};
  put(make_update(first));
  put(make_update(second));
  for (auto& r : produced()) read_back(r);
  auto topics = describe("foo-source").topics;
  CAF_REQUIRE_EQUAL(topics.size(), 2u);  // both kept
  CAF_CHECK(topics[0] == second);        // sorted by topic name
  CAF_CHECK(topics[1] == first);
}

// ---- extra items implied by Connect's code ------------------------------------------------------------

CAF_TEST(destroyedIsWrittenAsATombstone) {
  start();
  put(make_update(conn(status_state::destroyed, worker, 0)));
  CAF_REQUIRE_EQUAL(produced().size(), 1u);
  CAF_CHECK(produced()[0].tombstone);
}

CAF_TEST(connectorsListsOnlyStatusesReadBack) {
  // Deliberate difference: Connect's connectors() also lists a connector right after a local put
  // (an empty cache entry, whose get() is null). Here every query answers from what was read back.
  start();
  put(make_update(conn(status_state::running, worker, 0)));
  CAF_CHECK(connectors().empty());
  read_back(produced()[0]);
  CAF_CHECK_EQUAL(connectors(), std::vector<std::string>{"conn"});
}

CAF_TEST(retryIsAbandonedWhenATombstoneWrittenByAnotherWorkerIsReadBack) {
  start();
  put(make_update(task0(status_state::running, worker, 3)));
  report(produced()[0], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  read_back("status-task-conn-0", std::nullopt);  // the leader deleted the task meanwhile
  advance_time(1h);                               // the backoff timer still fires; nothing is sent
  settle();
  CAF_CHECK_EQUAL(produced().size(), 1u);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.dropped_stale, 1u);
  CAF_CHECK_EQUAL(c.pending, 0u);
}

CAF_TEST(ourOwnTombstoneReadBackDoesNotAbandonANewerRetry) {
  start();
  put(make_update(task0(status_state::destroyed, worker, 3)));  // we delete the task ...
  report(produced()[0], RD_KAFKA_RESP_ERR_NO_ERROR);
  put(make_update(task0(status_state::running, worker, 4)));  // ... and recreate it
  report(produced()[1], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  read_back(produced()[0]);  // the echo of our own tombstone
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_REQUIRE_EQUAL(produced().size(), 3u);  // the RUNNING is retried, not abandoned
  CAF_CHECK_EQUAL(produced()[2].value, produced()[1].value);
}

CAF_TEST(retryIsAbandonedWhenAnotherWorkersNewerGenerationIsReadBack) {
  // The purpose of Connect's generation guard: after a rebalance, a stale retry must not overwrite
  // the new owner's status. Applies to plain puts too.
  start();
  put(make_update(task0(status_state::running, worker, 5)));
  report(produced()[0], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  read_back(encode_task_record(task0(status_state::running, other_worker, 6)));
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_CHECK_EQUAL(produced().size(), 1u);
  CAF_CHECK_EQUAL(check_conservation().dropped_stale, 1u);
}

CAF_TEST(aGenerationChangeElsewhereDoesNotDropTheRetryOfATaskStillOwned) {
  // Where status-store departs from Connect on purpose: Connect would drop this retry because the
  // store sent something with generation 6; the task's FAILED status would then never be written.
  start();
  put(make_update(task0(status_state::failed, worker, 5), true));
  report(produced()[0], RD_KAFKA_RESP_ERR__MSG_TIMED_OUT);
  put(make_update(task_status{"other", 0, status_value{status_state::running, std::nullopt, worker, 6}}));
  CAF_CHECK_EQUAL(advance_time(next_expected_delay(0)), 1u);
  settle();
  CAF_REQUIRE_EQUAL(produced().size(), 3u);
  CAF_CHECK_EQUAL(produced()[2].key, "status-task-conn-0");
}

CAF_TEST_FIXTURE_SCOPE_END()
