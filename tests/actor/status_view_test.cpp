// The status view beyond Connect's own tests: replay completion, delete cascades, the KAFKA-12525
// boundary, read-error counting, and read-back values reaching putSafe through the coalescer.
#define CAF_SUITE status_view
#include "store_fixture.hpp"

#include "config/logging.hpp"

#include <spdlog/sinks/base_sink.h>

#include <algorithm>
#include <mutex>

using namespace status_store;
using namespace status_store::testing;
using namespace std::chrono_literals;

namespace {
task_status task(int32_t id, status_state state, const char* worker, int32_t generation) {
  return task_status{"conn", id, status_value{state, std::nullopt, worker, generation}};
}

/// What a component's logger writes while this lives (at every level), line by line.
class captured_log {
 public:
  explicit captured_log(const std::string& component)
      : logger_{component_logger(component)}, level_{logger_->level()}, sink_{std::make_shared<sink>()} {
    logger_->sinks().push_back(sink_);
    logger_->set_level(spdlog::level::trace);
  }
  ~captured_log() {
    auto& sinks = logger_->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
    logger_->set_level(level_);
  }
  std::vector<std::string> lines_with(std::string_view text) const {
    std::vector<std::string> found;
    for (const auto& line : sink_->lines)
      if (line.find(text) != std::string::npos) found.push_back(line);
    return found;
  }

 private:
  struct sink : spdlog::sinks::base_sink<std::mutex> {
    std::vector<std::string> lines;
    void sink_it_(const spdlog::details::log_msg& msg) override {
      lines.emplace_back(msg.payload.data(), msg.payload.size());
    }
    void flush_() override {}
  };
  std::shared_ptr<spdlog::logger> logger_;
  spdlog::level::level_enum level_;
  std::shared_ptr<sink> sink_;
};

std::string task_value(const std::string& state) {
  return R"({"state":")" + state + R"(","trace":null,"worker_id":"w","generation":1})";
}
}  // namespace

CAF_TEST_FIXTURE_SCOPE(status_view_tests, store_fixture)

CAF_TEST(await answers only once the replay has reached the end) {
  start();
  bool done = false;
  auto rh = self->request(view, caf::infinite, await_atom::value);
  settle();
  read_back(encode_task_record(task(0, status_state::running, "w1", 1)));
  CAF_CHECK(!done);
  self->send(view, caught_up_atom::value);
  settle();
  rh.receive([&](ok_atom) { done = true; }, [&](caf::error& err) { CAF_FAIL(sys.render(err)); });
  CAF_CHECK(done);
  auto m = snapshot();
  CAF_CHECK_EQUAL(m.view.replay_records, 1u);
  CAF_CHECK_GREATER_OR_EQUAL(m.view.replay_ms, 0);
  // Later awaits answer at once.
  auto again = self->request(view, caf::infinite, await_atom::value);
  settle();
  bool again_done = false;
  again.receive([&](ok_atom) { again_done = true; }, [&](caf::error&) {});
  CAF_CHECK(again_done);
}

CAF_TEST(a connector tombstone removes its tasks but not its topics) {
  start();
  read_back(encode_connector_record(connector_status{"conn", {status_state::running, std::nullopt, "w1", 1}}));
  read_back(encode_task_record(task(0, status_state::running, "w1", 1)));
  read_back(encode_task_record(task(1, status_state::running, "w1", 1)));
  read_back(encode_topic_record(topic_status{"orders", "conn", 0, 5}));
  read_back("status-connector-conn", std::nullopt);
  auto v = describe("conn");
  CAF_CHECK(!v.found);
  CAF_CHECK(v.tasks.empty());
  CAF_CHECK_EQUAL(v.topics.size(), 1u);  // Connect keeps topics: they have their own tombstones
}

CAF_TEST(every connector with a status is described in one answer sorted by name) {
  start();
  for (const std::string name : {"zeta", "alpha", "mid"})
    read_back(encode_connector_record(connector_status{name, {status_state::running, std::nullopt, "w1", 1}}));
  read_back(encode_task_record(task_status{"alpha", 3, {status_state::failed, "boom", "w1", 1}}));
  read_back(encode_task_record(task_status{"orphan", 0, {status_state::running, std::nullopt, "w1", 1}}));
  std::optional<std::vector<connector_view>> all;
  auto rh = self->request(view, caf::infinite, get_atom::value, all_atom::value);
  settle();
  rh.receive([&](std::vector<connector_view>& v) { all = std::move(v); },
             [&](caf::error& err) { CAF_FAIL(sys.render(err)); });
  CAF_REQUIRE(all.has_value());
  CAF_REQUIRE_EQUAL(all->size(), 3u);  // "orphan" has no connector status: not listed, as in connectors()
  CAF_CHECK_EQUAL((*all)[0].name, "alpha");
  CAF_CHECK_EQUAL((*all)[1].name, "mid");
  CAF_CHECK_EQUAL((*all)[2].name, "zeta");
  CAF_REQUIRE_EQUAL((*all)[0].tasks.size(), 1u);
  CAF_CHECK_EQUAL((*all)[0].tasks[0].task, 3);
  CAF_CHECK((*all)[0] == describe("alpha"));
}

