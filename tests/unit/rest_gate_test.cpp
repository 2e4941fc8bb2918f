// The REST listener's pure rules: Basic auth and CORS before any endpoint (app/rest/request_gate.hpp),
// and which listeners open with which warnings (app/rest/listener_plan.hpp).
#include "app/rest/listener_plan.hpp"
#include "app/rest/request_gate.hpp"
#include "config/config_error.hpp"

#include <gtest/gtest.h>

using namespace status_store;

namespace {

http_request request(std::string method, std::string target,
                     std::vector<std::pair<std::string, std::string>> headers = {}) {
  http_request r;
  r.method = std::move(method);
  r.target = std::move(target);
  r.headers = std::move(headers);
  return r;
}

rest_settings with_basic_auth() {
  rest_settings settings;
  settings.basic_auth = rest_basic_auth{"/etc/jaas.conf", "/etc/users", {{"alice", "s3cret:with:colons"}}};
  return settings;
}

std::string_view header(const http_response& r, std::string_view name) {
  for (const auto& [key, value] : r.headers)
    if (key == name) return value;
  return {};
}

}  // namespace

TEST(RequestGate, WithoutSettingsNothingIsRefusedOrAdded) {
  const rest_settings settings;
  const request_gate gate{settings};
  const auto r = request("GET", "/connectors", {{"Origin", "https://ui.example"}});
  EXPECT_FALSE(gate.refuse(r, false));
  http_response response;
  gate.decorate(r, response);
  EXPECT_TRUE(response.headers.empty());  // no CORS unless access.control.allow.origin says so
}

TEST(RequestGate, BasicAuthRefusesMissingWrongAndMalformedCredentialsWithConnectsBody) {
  const rest_settings settings = with_basic_auth();
  const request_gate gate{settings};
  // alice:s3cret:with:colons, alice:wrong, a scheme other than Basic, and base64 that does not decode.
  for (const std::string authorization :
       {"", "Basic YWxpY2U6d3Jvbmc=", "Bearer YWxpY2U6czNjcmV0OndpdGg6Y29sb25z", "Basic !!!", "Basic YWxpY2U="}) {
    const auto refusal = gate.refuse(request("GET", "/connectors", {{"Authorization", authorization}}), false);
    ASSERT_TRUE(refusal) << authorization;
    EXPECT_EQ(refusal->status, 401);
    EXPECT_EQ(refusal->body, "User cannot access the resource.");
    EXPECT_TRUE(header(*refusal, "WWW-Authenticate").starts_with("Basic realm=")) << authorization;
  }
  EXPECT_FALSE(
      gate.refuse(request("GET", "/connectors", {{"authorization", "Basic YWxpY2U6czNjcmV0OndpdGg6Y29sb25z"}}), false));
}

TEST(RequestGate, ProbesStayOpenUnderBasicAuth) {
  const rest_settings settings = with_basic_auth();
  const request_gate gate{settings};
  EXPECT_FALSE(gate.refuse(request("GET", "/health"), true));
  EXPECT_TRUE(gate.refuse(request("GET", "/"), false));
}

TEST(RequestGate, CorsEchoesAnAllowedOriginAndAnswersItsPreflightBeforeAuth) {
  rest_settings settings = with_basic_auth();
  settings.allow_origin = "https://ui.example, https://*.corp.example";
  const request_gate gate{settings};
  http_response response;
  gate.decorate(request("GET", "/connectors", {{"Origin", "https://a.b.corp.example"}}), response);
  EXPECT_EQ(header(response, "Access-Control-Allow-Origin"), "https://a.b.corp.example");
  EXPECT_EQ(header(response, "Vary"), "Origin");

  http_response other;
  gate.decorate(request("GET", "/connectors", {{"Origin", "https://evil.example"}}), other);
  EXPECT_TRUE(other.headers.empty());

  const auto preflight = gate.refuse(
      request("OPTIONS", "/connectors", {{"Origin", "https://ui.example"}, {"Access-Control-Request-Method", "GET"}}),
      false);
  ASSERT_TRUE(preflight);
  EXPECT_EQ(preflight->status, 204);
  EXPECT_EQ(header(*preflight, "Access-Control-Allow-Methods"), "GET,POST,HEAD");  // Jetty's default
  EXPECT_EQ(header(*preflight, "Access-Control-Allow-Origin"), "https://ui.example");
  // A preflight from an origin that is not allowed is an ordinary request: credentials required.
  const auto refused = gate.refuse(
      request("OPTIONS", "/connectors", {{"Origin", "https://evil.example"}, {"Access-Control-Request-Method", "GET"}}),
      false);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 401);
}

TEST(RequestGate, CorsMethodsFromTheSetting) {
  rest_settings settings;
  settings.allow_origin = "*";
  settings.allow_methods = "GET,PUT";
  const request_gate gate{settings};
  const auto preflight = gate.refuse(
      request("OPTIONS", "/x", {{"Origin", "http://any"}, {"Access-Control-Request-Method", "PUT"}}), false);
  ASSERT_TRUE(preflight);
  EXPECT_EQ(header(*preflight, "Access-Control-Allow-Methods"), "GET,PUT");
}

TEST(ListenerPlan, ListenReplacesListenersAndTheDefaultIsLoopback) {
  rest_settings settings;
  settings.listeners = {{"https", "", 8443, "https://:8443"}, {"http", "10.0.0.1", 8083, "http://10.0.0.1:8083"}};
  const auto from_listen = listeners_to_open("127.0.0.1:0", settings);
  ASSERT_EQ(from_listen.size(), 1u);
  EXPECT_EQ(from_listen[0].scheme, "http");
  EXPECT_EQ(from_listen[0].port, 0);
  EXPECT_EQ(listeners_to_open("", settings).size(), 2u);
  const auto fallback = listeners_to_open("", rest_settings{});
  ASSERT_EQ(fallback.size(), 1u);
  EXPECT_EQ(fallback[0].host, "127.0.0.1");
  EXPECT_EQ(fallback[0].port, 8083);
  EXPECT_EQ(listeners_to_open("[::1]:9000", settings)[0].host, "::1");
  for (const char* bad : {"8083", ":8083", "host:", "host:65536", "host:-1", "host:80x"})
    EXPECT_THROW(listeners_to_open(bad, settings), config_error) << bad;
}

TEST(ListenerPlan, PlainHttpReachableFromOtherHostsIsWarnedAbout) {
  rest_settings settings;
  const std::vector<rest_listener> listeners{{"http", "127.0.0.1", 8083, "http://127.0.0.1:8083"},
                                             {"http", "::1", 8083, "http://[::1]:8083"},
                                             {"https", "", 8443, "https://:8443"},
                                             {"http", "", 8084, "http://:8084"},
                                             {"http", "192.0.2.7", 8085, "http://192.0.2.7:8085"}};
  auto warnings = exposure_warnings(listeners, settings);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("http://:8084 serves plain HTTP to other hosts without authentication"),
            std::string::npos);
  EXPECT_NE(warnings[0].find("trace"), std::string::npos);
  EXPECT_NE(warnings[1].find("http://192.0.2.7:8085"), std::string::npos);
  settings.basic_auth = rest_basic_auth{};
  warnings = exposure_warnings(listeners, settings);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("credentials cross the network unencrypted"), std::string::npos);
  EXPECT_EQ(display_host(""), "0.0.0.0");
  EXPECT_EQ(display_host("::1"), "[::1]");
}
