// status-store's REST answers against a live Kafka Connect 4.4 worker's for the same statuses: one
// ConnectDistributed worker (connect_worker.hpp) runs the driver's ParitySourceConnector — a running
// task that writes to two topics, a failing task with a real stack trace, a connector created PAUSED
// — and status-store (the in-process facade) adds a task and a topic status of its own that Connect
// reads. `status-store run` serves the same status topic. Each endpoint's two bodies are parsed with
// order-preserving JSON and must be equal field by field and in order, after three documented
// normalisations (docs/testing.md): Connect's "type" is read as status-store's "unknown" and ?expand=info's
// "info" removed (both from the connector's configuration, which a status store does not have) after
// checking them, and the top-level order of GET /connectors and ?expand (Connect's Java HashMap/HashSet
// order) is sorted as status-store's is. A second worker with topic.tracking.enable=false answers the
// tracking-off 403s.
#include "connect_worker.hpp"
#include "java_driver.hpp"
#include "rest_parity.hpp"
#include "status_store_service.hpp"

#include "app/store/store.hpp"
#include "config/worker_config.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <regex>
#include <thread>

using namespace status_store;
using namespace status_store::interop;
using namespace std::chrono_literals;

namespace {

const std::string source = "parity.src-é";  // percent-encoded in every path, decoded by both services
const std::string source_path = "/connectors/parity.src-%C3%A9";
const std::string paused = "parity-paused";
const std::string store_trace = "written by status-store: \"quoted\"\t\\ café 😀\n\tat x\x01\x1f end";

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string setup_error;
std::unique_ptr<connect_worker> connect;
std::unique_ptr<status_store_service> service;  // topic.tracking.allow.reset=true
std::string bootstrap;
std::string run_prefix;  // this run's Connect group and topic names start with it

/// Connect's "type" comes from the connector's class, which a status store cannot know, so status-store
/// says "unknown" (ConnectorType.UNKNOWN, what Connect says of a connector it cannot tell): Connect's is
/// checked to be the connectors' type, then read as "unknown" (the key keeps its place, the last).
void unknown_type(ordered& status) {
  EXPECT_EQ(status.value("type", ""), "source") << status.dump();
  status["type"] = "unknown";
}

/// Both services' answers to one request, compared after the normalisations (rest_parity.hpp).
compared ask_both(const std::string& method, const std::string& path,
                  const std::function<void(ordered&)>& normalise_connect = {},
                  const std::function<void(ordered&)>& normalise_store = {}) {
  return interop::ask_both(connect->port(), service->port, method, path, normalise_connect, normalise_store);
}

bool connect_shows(const std::string& path, const std::function<bool(const ordered&)>& ready) {
  const auto a = rest_call(connect->port(), "GET", path);
  try {
    return a.status == 200 && ready(ordered::parse(a.body));
  } catch (const std::exception&) {
    return false;
  }
}

class ConnectRestParity : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    try {
      bootstrap = env("STATUS_STORE_BOOTSTRAP");
      if (bootstrap.empty())
        throw std::runtime_error("STATUS_STORE_BOOTSTRAP is not set: run under scripts/kafka-local.sh run 1 -- ...");
      java_driver driver;
      if (const auto problem = driver.problem(); !problem.empty()) throw std::runtime_error(problem);
      run_prefix = "parity-" + std::to_string(::getpid()) + "-" +
                   std::to_string(std::chrono::system_clock::now().time_since_epoch().count() % 1000000);
      connect = std::make_unique<connect_worker>(bootstrap, run_prefix, driver.jar());
      std::printf("[parity] Connect worker answered after %lld ms\n",
                  static_cast<long long>(connect->start_time().count()));
      const std::string config =
          R"({"connector.class":"statusstore.interop.ParitySourceConnector","tasks.max":"2",)"
          R"("parity.topics":"parity-orders,parity-payments","parity.failing.tasks":"1",)"
          R"("topic.creation.default.replication.factor":"1","topic.creation.default.partitions":"1"})";
      connect->create_connector("PUT", source_path + "/config", config, source);
      const std::string paused_body =
          R"({"name":"parity-paused","config":{"connector.class":)"
          R"("statusstore.interop.ParitySourceConnector","tasks.max":"1"},"initial_state":"PAUSED"})";
      connect->create_connector("POST", "/connectors", paused_body, paused);