CAF_TEST(one task is answered alone and equals its entry in the connector description) {
  start();
  read_back(encode_task_record(task(0, status_state::running, "w1", 1)));
  read_back(encode_task_record(task_status{"conn", 2, {status_state::failed, "boom", "w2", 3, "1.0"}}));
  const auto one = [&](const std::string& connector, int32_t id) {
    std::optional<std::vector<task_status>> found;
    auto rh = self->request(view, caf::infinite, get_atom::value, connector, id);
    settle();
    rh.receive([&](std::vector<task_status>& v) { found = std::move(v); },
               [&](caf::error& err) { CAF_FAIL(sys.render(err)); });
    CAF_REQUIRE(found.has_value());
    return *found;
  };
  const auto two = one("conn", 2);
  CAF_REQUIRE_EQUAL(two.size(), 1u);
  CAF_CHECK(two[0] == describe("conn").tasks.at(1));
  CAF_CHECK(two[0].value.trace == std::optional<std::string>{"boom"});
  CAF_CHECK(one("conn", 1).empty());   // no such task
  CAF_CHECK(one("other", 0).empty());  // no such connector
}

CAF_TEST(an unassigned of a higher generation replaces a running task) {
  start();
  read_back(encode_task_record(task(0, status_state::running, "w1", 4)));
  read_back(encode_task_record(task(0, status_state::unassigned, "w2", 4)));  // same generation: ignored
  CAF_CHECK(describe("conn").tasks.at(0).value.state == status_state::running);
  read_back(encode_task_record(task(0, status_state::unassigned, "w2", 5)));  // newer: taken
  CAF_CHECK(describe("conn").tasks.at(0).value.state == status_state::unassigned);
}

CAF_TEST(connector statuses have no stale filter) {
  start();
  read_back(encode_connector_record(connector_status{"conn", {status_state::running, std::nullopt, "w1", 9}}));
  read_back(encode_connector_record(connector_status{"conn", {status_state::unassigned, std::nullopt, "w2", 1}}));
  CAF_CHECK(describe("conn").connector.value.state == status_state::unassigned);
}

CAF_TEST(the view keeps the plugin version of each status and Connect 4.0 records have none) {
  start();
  // Connect 4.1+ writes the plugin version (KIP-891); 3.x and 4.0 wrote four fields.
  read_back("status-connector-conn",
            R"({"state":"RUNNING","trace":null,"worker_id":"w1","generation":3,"version":"2.1.0"})");
  read_back("status-task-conn-0", R"({"state":"RUNNING","trace":null,"worker_id":"w1","generation":3,"version":null})");
  read_back("status-task-conn-1", R"({"state":"FAILED","trace":"x","worker_id":"w2","generation":3})");
  read_back("status-task-conn-2",
            R"({"state":"PAUSED","trace":null,"worker_id":"w1","generation":3,"version":"2.1.0"})");
  auto v = describe("conn");
  CAF_CHECK_EQUAL(v.connector.value.version, std::optional<std::string>{"2.1.0"});
  CAF_CHECK_EQUAL(v.tasks.at(0).value.version, std::nullopt);
  CAF_CHECK_EQUAL(v.tasks.at(1).value.version, std::nullopt);
  CAF_CHECK_EQUAL(v.tasks.at(2).value.version, std::optional<std::string>{"2.1.0"});
  CAF_CHECK(v.tasks.at(1).value.trace == std::optional<std::string>{"x"});
}

CAF_TEST(malformed records are counted and the reader goes on) {
  start();
  read_back("status-task-conn-x", R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":0})");
  read_back("status-task-conn-0", R"({"state":"RUNNING","trace":null,"worker_id":"w","generation":"zero"})");
  read_back("status-topic-t:connector-conn", R"({"topic":{"name":"t"}})");
  read_back("", R"({})");
  read_back(encode_task_record(task(0, status_state::paused, "w1", 1)));
  auto m = snapshot();
  CAF_CHECK_EQUAL(m.view.read_errors, 4u);
  CAF_CHECK_EQUAL(m.view.records_read, 5u);
  CAF_CHECK(describe("conn").tasks.at(0).value.state == status_state::paused);
}

