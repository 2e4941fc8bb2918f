// GET /health and GET / of `status-store run`'s REST API (app/rest/rest_api.hpp) on the embedded mock
// cluster: Connect's WorkerStatus while starting, healthy, and unhealthy while every broker is down
// (the producer reports _ALL_BROKERS_DOWN once it loses its connections), healthy again after; the
// ServerInfo carries the mock cluster's id.
#include "mock_store.hpp"

#include "actors/event_hub_actor.hpp"
#include "actors/kafka/mock_cluster.hpp"
#include "app/rest/rest_api.hpp"
#include "caf/send.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <thread>

using namespace status_store;
using namespace status_store::integration;
using namespace std::chrono_literals;

namespace {

http_response get(const rest_api& api, const std::string& target) {
  http_request request;
  request.method = "GET";
  request.target = target;
  return api.handle(request);
}

/// Asks /health until its status is `want` or `within` passes; the last answer either way.
http_response health_until(const rest_api& api, const std::string& want, std::chrono::seconds within) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  for (;;) {
    http_response r = get(api, "/health");
    if (nlohmann::json::parse(r.body)["status"] == want || std::chrono::steady_clock::now() > deadline) return r;
    std::this_thread::sleep_for(100ms);
  }
}

}  // namespace

TEST(RestHealth, StartingHealthyUnhealthyWhileBrokersAreDownThenHealthyAgain) {
  const worker_config config = mock_config("it-rest-health");
  const rest_settings settings;
  rest_api api{config, settings, {"9.9.9", "abc"}};

  http_response starting = get(api, "/health");
  EXPECT_EQ(starting.status, 503);
  EXPECT_EQ(nlohmann::json::parse(starting.body)["status"], "starting");
  EXPECT_EQ(get(api, "/connectors").status, 503);
  EXPECT_EQ(get(api, "/healthz").status, 200);

  store s{config};
  const event_hub_actor hub = spawn_event_hub(s.view().home_system(), s.view());  // as `run` does
  api.attach(s, hub);
  const http_response healthy = get(api, "/health");
  EXPECT_EQ(healthy.status, 200);
  EXPECT_EQ(healthy.body,
            R"({"status":"healthy","message":"Worker has completed startup and is ready to handle requests."})");
  const auto info = nlohmann::json::parse(get(api, "/").body);
  EXPECT_EQ(info["version"], "9.9.9");
  EXPECT_EQ(info["commit"], "abc");
  EXPECT_EQ(info["kafka_cluster_id"], s.kafka_cluster_id());
  EXPECT_FALSE(s.kafka_cluster_id().empty());

  // A write keeps the producer's connections busy, so losing every broker is noticed at once.
  s.put(connector_status{"c", {status_state::running, {}, "w1:8083", 1}});
  s.embedded_mock_cluster()->set_broker_down();
  s.put(connector_status{"c", {status_state::paused, {}, "w1:8083", 1}});
  const http_response unhealthy = health_until(api, "unhealthy", 30s);
  EXPECT_EQ(unhealthy.status, 500) << unhealthy.body;
  const auto message = nlohmann::json::parse(unhealthy.body)["message"].get<std::string>();
  EXPECT_TRUE(
      message.starts_with("Worker was unable to handle this request and may be unable to handle other "
                          "requests. No broker of "))
      << message;
  EXPECT_FALSE(s.health().brokers_reachable);

  s.embedded_mock_cluster()->set_broker_up();
  const http_response again = health_until(api, "healthy", 30s);
  EXPECT_EQ(again.status, 200) << again.body;
  EXPECT_TRUE(s.flush(30s));
  api.detach();
  caf::anon_send_exit(hub, caf::exit_reason::user_shutdown);
  EXPECT_EQ(get(api, "/health").status, 503);
  s.stop();
}
