// The service's routing (app/http_routes.hpp): Connect's paths, per-segment decoding, and a 4xx
// with a fixed message for anything that is not valid UTF-8 or not a route.
#include "app/http_routes.hpp"

#include <gtest/gtest.h>

using namespace status_store;

TEST(HttpRoutes, RoutesConnectsPaths) {
  EXPECT_EQ(route_http_request("GET", "/connectors").endpoint, http_endpoint::connectors);
  EXPECT_EQ(route_http_request("GET", "/metrics").endpoint, http_endpoint::metrics);
  EXPECT_EQ(route_http_request("HEAD", "/healthz").endpoint, http_endpoint::healthz);
  const auto status = route_http_request("GET", "/connectors/my-src/status");
  EXPECT_EQ(status.endpoint, http_endpoint::connector_status);
  EXPECT_EQ(status.connector, "my-src");
  const auto topics = route_http_request("GET", "/connectors/my-src/topics?ignored=1");
  EXPECT_EQ(topics.endpoint, http_endpoint::connector_topics);
  EXPECT_EQ(topics.connector, "my-src");
}

TEST(HttpRoutes, DecodesEachSegmentOnItsOwn) {
  EXPECT_EQ(route_http_request("GET", "/connectors/a%2Fb/status").connector, "a/b");
  EXPECT_EQ(route_http_request("GET", "/connectors/caf%C3%A9+x/status").connector, "café+x");
  EXPECT_EQ(route_http_request("GET", "/connectors/%E2%82%AC/topics").connector, "\xE2\x82\xAC");
}

TEST(HttpRoutes, InvalidUtf8IsA400WithoutTheBytes) {
  for (const char* target : {"/connectors/%FF%FE/status", "/connectors/%C0%AE/status", "/connectors/%ED%A0%80/status",
                             "/connectors/\xff/status", "/connectors/%F4%90%80%80/topics", "/connectors/%E2%82/status",
                             "/metrics%FF", "/connectors?x=%FF", "/healthz?\xC0\xAE"}) {
    const auto r = route_http_request("GET", target);
    EXPECT_EQ(r.endpoint, http_endpoint::error) << target;
    EXPECT_EQ(r.status, 400) << target;
    EXPECT_TRUE(is_valid_utf8(r.message)) << target;
  }
}

TEST(HttpRoutes, MalformedEscapesAreA400) {
  for (const char* target : {"/connectors/%G0/status", "/connectors/%/status", "/connectors/%F", "/metrics?a=%"})
    EXPECT_EQ(route_http_request("GET", target).status, 400) << target;
}

TEST(HttpRoutes, UnknownPathsAre404AndOtherMethods405) {
  EXPECT_EQ(route_http_request("GET", "/").endpoint, http_endpoint::root);  // Connect's ServerInfo
  EXPECT_EQ(route_http_request("GET", "/health").endpoint, http_endpoint::health);
  EXPECT_EQ(route_http_request("POST", "/health").status, 405);
  EXPECT_EQ(route_http_request("GET", "//").status, 404);
  EXPECT_EQ(route_http_request("GET", "/health/x").status, 404);
  EXPECT_EQ(route_http_request("GET", "/connectors/").status, 404);
  EXPECT_EQ(route_http_request("GET", "/connectors//status").status, 404);
  EXPECT_EQ(route_http_request("GET", "/connectors/a/status/x").status, 404);
  EXPECT_EQ(route_http_request("GET", "/connectors/a/config").status, 404);
  EXPECT_EQ(route_http_request("POST", "/connectors").status, 405);
  EXPECT_EQ(route_http_request("DELETE", "/connectors/a/status").status, 405);
  EXPECT_EQ(route_http_request("GET", "*").status, 400);
  EXPECT_EQ(route_http_request("GET", "").status, 400);
}

TEST(HttpRoutes, Utf8Validation) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("plain ascii"));
  EXPECT_TRUE(is_valid_utf8("\xF0\x9F\x98\x80"));   // U+1F600
  EXPECT_TRUE(is_valid_utf8("\xF4\x8F\xBF\xBF"));   // U+10FFFF
  EXPECT_TRUE(is_valid_utf8("\xEF\xBF\xBD"));       // U+FFFD
  EXPECT_FALSE(is_valid_utf8("\xC0\xAE"));          // overlong '.'
  EXPECT_FALSE(is_valid_utf8("\xE0\x80\xAF"));      // overlong '/'
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));      // a surrogate
  EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\x80"));              // a lone continuation byte
  EXPECT_FALSE(is_valid_utf8("\xE2\x82"));          // truncated
  EXPECT_FALSE(is_valid_utf8("\xFF"));
}