      // status-store's own writes, which Connect reads: a task Connect never runs and a topic.
      {
        store writer{parse_worker_config({{"bootstrap.servers", bootstrap},
                                          {"status.storage.topic", connect->status_topic()},
                                          {"status.storage.replication.factor", "1"}})};
        writer.put(
            task_status{paused, 7, status_value{status_state::failed, store_trace, "wörker-2:8083", 5, "2.0.0-ü"}});
        writer.put(topic_status{"parity-audit", paused, 7, 1795979753805});
        if (!writer.flush(30s)) throw std::runtime_error("status-store's writes were not acknowledged");
        writer.stop();
      }
      const auto deadline = std::chrono::steady_clock::now() + 60s;
      while (!(connect_shows(source_path + "/status",
                             [](const ordered& s) {
                               return s["connector"]["state"] == "RUNNING" && s["tasks"].size() == 2 &&
                                      s["tasks"][0]["state"] == "RUNNING" && s["tasks"][1]["state"] == "FAILED";
                             }) &&
               connect_shows(source_path + "/topics",
                             [](const ordered& t) { return t.begin()->at("topics").size() == 2; }) &&
               connect_shows("/connectors/parity-paused/status", [](const ordered& s) {
                 return s["connector"]["state"] == "PAUSED" && s["tasks"].size() == 1;
               }))) {
        if (std::chrono::steady_clock::now() > deadline)
          throw std::runtime_error("Connect did not report the expected statuses within 60 s; its log:\n" +
                                   connect->log());
        std::this_thread::sleep_for(250ms);
      }
      service = std::make_unique<status_store_service>(bootstrap, connect->status_topic(),
                                                       std::vector<std::string>{"topic.tracking.allow.reset=true"},
                                                       std::filesystem::path{connect->dir()} / "service.log");
    } catch (const std::exception& e) {
      setup_error = e.what();
    }
  }

  static void TearDownTestSuite() {
    const std::string dir = connect ? connect->dir() : "";
    service.reset();
    connect.reset();
    // The worker's files and the services' logs stay only when something failed, to be read.
    if (!dir.empty() && !::testing::UnitTest::GetInstance()->Failed()) {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  }

  void SetUp() override { ASSERT_EQ(setup_error, ""); }
};

TEST_F(ConnectRestParity, ListConnectorsNamesTheSameConnectors) {
  const auto c = ask_both("GET", "/connectors", [](ordered& names) {
    std::sort(names.begin(), names.end());  // a HashSet's order in Connect
  });
  EXPECT_EQ(c.connect.status, 200);
  EXPECT_EQ(c.store.status, 200);
  EXPECT_EQ(c.store_json, c.connect_json);
  EXPECT_EQ(c.store_json, R"(["parity-paused","parity.src-é"])");
}

TEST_F(ConnectRestParity, ExpandStatusIsConnectsMapWithUnknownType) {
  const auto c = ask_both("GET", "/connectors?expand=status", [](ordered& all) {
    for (auto it = all.begin(); it != all.end(); ++it) unknown_type(it.value()["status"]);
    all = sorted_object(all);  // a HashMap's order in Connect
  });
  EXPECT_EQ(c.connect.status, 200);
  EXPECT_EQ(c.store.status, 200);
  EXPECT_EQ(c.store_json, c.connect_json);
  EXPECT_NE(c.store_json.find("\"trace\":\"org.apache.kafka.connect.errors.ConnectException: parity task 1"),
            std::string::npos);
}

