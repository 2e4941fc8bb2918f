// The facade's one error rule (docs/embedding.md, "Errors") on the mock cluster: a call that cannot
// do what it says throws store_error with its kind; flush's false at its timeout, metrics() after
// stop() and stop() itself are answers, not errors.
#include "actors/kafka/mock_cluster.hpp"
#include "app/store/store.hpp"
#include "mock_store.hpp"

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>

using namespace status_store;
using namespace std::chrono_literals;
using status_store::integration::mock_config;

namespace {

connector_status running(const std::string& name) {
  return connector_status{name, status_value{status_state::running, std::nullopt, "w", 1}};
}

/// The kind of the store_error `call` throws, and that its reason is in what(); fails if it throws none.
std::optional<store_error_kind> kind_thrown(const std::function<void()>& call, const std::string& reason) {
  try {
    call();
  } catch (const store_error& e) {
    EXPECT_NE(std::string{e.what()}.find(reason), std::string::npos) << e.what();
    return e.kind();
  }
  ADD_FAILURE() << "no store_error thrown";
  return std::nullopt;
}

void kill_and_wait(caf::actor_system& system, const caf::actor& target) {
  caf::scoped_actor self{system};
  self->monitor(target);
  caf::anon_send_exit(target, caf::exit_reason::kill);
  self->receive([](caf::down_msg&) {}, caf::after(30s) >> [] { ADD_FAILURE() << "the actor did not exit"; });
}

}  // namespace

TEST(ErrorRuleOnMockCluster, FlushAndQueriesOnAStoppedStoreThrowStopped) {
  store s{mock_config("it-error-rule-stopped"), store_options{.jitter_seed = 1}};
  s.put(running("conn-0"));
  ASSERT_TRUE(s.flush(30s));
  const drain_report report = s.stop();
  EXPECT_EQ(report.failed, 0u);

  const auto stopped = store_error_kind::stopped;
  EXPECT_EQ(kind_thrown([&] { s.flush(1s); }, "flush failed: the store is stopped"), stopped);
  EXPECT_EQ(kind_thrown([&] { s.get("conn-0"); }, "status query for connector 'conn-0' failed: the store is stopped"),
            stopped);
  EXPECT_EQ(kind_thrown([&] { s.get("conn-0", 0); }, "the store is stopped"), stopped);
  EXPECT_EQ(kind_thrown([&] { s.connectors(); }, "the store is stopped"), stopped);
  EXPECT_EQ(kind_thrown([&] { s.describe_all(); }, "the store is stopped"), stopped);
  EXPECT_EQ(kind_thrown([&] { s.set_metrics_reporter([](const metrics_report&) {}, 1s); }, "the store is stopped"),
            stopped);
  // Answers, not errors: the final metrics, and the same report from stop() again.
  EXPECT_EQ(s.metrics().counters.success, 1u);
  EXPECT_EQ(s.stop().failed, report.failed);
  // store_error is a std::runtime_error: code that caught the queries' runtime_error still does.
  EXPECT_THROW(s.get_all("conn-0"), std::runtime_error);
}

TEST(ErrorRuleOnMockCluster, FlushAnswersFalseAtItsTimeoutAndStopCountsTheRest) {
  store s{mock_config("it-error-rule-timeout", {{"status.storage.shutdown.drain.timeout.ms", "200"}}),
          store_options{.jitter_seed = 2}};
  s.embedded_mock_cluster()->set_broker_down(-1);  // nothing can be acknowledged
  s.put(running("conn-0"));
  bool flushed = true;
  EXPECT_NO_THROW(flushed = s.flush(300ms));
  EXPECT_FALSE(flushed) << "the timeout is flush's answer, not an error";
  EXPECT_EQ(s.stop().failed, 1u) << "stop() reports the loss instead of throwing";
}

TEST(ErrorRuleOnMockCluster, ACallWhoseActorExitedThrowsFailed) {
  caf::actor_system_config system_config;
  caf::actor_system system{system_config};
  store s{system, mock_config("it-error-rule-failed"), store_options{.jitter_seed = 3}};
  kill_and_wait(system, caf::actor_cast<caf::actor>(s.view()));
  EXPECT_EQ(kind_thrown([&] { s.get("conn-0"); }, "status query for connector 'conn-0' failed"),
            store_error_kind::failed);
  kill_and_wait(system, caf::actor_cast<caf::actor>(s.actor()));
  EXPECT_EQ(kind_thrown([&] { s.flush(5s); }, "flush failed"), store_error_kind::failed)
      << "a coalescer that is gone is not a timeout: flush does not answer false";
  s.stop();
}

TEST(ErrorRuleOnMockCluster, AStoreThatCannotStartIsNeverThere) {
  // No broker listens on port 1: the constructor gives up within the start-up timeout, and there is
  // no store object to call.
  properties props{{"bootstrap.servers", "127.0.0.1:1"},
                   {"group.id", "it-cluster"},
                   {"status.storage.topic", "it-error-rule-never"},
                   {"status.storage.startup.timeout.ms", "1500"}};
  const auto started = std::chrono::steady_clock::now();
  EXPECT_THROW(store{parse_worker_config(props)}, std::runtime_error);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 30s);
}