CAF_TEST(putSafe decides on the value read back by the view) {
  start();
  read_back(encode_task_record(task(0, status_state::running, "w2", 7)));
  put(make_update(task(0, status_state::unassigned, "w1", 6), true));  // stale: another worker, newer generation
  CAF_CHECK_EQUAL(produced().size(), 0u);
  put(make_update(task(0, status_state::failed, "w1", 7), true));  // same generation: allowed
  CAF_CHECK_EQUAL(produced().size(), 1u);
  auto c = check_conservation();
  CAF_CHECK_EQUAL(c.dropped_stale, 1u);
}

CAF_TEST(a flood of malformed records is logged ten lines per rule a minute and the rest counted) {
  start();
  captured_log log{"status-view"};
  for (int i = 0; i < 1000; ++i) read_back("status-task-conn-" + std::to_string(i), task_value("BOGUS"));
  for (int i = 0; i < 5; ++i) read_back("status-task-conn-" + std::to_string(i), "{not json");
  for (int i = 0; i < 30; ++i) read_back("nonsense-" + std::to_string(i), "{}");
  CAF_CHECK_EQUAL(snapshot().view.read_errors, 1035u);  // every one counted
  CAF_CHECK_EQUAL(log.lines_with("unknown state").size(), 10u);
  CAF_CHECK_EQUAL(log.lines_with("value is not JSON").size(), 5u);  // under its own budget
  CAF_CHECK_EQUAL(log.lines_with("unknown key prefix").size(), 10u);
  CAF_CHECK(log.lines_with("suppressed").empty());  // within the minute: nothing to say yet
  // The minute passes on the view's clock: one timer, one line per rule that held lines back.
  CAF_CHECK_EQUAL(advance_time(60s - 1ns), 0u);
  CAF_CHECK_EQUAL(advance_time(1ns), 1u);
  settle();
  const auto held_back = log.lines_with("suppressed");
  CAF_REQUIRE_EQUAL(held_back.size(), 2u);
  CAF_CHECK_EQUAL(log.lines_with("990 more malformed status record(s) (task status: unknown state) suppressed in the "
                                 "last 60.0 s")
                      .size(),
                  1u);
  CAF_CHECK_EQUAL(log.lines_with("20 more malformed status record(s) (unknown key prefix) suppressed").size(), 1u);
  CAF_CHECK_EQUAL(pending_timers(), 0u);                         // nothing held back any more: no timer
  read_back("status-task-conn-0", task_value("BOGUS"));          // a new minute: logged again
  CAF_CHECK_EQUAL(log.lines_with("unknown state").size(), 12u);  // the summary names the rule too
}

CAF_TEST(a malformed record key and reason are logged escaped and cut) {
  start();
  captured_log log{"status-view"};
  // A task key (its last part the id), so the value is decoded too and its state is quoted in the reason.
  const std::string key =
      "status-task-\x1b[2J\xff\x0a"
      "FAKE ERROR line-" +
      std::string(5000, 'k') + "-0";
  read_back(key, task_value(R"(\u001b]0;owned\u0007)"));  // JSON escapes: the state holds ESC and BEL
  read_back("status-\xc0\xaf\x9b", "{}");
  const auto lines = log.lines_with("skipping malformed");
  CAF_REQUIRE_EQUAL(lines.size(), 2u);
  for (const auto& line : lines) {
    CAF_CHECK(std::all_of(line.begin(), line.end(), [](char c) { return c >= 0x20 && c < 0x7f; }));  // ASCII only
    CAF_CHECK_LESS(line.size(), 800u);  // key and reason: 256 bytes each at most, and the marker
  }
  CAF_CHECK_NOT_EQUAL(lines[0].find(R"(status-task-\x1b[2J\xff\x0aFAKE ERROR line-kkk)"), std::string::npos);
  CAF_CHECK_NOT_EQUAL(lines[0].find("more bytes]"), std::string::npos);
  CAF_CHECK_NOT_EQUAL(lines[0].find(R"(unknown state '\x1b]0;owned\x07')"), std::string::npos);
  CAF_CHECK_NOT_EQUAL(lines[1].find(R"(status-\xc0\xaf\x9b)"), std::string::npos);
}

CAF_TEST_FIXTURE_SCOPE_END()