TEST_F(ConnectRestParity, ExpandInfoIsIgnoredAsConnectIgnoresUnknownTypes) {
  // Connect's "info" is each connector's configuration, which a status store does not have:
  // status-store ignores it as Connect ignores a type it does not know. Connect's is checked, then
  // removed; everything else must be equal.
  const auto without_info = [](ordered& all) {
    for (auto it = all.begin(); it != all.end(); ++it) {
      auto& expanded = it.value();
      if (!expanded.contains("info") || !expanded["info"].contains("config") || !expanded["info"].contains("tasks")) {
        all = nullptr;  // not Connect's info: keep asking, then fail on the difference
        return;
      }
      expanded.erase("info");
      if (expanded.contains("status")) unknown_type(expanded["status"]);
    }
    all = sorted_object(all);
  };
  for (const std::string path :
       {"/connectors?expand=info", "/connectors?expand=info&expand=status", "/connectors?expand=status&expand=info"}) {
    const auto c = ask_both("GET", path, without_info);
    EXPECT_EQ(c.connect.status, 200) << path;
    EXPECT_EQ(c.store.status, 200) << path;
    EXPECT_EQ(c.store_json, c.connect_json) << path;
    EXPECT_EQ(c.store.body.find("\"info\""), std::string::npos) << path;
  }
  // Unknown types, and expand with no value: both answer the map with nothing expanded.
  for (const std::string path : {"/connectors?expand=nonsense", "/connectors?expand=", "/connectors?expand"}) {
    const auto c = ask_both("GET", path, [](ordered& all) { all = sorted_object(all); });
    EXPECT_EQ(c.connect.status, 200) << path;
    EXPECT_EQ(c.store.status, 200) << path;
    EXPECT_EQ(c.store_json, c.connect_json) << path;
    EXPECT_EQ(c.store_json, R"({"parity-paused":{},"parity.src-é":{}})") << path;
  }
}

TEST_F(ConnectRestParity, ConnectorStatusIsConnectsWithUnknownType) {
  for (const std::string& path : {source_path + "/status", std::string{"/connectors/parity-paused/status"}}) {
    const auto c = ask_both("GET", path, unknown_type);
    EXPECT_EQ(c.connect.status, 200) << path;
    EXPECT_EQ(c.store.status, 200) << path;
    EXPECT_EQ(c.store_json, c.connect_json) << path;
  }
}

TEST_F(ConnectRestParity, TaskStatusIsTheSameBytesAfterParsing) {
  // Connect's running task, its failed task with the stack trace, and the task status-store wrote.
  for (const std::string& path : {source_path + "/tasks/0/status", source_path + "/tasks/1/status",
                                  std::string{"/connectors/parity-paused/tasks/7/status"}}) {
    const auto c = ask_both("GET", path);
    EXPECT_EQ(c.connect.status, 200) << path;
    EXPECT_EQ(c.store.status, 200) << path;
    EXPECT_EQ(c.store_json, c.connect_json) << path;
  }
  const auto written =
      ordered::parse(rest_call(connect->port(), "GET", "/connectors/parity-paused/tasks/7/status").body);
  EXPECT_EQ(written.value("trace", ""), store_trace);
  EXPECT_EQ(written.value("version", ""), "2.0.0-ü");
}

TEST_F(ConnectRestParity, ActiveTopicsAreTheSame) {
  for (const std::string& path : {source_path + "/topics", std::string{"/connectors/parity-paused/topics"},
                                  std::string{"/connectors/no-such-connector/topics"}}) {
    const auto c = ask_both("GET", path, [](ordered& t) {
      auto& topics = t.begin().value()["topics"];
      std::sort(topics.begin(), topics.end());  // a hash map's order in Connect, not the same from run to run
    });
    EXPECT_EQ(c.connect.status, 200) << path;
    EXPECT_EQ(c.store.status, 200) << path;
    EXPECT_EQ(c.store_json, c.connect_json) << path;
  }
}