TEST(HttpRoutes, ProbesAreGetOrHeadOfHealthAndHealthz) {
  const std::pair<const char*, const char*> probes[] = {{"GET", "/healthz"},
                                                        {"HEAD", "/healthz"},
                                                        {"GET", "/healthz?verbose"},
                                                        {"GET", "/health"},
                                                        {"HEAD", "/health?x=1"}};
  for (const auto& [method, target] : probes) EXPECT_TRUE(is_probe_request(method, target)) << method << target;
  const std::pair<const char*, const char*> others[] = {
      {"GET", "/healthzz"},   {"GET", "/health/"}, {"POST", "/healthz"},    {"PUT", "/health"},
      {"GET", "/connectors"}, {"GET", "/"},        {"GET", "/healthz?%FF"}, {"", ""}};
  for (const auto& [method, target] : others) EXPECT_FALSE(is_probe_request(method, target)) << method << target;
}

TEST(HttpRoutes, TaskStatusTakesAnIntegerTaskIdAsJaxRsDoes) {
  const auto task = route_http_request("GET", "/connectors/my-src/tasks/12/status");
  EXPECT_EQ(task.endpoint, http_endpoint::task_status);
  EXPECT_EQ(task.connector, "my-src");
  EXPECT_EQ(task.task, 12);
  EXPECT_EQ(route_http_request("GET", "/connectors/my-src/tasks/2147483647/status").task, 2147483647);
  for (const char* target : {"/connectors/my-src/tasks/x/status", "/connectors/my-src/tasks//status",
                             "/connectors/my-src/tasks/-1/status", "/connectors/my-src/tasks/2147483648/status",
                             "/connectors/my-src/tasks/1/state", "/connectors//tasks/1/status"})
    EXPECT_EQ(route_http_request("GET", target).status, 404) << target;
  EXPECT_EQ(route_http_request("DELETE", "/connectors/my-src/tasks/0/status").status, 405);
}

TEST(HttpRoutes, AnyExpandAsksForConnectsMapFormAsInConnect) {
  // ConnectorsResource: the map form whenever the query has "expand", whatever its values.
  EXPECT_FALSE(route_http_request("GET", "/connectors").expand);
  for (const char* target :
       {"/connectors?expand=status", "/connectors?expand=info", "/connectors?expand=info&expand=status",
        "/connectors?expand=nonsense", "/connectors?expand", "/connectors?expand=", "/connectors?a=1&expand=STATUS"}) {
    EXPECT_TRUE(route_http_request("GET", target).expand) << target;
  }
  EXPECT_FALSE(route_http_request("GET", "/connectors?expandstatus").expand);
  EXPECT_FALSE(route_http_request("GET", "/connectors?Expand=status").expand);  // names are case-sensitive
  EXPECT_FALSE(route_http_request("GET", "/connectors?=status").expand);
}

TEST(HttpRoutes, ConnectorsExpandStatusIsReadFromTheQuery) {
  EXPECT_FALSE(route_http_request("GET", "/connectors").expand_status);
  EXPECT_TRUE(route_http_request("GET", "/connectors?expand=status").expand_status);
  EXPECT_TRUE(route_http_request("GET", "/connectors?expand=info&expand=status").expand_status);
  EXPECT_TRUE(route_http_request("GET", "/connectors?expand=%73tatus").expand_status);
  EXPECT_FALSE(route_http_request("GET", "/connectors?expand=info").expand_status);
  EXPECT_FALSE(route_http_request("GET", "/connectors?expand=STATUS").expand_status);  // Connect's switch is exact
  EXPECT_FALSE(route_http_request("GET", "/connectors?expandstatus").expand_status);
  EXPECT_EQ(route_http_request("GET", "/connectors?expand=%FF").status, 400);
}

TEST(HttpRoutes, ConnectorsStateFilterIsOursAnyCaseAndAnUnknownStateIsA400) {
  EXPECT_FALSE(route_http_request("GET", "/connectors?expand=status").state);  // absent: Connect's answer
  const auto failed = route_http_request("GET", "/connectors?expand=status&state=FAILED");
  ASSERT_EQ(failed.endpoint, http_endpoint::connectors);
  EXPECT_TRUE(failed.expand_status);
  EXPECT_EQ(failed.state, status_state::failed);
  EXPECT_EQ(route_http_request("GET", "/connectors?state=running").state, status_state::running);
  EXPECT_EQ(route_http_request("GET", "/connectors?state=Paused&state=stopped").state, status_state::stopped);
  for (const char* target : {"/connectors?state=SLEEPING", "/connectors?state=", "/connectors?state=DESTROYED",
                             "/connectors?expand=status&state"}) {
    const auto route = route_http_request("GET", target);
    EXPECT_EQ(route.status, 400) << target;
    EXPECT_EQ(route.message,
              "Unknown state in the query parameter 'state': must be one of UNASSIGNED, RUNNING, PAUSED, FAILED, "
              "RESTARTING, STOPPED (any case)")
        << target;
  }
  // Only /connectors reads it: elsewhere it is ignored, as any unknown parameter.
  EXPECT_EQ(route_http_request("GET", "/connectors/a/status?state=SLEEPING").endpoint, http_endpoint::connector_status);
}

