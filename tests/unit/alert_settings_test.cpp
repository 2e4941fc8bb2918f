// status.alert.*: the webhook's URL and headers as the worker's table validates them, and the headers'
// values kept out of every error, warning and check-config line.
#include "config/secret_masking.hpp"
#include "config/webhook_url.hpp"
#include "worker_config_test_support.hpp"

namespace status_store {
namespace {

constexpr const char* url_key = "status.alert.webhook.url";
constexpr const char* headers_key = "status.alert.webhook.headers";

TEST(AlertSettings, OffByDefault) {
  const worker_config c = parse_worker_config(with({}));
  EXPECT_FALSE(c.alert.enabled());
  EXPECT_TRUE(c.alert.webhook_headers.empty());
  EXPECT_EQ(c.alert.webhook_timeout_ms, 10000);
  EXPECT_EQ(c.alert.queue_capacity, 1000);
}

TEST(AlertSettings, TakesHttpAndHttpsUrlsApart) {
  const webhook_url plain = parse_webhook_url(url_key, "http://127.0.0.1:8099/hooks/status?x=1");
  EXPECT_EQ(plain.scheme, "http");
  EXPECT_EQ(plain.host, "127.0.0.1");
  EXPECT_EQ(plain.port, "8099");
  EXPECT_EQ(plain.target, "/hooks/status?x=1");
  EXPECT_EQ(plain.host_header(), "127.0.0.1:8099");
  EXPECT_EQ(plain.origin(), "http://127.0.0.1:8099");  // what logs say: no path, no query

  const webhook_url secure = parse_webhook_url(url_key, "HTTPS://hooks.example.com");
  EXPECT_TRUE(secure.tls());
  EXPECT_EQ(secure.port, "443");
  EXPECT_EQ(secure.target, "/");
  EXPECT_EQ(secure.host_header(), "hooks.example.com");

  const webhook_url v6 = parse_webhook_url(url_key, "http://[::1]:81?token=t");
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.target, "/?token=t");
  EXPECT_EQ(v6.origin(), "http://[::1]:81");

  EXPECT_EQ(parse_worker_config(with({{url_key, " http://h/x "}})).alert.webhook_url, "http://h/x");  // trimmed
}

TEST(AlertSettings, RefusesUrlsItCannotPostTo) {
  for (const auto& [url, rule] : std::vector<std::pair<std::string, std::string>>{
           {"ftp://h/", "Must start with http:// or https://"},
           {"h:80/path", "Must start with http:// or https://"},
           {"http:///path", "Must name a host"},
           {"http://h:0/", "port in [1, 65535]"},
           {"http://h:65536/", "port in [1, 65535]"},
           {"http://h:/", "port in [1, 65535]"},
           {"http://user:pw@h/", "give credentials in status.alert.webhook.headers"},
           {"http://h/a b", "printable ASCII"},
           {"http://h/caf\xc3\xa9", "printable ASCII"},
           {"http://h/#frag", "fragment"},
           {"http://[::1/", "IPv6"},
           {"http://h%41/", "Must name a host of letters"},
       }) {
    const auto error = error_for(with({{url_key, url}}));
    ASSERT_TRUE(error.has_value()) << url;
    EXPECT_EQ(error->property(), url_key);
    EXPECT_NE(error->rule().find(rule), std::string::npos) << url << ": " << error->rule();
  }
}

TEST(AlertSettings, ParsesHeadersAsNameValuePairs) {
  const worker_config c =
      parse_worker_config(with({{headers_key, "Authorization: Bearer xyz , X-Team:ops,X-Empty-Name-Ok: a:b"}}));
  const std::vector<std::pair<std::string, std::string>> expected{
      {"Authorization", "Bearer xyz"}, {"X-Team", "ops"}, {"X-Empty-Name-Ok", "a:b"}};
  EXPECT_EQ(c.alert.webhook_headers, expected);
}

TEST(AlertSettings, RefusesMalformedHeadersWithoutShowingTheirValues) {
  for (const auto& [headers, rule] : std::vector<std::pair<std::string, std::string>>{
           {"Authorization Bearer xyz-secret", "entry 1 has no ':'"},
           {"X-A: 1, : xyz-secret", "entry 2 has no name"},
           {"Bad Name: xyz-secret", "entry 1's name is not an HTTP token"},
           {"Host: xyz-secret", "entry 1 is Host, which the alert sender sets itself"},
           {"content-length: 1", "entry 1 is content-length"},
           {"X-Token:", "entry 1 has an empty value"},
           {std::string{"X-Token: xyz-secret\x01"} + "x", "entry 1's value has a control character"},
       }) {
    const auto error = error_for(with({{headers_key, headers}}));
    ASSERT_TRUE(error.has_value()) << headers;
    EXPECT_EQ(error->property(), headers_key);
    EXPECT_NE(error->rule().find(rule), std::string::npos) << error->rule();
    EXPECT_EQ(std::string{error->what()}.find("xyz-secret"), std::string::npos) << error->what();
    EXPECT_EQ(error->value(), masked_value);
  }
}

TEST(AlertSettings, CheckConfigMasksTheHeadersAndShowsTheRest) {
  const auto effective = effective_config(parse_worker_config(with({{url_key, "https://hooks.example.com/a"},
                                                                    {headers_key, "Authorization: Bearer xyz"},
                                                                    {"status.alert.queue.capacity", "5"},
                                                                    {"status.alert.webhook.timeout.ms", "250"}})));
  const std::map<std::string, std::string> by_key{effective.begin(), effective.end()};
  EXPECT_EQ(by_key.at(headers_key), "[hidden]");
  EXPECT_EQ(by_key.at(url_key), "https://hooks.example.com/a");
  EXPECT_EQ(by_key.at("status.alert.queue.capacity"), "5");
  EXPECT_EQ(by_key.at("status.alert.webhook.timeout.ms"), "250");
  for (const auto& [key, value] : effective) EXPECT_EQ(value.find("xyz"), std::string::npos) << key;
  // Prefixed forms (an override someone writes by mistake) are masked by their name too.
  EXPECT_TRUE(is_secret_property("producer.status.alert.webhook.headers"));
}

TEST(AlertSettings, BoundsTheQueueAndTheTimeout) {
  EXPECT_NE(error_for(with({{"status.alert.queue.capacity", "0"}}))->rule().find("at least 1"), std::string::npos);
  EXPECT_NE(error_for(with({{"status.alert.queue.capacity", "1000001"}}))->rule().find("no more than 1000000"),
            std::string::npos);
  EXPECT_NE(error_for(with({{"status.alert.webhook.timeout.ms", "0"}}))->rule().find("at least 1"), std::string::npos);
}

}  // namespace
}  // namespace status_store