TEST_F(ConnectRestParity, RootIsConnectsServerInfoOfTheSameCluster) {
  // The version and commit are each program's own; the fields, their order and the cluster are the same.
  const auto a = rest_call(connect->port(), "GET", "/");
  const auto b = rest_call(service->port, "GET", "/");
  ASSERT_EQ(a.status, 200) << a.body;
  ASSERT_EQ(b.status, 200) << b.body;
  const ordered connect_info = ordered::parse(a.body), store_info = ordered::parse(b.body);
  std::vector<std::string> connect_keys, store_keys;
  for (auto it = connect_info.begin(); it != connect_info.end(); ++it) connect_keys.push_back(it.key());
  for (auto it = store_info.begin(); it != store_info.end(); ++it) store_keys.push_back(it.key());
  EXPECT_EQ(store_keys, connect_keys) << a.body << " vs " << b.body;
  EXPECT_EQ(store_info["kafka_cluster_id"], connect_info["kafka_cluster_id"]) << a.body << " vs " << b.body;
  EXPECT_TRUE(store_info["version"].is_string() && store_info["commit"].is_string()) << b.body;
  std::printf("[parity] GET /: Connect %s, status-store %s\n", a.body.c_str(), b.body.c_str());
}

TEST_F(ConnectRestParity, HealthIsConnectsWorkerStatus) {
  const auto c = ask_both("GET", "/health");
  EXPECT_EQ(c.connect.status, 200);
  EXPECT_EQ(c.store.status, 200);
  EXPECT_EQ(c.store_json, c.connect_json);
  EXPECT_EQ(c.store_json,
            R"({"status":"healthy","message":"Worker has completed startup and is ready to handle requests."})");
}

TEST_F(ConnectRestParity, ErrorBodiesAreConnects) {
  const std::vector<std::pair<std::string, std::string>> requests{
      {"GET", "/connectors/no-such-connector/status"},      // 404 No status found for connector …
      {"GET", source_path + "/tasks/9/status"},             // 404 No status found for task …
      {"GET", "/connectors/parity-paused/tasks/x/status"},  // 404: not an integer, no route
      {"GET", "/no-such-path"},                             // 404 HTTP 404 Not Found
      {"GET", source_path + "/status/extra"},
      {"DELETE", source_path + "/status"},  // 405 HTTP 405 Method Not Allowed
      {"POST", source_path + "/topics/reset"},
      {"PUT", source_path + "/tasks/0/status"},
  };
  for (const auto& [method, path] : requests) {
    const auto c = ask_both(method, path);
    EXPECT_GE(c.connect.status, 400) << method << " " << path;
    EXPECT_EQ(c.store.status, c.connect.status) << method << " " << path;
    EXPECT_EQ(c.store_json, c.connect_json) << method << " " << path;
  }
}

TEST_F(ConnectRestParity, TopicsResetOffIsConnectsForbiddenBody) {
  // Connect's worker here allows the reset (its default), so its 403 is read from its own class:
  // ConnectorsResource's constant, in the ErrorMessage shape the 404s above were compared in.
  java_driver driver;
  const auto jar = std::filesystem::path{driver.jar()}.parent_path() / "lib" / "connect-runtime-4.4.0.jar";
  const std::string command =
      "unzip -p '" + jar.string() + "' org/apache/kafka/connect/runtime/rest/resources/ConnectorsResource.class";
  std::string klass;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[65536];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) klass.append(buffer, n);
    ::pclose(pipe);
  }
  const std::string message = "Topic tracking reset is disabled.";
  ASSERT_NE(klass.find(message), std::string::npos) << "not in " << jar;

  status_store_service refusing{bootstrap,
                                connect->status_topic(),
                                {"topic.tracking.allow.reset=false"},
                                std::filesystem::path{connect->dir()} / "refusing.log"};
  const auto answer = rest_call(refusing.port, "PUT", "/connectors/parity-paused/topics/reset");
  EXPECT_EQ(answer.status, 403);
  EXPECT_EQ(ordered::parse(answer.body).dump(), ordered({{"error_code", 403}, {"message", message}}).dump());
  // It deleted nothing: status-store's topics still equal Connect's.
  const auto c = ask_both("GET", "/connectors/parity-paused/topics");
  EXPECT_EQ(c.store_json, c.connect_json);
  EXPECT_EQ(c.store_json, R"({"parity-paused":{"topics":["parity-audit"]}})");
}