TEST(HttpRoutes, TopicsResetIsAPutAndNothingElse) {
  const auto reset = route_http_request("PUT", "/connectors/caf%C3%A9.src/topics/reset");
  EXPECT_EQ(reset.endpoint, http_endpoint::reset_connector_topics);
  EXPECT_EQ(reset.connector, "café.src");
  for (const char* method : {"GET", "HEAD", "POST", "DELETE"}) {
    const auto refused = route_http_request(method, "/connectors/my-src/topics/reset");
    EXPECT_EQ(refused.status, 405) << method;
    EXPECT_EQ(refused.message, "HTTP 405 Method Not Allowed") << method;
  }
  // A PUT on the read-only routes is a 405 too, and a reset of no connector matches no route.
  EXPECT_EQ(route_http_request("PUT", "/connectors/my-src/topics").status, 405);
  EXPECT_EQ(route_http_request("PUT", "/connectors/my-src/status").status, 405);
  EXPECT_EQ(route_http_request("PUT", "/connectors//topics/reset").status, 404);
  EXPECT_EQ(route_http_request("PUT", "/connectors/my-src/topics/reset/x").status, 404);
  EXPECT_EQ(route_http_request("PUT", "/connectors/my-src/topics/reset/x").message, "HTTP 404 Not Found");
}

TEST(HttpRoutes, OurHistoryAndFlappingEndpointsLiveUnderTheirOwnPrefix) {
  const auto connector = route_http_request("GET", "/status-store/v1/connectors/caf%C3%A9%2Fx/history");
  EXPECT_EQ(connector.endpoint, http_endpoint::connector_history);
  EXPECT_EQ(connector.connector, "café/x");
  const auto task = route_http_request("HEAD", "/status-store/v1/connectors/my-src/tasks/2147483647/history");
  EXPECT_EQ(task.endpoint, http_endpoint::task_history);
  EXPECT_EQ(task.connector, "my-src");
  EXPECT_EQ(task.task, 2147483647);
  EXPECT_EQ(route_http_request("GET", "/status-store/v1/flapping?x=1").endpoint, http_endpoint::flapping);
  // As Connect's task routes: a task id that is not an Integer matches nothing.
  for (const char* target :
       {"/status-store/v1/connectors/a/tasks/x/history", "/status-store/v1/connectors/a/tasks/-1/history",
        "/status-store/v1/connectors/a/tasks/2147483648/history", "/status-store/v1/connectors//history",
        "/status-store/v1/connectors/a/history/x", "/status-store/v1/flapping/x", "/status-store/v1",
        "/status-store/v1/", "/status-store/v2/flapping", "/status-store/flapping", "/connectors/a/history",
        "/flapping"}) {
    const auto r = route_http_request("GET", target);
    EXPECT_EQ(r.endpoint, http_endpoint::error) << target;
    EXPECT_EQ(r.status, 404) << target;
    EXPECT_EQ(r.message, "HTTP 404 Not Found") << target;
  }
  EXPECT_EQ(route_http_request("POST", "/status-store/v1/flapping").status, 405);
  EXPECT_EQ(route_http_request("DELETE", "/status-store/v1/connectors/a/history").status, 405);
  EXPECT_EQ(route_http_request("GET", "/status-store/v1/connectors/%FF/history").status, 400);
  EXPECT_FALSE(is_probe_request("GET", "/status-store/v1/flapping"));
}

TEST(HttpRoutes, TheStatusPageAndItsFeedsLiveUnderUiAndOurPrefix) {
  EXPECT_EQ(route_http_request("GET", "/ui").endpoint, http_endpoint::ui_page);
  EXPECT_EQ(route_http_request("GET", "/ui/").endpoint, http_endpoint::ui_page);
  EXPECT_EQ(route_http_request("HEAD", "/ui?x=1").endpoint, http_endpoint::ui_page);
  const auto asset = route_http_request("GET", "/ui/app.js");
  EXPECT_EQ(asset.endpoint, http_endpoint::ui_asset);
  EXPECT_EQ(asset.asset, "app.js");
  EXPECT_EQ(route_http_request("GET", "/status-store/v1/events").endpoint, http_endpoint::events);
  EXPECT_EQ(route_http_request("GET", "/status-store/v1/overview").endpoint, http_endpoint::overview);
  EXPECT_EQ(route_http_request("GET", "/status-store/v1/metrics").endpoint, http_endpoint::store_metrics);
  // GET / stays Connect's route; rest_api alone serves the page there, to a client that asks for HTML.
  EXPECT_EQ(route_http_request("GET", "/").endpoint, http_endpoint::root);
  for (const char* target : {"/ui/a/b", "/ui/app.js/x", "/status-store/v1/events/x", "/events", "/overview",
                             "/status-store/v1/overview/x", "/UI"})
    EXPECT_EQ(route_http_request("GET", target).status, 404) << target;
  for (const char* target : {"/ui", "/ui/app.js", "/status-store/v1/events", "/status-store/v1/overview"})
    EXPECT_EQ(route_http_request("POST", target).status, 405) << target;
  EXPECT_EQ(route_http_request("GET", "/ui/%FF").status, 400);
  EXPECT_FALSE(is_probe_request("GET", "/status-store/v1/events"));
  EXPECT_FALSE(is_probe_request("GET", "/ui"));
}