TEST_F(ConnectRestParity, TrackingOffIsConnectsForbiddenBodyForTopicsAndReset) {
  // A second Connect worker (a group of its own, no connectors: the 403 comes before any lookup) and a
  // second status-store run, both with topic.tracking.enable=false and resets off as well, so the
  // message also shows which switch each checks first.
  const std::vector<std::string> settings{"topic.tracking.enable=false", "topic.tracking.allow.reset=false"};
  java_driver driver;
  const auto started = std::chrono::steady_clock::now();
  auto untracked_connect = std::make_unique<connect_worker>(bootstrap, run_prefix + "-untracked", driver.jar(),
                                                            std::chrono::seconds{120}, settings);
  status_store_service untracked_store{bootstrap, connect->status_topic(), settings,
                                       std::filesystem::path{connect->dir()} / "untracked.log"};
  std::printf(
      "[parity] the tracking-off Connect worker and service answered after %lld ms\n",
      static_cast<long long>(
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count()));
  const std::vector<std::pair<std::string, std::string>> requests{
      {"GET", source_path + "/topics"},
      {"GET", "/connectors/no-such-connector/topics"},
      {"PUT", source_path + "/topics/reset"},
      {"PUT", "/connectors/parity-paused/topics/reset"},
  };
  for (const auto& [method, path] : requests) {
    const auto by_connect = rest_call(untracked_connect->port(), method, path);
    const auto by_store = rest_call(untracked_store.port, method, path);
    EXPECT_EQ(by_connect.status, 403) << method << " " << path << ": " << by_connect.body;
    EXPECT_EQ(by_store.status, by_connect.status) << method << " " << path;
    EXPECT_EQ(parse(by_store.body).dump(), parse(by_connect.body).dump()) << method << " " << path;
    EXPECT_EQ(parse(by_store.body).dump(),
              ordered({{"error_code", 403}, {"message", "Topic tracking is disabled."}}).dump())
        << method << " " << path;
  }
  // Neither deleted anything: status-store's topics still equal Connect's.
  const auto c = ask_both("GET", "/connectors/parity-paused/topics");
  EXPECT_EQ(c.store_json, c.connect_json);
  EXPECT_EQ(c.store_json, R"({"parity-paused":{"topics":["parity-audit"]}})");
  // The second worker's files stay only when something failed, as the first one's do.
  const std::string dir = untracked_connect->dir();
  untracked_connect.reset();
  if (!HasFailure()) {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
}

TEST_F(ConnectRestParity, TopicsResetOnIsConnectsAcceptedAndBothSeeTheTombstones) {
  const auto metric = [](const std::string& text, const std::string& name) {
    std::smatch m;
    return std::regex_search(text, m, std::regex{"\n" + name + " ([0-9]+)"}) ? std::stoll(m[1]) : -1LL;
  };
  const long long success_before =
      metric(rest_call(service->port, "GET", "/metrics").body, "status_update_success_total");
  // Each service resets a connector: status-store's tombstone is read by Connect, Connect's by status-store.
  const auto by_store = rest_call(service->port, "PUT", "/connectors/parity-paused/topics/reset");
  const auto by_connect = rest_call(connect->port(), "PUT", source_path + "/topics/reset");
  EXPECT_EQ(by_connect.status, 202);
  EXPECT_EQ(by_store.status, by_connect.status);
  EXPECT_EQ(by_store.body, by_connect.body);
  EXPECT_EQ(by_store.body, "");
  for (const std::string& path : {source_path + "/topics", std::string{"/connectors/parity-paused/topics"}}) {
    const auto c = ask_both("GET", path, [](ordered& t) {
      if (!t.begin()->at("topics").empty()) t = nullptr;  // not yet: keep asking
    });
    EXPECT_EQ(c.store_json, c.connect_json) << path;
    EXPECT_EQ(ordered::parse(c.store.body).begin()->at("topics"), ordered::array()) << path;
  }
  // The reset went through the store: its one tombstone is counted as a success.
  EXPECT_EQ(metric(rest_call(service->port, "GET", "/metrics").body, "status_update_success_total"),
            success_before + 1);
}

}  // namespace
