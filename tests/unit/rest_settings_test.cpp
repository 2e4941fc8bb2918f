// parse_rest_settings: listeners and admin.listeners as Connect parses them, the HTTPS listener's TLS
// settings (listeners.https.* all or nothing), CORS, the notes about unused settings, is_rest_setting
// and effective_rest_config. Basic auth is in rest_basic_auth_test.cpp.
#include "config/rest_settings.hpp"
#include "config/config_error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace status_store {
namespace {

std::optional<config_error> error_for(const properties& props) {
  try {
    parse_rest_settings(props);
  } catch (const config_error& error) {
    return error;
  }
  ADD_FAILURE() << "expected a config_error";
  return std::nullopt;
}

bool has_note_containing(const rest_settings& settings, const std::string& text) {
  return std::any_of(settings.notes.begin(), settings.notes.end(),
                     [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

std::string all_notes(const rest_settings& settings) {
  std::string joined;
  for (const auto& note : settings.notes) joined += note + "\n";
  return joined;
}

const properties https_pkcs12{{"listeners", "https://0.0.0.0:8443"},
                              {"listeners.https.ssl.keystore.type", "PKCS12"},
                              {"listeners.https.ssl.keystore.location", "/etc/kafka/keystore.p12"},
                              {"listeners.https.ssl.keystore.password", "hunter2"}};

properties with(properties base, const properties& extra) {
  for (const auto& [key, value] : extra) base.insert_or_assign(key, value);
  return base;
}

// ---- listeners ------------------------------------------------------------------------------------------

TEST(RestListeners, UnsetMeansNoneAndNoNotes) {
  const rest_settings settings = parse_rest_settings({{"status.storage.topic", "t"}});
  EXPECT_TRUE(settings.listeners.empty());
  EXPECT_FALSE(settings.tls);
  EXPECT_FALSE(settings.basic_auth);
  EXPECT_TRUE(settings.notes.empty()) << all_notes(settings);
}

TEST(RestListeners, SeveralWithIpv6AndEmptyHosts) {
  const rest_settings settings =
      parse_rest_settings({{"listeners", " HTTP://:8083 , http://[::1]:8084,http://::1:8085, http://myhost:0 "}});
  ASSERT_EQ(settings.listeners.size(), 4u);
  EXPECT_EQ(settings.listeners[0].scheme, "http");
  EXPECT_EQ(settings.listeners[0].host, "");
  EXPECT_EQ(settings.listeners[0].port, 8083);
  EXPECT_EQ(settings.listeners[0].url, "HTTP://:8083");
  EXPECT_EQ(settings.listeners[1].host, "::1");
  EXPECT_EQ(settings.listeners[1].port, 8084);
  EXPECT_EQ(settings.listeners[2].host, "::1");  // Connect's pattern takes it unbracketed too
  EXPECT_EQ(settings.listeners[2].port, 8085);
  EXPECT_EQ(settings.listeners[3].host, "myhost");
  EXPECT_EQ(settings.listeners[3].port, 0);
  EXPECT_FALSE(settings.tls);  // no https listener
}

TEST(RestListeners, MalformedOnesNameTheListenerAndTheRule) {
  const std::string format = "Listener doesn't have the right format (protocol://hostname:port)";
  const struct {
    std::string value, shown, rule;
  } cases[] = {
      {"ftp://host:21", "ftp://host:21", "Listener protocol must be either \"http\" or \"https\""},
      {"http://:8083,tcp://:1", "tcp://:1", "Listener protocol must be either \"http\" or \"https\""},
      {"http://host:65536", "http://host:65536", "The port must be from 0 to 65535"},
      {"http://host:-1", "http://host:-1", "The port must be from 0 to 65535"},
      {"http://host", "http://host", format},
      {"http://host:", "http://host:", format},
      {"http://host:80/", "http://host:80/", format},
      {"host:8083", "host:8083", format},
      {"http://[::1:8083", "http://[::1:8083", format},
      {"http://a b:1", "http://a b:1", format},
      {"", "", "At least one URL is expected, ex: http://localhost:8080,https://localhost:8443"},
      {"http://:8083,", "http://:8083,", "Empty URL found when parsing listeners list"},
  };
  for (const auto& c : cases) {
    const auto error = error_for({{"listeners", c.value}});
    ASSERT_TRUE(error) << c.value;
    EXPECT_EQ(error->property(), "listeners") << c.value;
    EXPECT_EQ(error->value(), c.shown) << c.value;
    EXPECT_EQ(error->rule(), c.rule) << c.value;
  }
}

TEST(RestListeners, AdminListenersAreParsedAndNotedAsNotServed) {
  const rest_settings settings = parse_rest_settings({{"listeners", "http://:8083"},
                                                      {"admin.listeners", "http://localhost:8084,https://:8085"},
                                                      {"admin.listeners.https.ssl.keystore.location", "/k.p12"}});
  ASSERT_EQ(settings.admin_listeners.size(), 2u);
  EXPECT_EQ(settings.admin_listeners[1].scheme, "https");
  EXPECT_FALSE(settings.tls);  // admin listeners are not served, so neither is their TLS
  EXPECT_TRUE(has_note_containing(settings,
                                  "admin.listeners, admin.listeners.https.ssl.keystore.location: "
                                  "accepted, not used; status-store serves no admin endpoints"))
      << all_notes(settings);
  EXPECT_TRUE(parse_rest_settings({{"admin.listeners", ""}}).admin_listeners.empty());  // Connect: disabled
  const auto error = error_for({{"admin.listeners", "http://:1,,http://:2"}});
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rule(), "Empty URL found when parsing admin.listeners list");
}

TEST(RestListeners, AdvertisedRemovedAndUnknownKeysAreNoted) {
  const rest_settings settings = parse_rest_settings({{"rest.advertised.host.name", "w1"},
                                                      {"rest.advertised.port", "8083"},
                                                      {"rest.advertised.listener", "https"},
                                                      {"rest.port", "8083"},
                                                      {"rest.host.name", "h"},
                                                      {"rest.frobnicate", "x"},
                                                      {"status.rest.nothing", "x"},
                                                      {"response.http.headers.config", "add X-A: b"}});
  EXPECT_TRUE(has_note_containing(
      settings, "rest.advertised.host.name, rest.advertised.listener, rest.advertised.port: not used;"));
  EXPECT_TRUE(has_note_containing(settings, "rest.port was removed from Kafka Connect in 3.0 (KAFKA-12482)"));
  EXPECT_TRUE(has_note_containing(settings, "rest.host.name was removed from Kafka Connect in 3.0"));
  EXPECT_TRUE(has_note_containing(settings, "Unknown configuration 'rest.frobnicate' was supplied"));
  EXPECT_TRUE(has_note_containing(settings, "Unknown configuration 'status.rest.nothing' was supplied"));
  EXPECT_TRUE(has_note_containing(settings, "response.http.headers.config is not applied"));
  const auto error = error_for({{"rest.advertised.port", "eighty"}});
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "rest.advertised.port");
}

// ---- TLS: which keys -----------------------------------------------------------------------------------------

TEST(RestTls, UnprefixedSslKeysWhenNoListenersHttpsKeyExists) {
  const rest_settings settings = parse_rest_settings({{"listeners", "https://:8443"},
                                                      {"ssl.keystore.type", "pkcs12"},
                                                      {"ssl.keystore.location", "/k.p12"},
                                                      {"ssl.client.auth", "required"},
                                                      {"ssl.truststore.type", "PEM"},
                                                      {"ssl.truststore.location", "/ca.pem"}});
  ASSERT_TRUE(settings.tls);
  EXPECT_EQ(settings.tls->prefix, "");
  EXPECT_EQ(settings.tls->keystore_type, "PKCS12");
  EXPECT_EQ(settings.tls->keystore_location, "/k.p12");
  EXPECT_EQ(settings.tls->client_auth, "required");
  EXPECT_EQ(settings.tls->truststore_location, "/ca.pem");
  EXPECT_EQ(settings.tls->enabled_protocols, (std::vector<std::string>{"TLSv1.2", "TLSv1.3"}));
}

TEST(RestTls, AnyListenersHttpsKeyTakesEverySettingFromThePrefixedKeys) {
  // All or nothing: listeners.https.ssl.client.auth alone switches over, and the unprefixed keystore is
  // then not used, so the listener has none.
  const properties props{{"listeners", "https://:8443"},
                         {"ssl.keystore.type", "PKCS12"},
                         {"ssl.keystore.location", "/k.p12"},
                         {"listeners.https.ssl.client.auth", "none"}};
  const auto error = error_for(props);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "listeners.https.ssl.keystore.location");
  EXPECT_NE(std::string{error->what()}.find("An https listener needs a keystore: set "
                                            "listeners.https.ssl.keystore.location"),
            std::string::npos)
      << error->what();

  const rest_settings settings = parse_rest_settings(with(https_pkcs12, {{"ssl.keystore.location", "/other.p12"},
                                                                         {"ssl.cipher.suites", "A"},
                                                                         {"listeners.https.ssl.protocol", "TLSv1.3"},
                                                                         {"listeners.https.frob", "x"}}));
  ASSERT_TRUE(settings.tls);
  EXPECT_EQ(settings.tls->prefix, "listeners.https.");
  EXPECT_EQ(settings.tls->keystore_location, "/etc/kafka/keystore.p12");
  EXPECT_EQ(settings.tls->keystore_password, "hunter2");
  EXPECT_TRUE(settings.tls->cipher_suites.empty());
  // Named when its prefixed counterpart is missing: that is where all or nothing surprises.
  const std::string unused = "ssl.cipher.suites: not used for the HTTPS listener, since listeners.https.* settings";
  EXPECT_TRUE(std::any_of(settings.notes.begin(), settings.notes.end(), [&](const std::string& note) {
    return note.starts_with(unused);
  })) << all_notes(settings);
  EXPECT_TRUE(has_note_containing(settings, "listeners.https.ssl.protocol: not used;"));
  EXPECT_TRUE(has_note_containing(settings, "Unknown configuration 'listeners.https.frob'"));
}

TEST(RestTls, NoHttpsListenerMeansNoTlsAndANote) {
  const rest_settings settings = parse_rest_settings(with(https_pkcs12, {{"listeners", "http://:8083"}}));
  EXPECT_FALSE(settings.tls);
  EXPECT_TRUE(has_note_containing(settings,
                                  "listeners.https.ssl.keystore.location, "
                                  "listeners.https.ssl.keystore.password, listeners.https.ssl.keystore.type: "
                                  "not used, since no listener in listeners is https"))
      << all_notes(settings);
  // The unprefixed ssl.* are the Kafka clients' as well: no note about them.
  EXPECT_TRUE(parse_rest_settings({{"listeners", "http://:8083"}, {"ssl.keystore.location", "/k.p12"}}).notes.empty());
}

// ---- TLS: keystores and truststores -------------------------------------------------------------------

TEST(RestTls, JksTypeIsKeptForTheFileToDecide) {
  // Java 9+ reads a PKCS12 file under type JKS (Java's default type): such a Connect file must work, so
  // the type is kept and the TLS context reads the file (a real JKS file is refused there, with the
  // keytool line: tests/tls).
  auto settings = parse_rest_settings(with(https_pkcs12, {{"listeners.https.ssl.keystore.type", "jks"}}));
  ASSERT_TRUE(settings.tls);
  EXPECT_EQ(settings.tls->keystore_type, "JKS");
  properties defaulted = https_pkcs12;
  defaulted.erase("listeners.https.ssl.keystore.type");
  settings = parse_rest_settings(defaulted);
  ASSERT_TRUE(settings.tls);
  EXPECT_EQ(settings.tls->keystore_type, "JKS");
  settings = parse_rest_settings(with(https_pkcs12, {{"listeners.https.ssl.truststore.location", "/t.jks"}}));
  EXPECT_EQ(settings.tls->truststore_type, "JKS");
  const auto error = error_for(with(https_pkcs12, {{"listeners.https.ssl.keystore.type", "JCEKS"}}));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "listeners.https.ssl.keystore.type");
}

TEST(RestTls, HttpsWithoutAKeystoreNamesTheKeystoreKey) {
  const auto error = error_for({{"listeners", "http://:8083,https://:8443"}});
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "ssl.keystore.location");
  EXPECT_EQ(std::string{error->what()},
            "An https listener needs a keystore: set ssl.keystore.location (a PKCS12 or PEM file, with "
            "ssl.keystore.type) or ssl.keystore.key and ssl.keystore.certificate.chain (PEM text, with "
            "ssl.keystore.type=PEM)");
}

TEST(RestTls, PemKeyAndChainFollowKafkasRules) {
  const properties pem{{"listeners", "https://:8443"},
                       {"listeners.https.ssl.keystore.type", "PEM"},
                       {"listeners.https.ssl.keystore.key", "-----BEGIN PRIVATE KEY-----"},
                       {"listeners.https.ssl.keystore.certificate.chain", "-----BEGIN CERTIFICATE-----"}};
  const rest_settings settings = parse_rest_settings(pem);
  ASSERT_TRUE(settings.tls);
  EXPECT_EQ(settings.tls->keystore_type, "PEM");
  EXPECT_EQ(settings.tls->keystore_key, "-----BEGIN PRIVATE KEY-----");
  const struct {
    properties extra;
    std::string property, rule_start;
  } cases[] = {
      {{{"listeners.https.ssl.keystore.type", "PKCS12"}},
       "listeners.https.ssl.keystore.key",
       "SSL private key can be specified only for PEM, but key store type is PKCS12"},
      {{{"listeners.https.ssl.keystore.location", "/k.pem"}},
       "listeners.https.ssl.keystore.key",
       "Both SSL key store location and separate private key specified"},
      {{{"listeners.https.ssl.keystore.certificate.chain", ""}},
       "listeners.https.ssl.keystore.key",
       "Set listeners.https.ssl.keystore.certificate.chain"},
      {{{"listeners.https.ssl.keystore.type", "BKS"}},
       "listeners.https.ssl.keystore.type",
       "The keystore type must be PKCS12 or PEM"},
      {{{"listeners.https.ssl.truststore.certificates", "-----BEGIN CERTIFICATE-----"}},
       "listeners.https.ssl.truststore.certificates",
       "SSL trust store certs can be specified only for PEM, but trust store type is JKS"},
  };
  for (const auto& c : cases) {
    const auto error = error_for(with(pem, c.extra));
    ASSERT_TRUE(error) << c.rule_start;
    EXPECT_EQ(error->property(), c.property) << c.rule_start;
    EXPECT_TRUE(error->rule().starts_with(c.rule_start)) << error->rule();
    EXPECT_EQ(std::string{error->what()}.find("BEGIN PRIVATE KEY"), std::string::npos) << error->what();
  }
}

TEST(RestTls, ClientAuthIsOneOfConnectsThreeLowerCaseValues) {
  const properties trusted = with(https_pkcs12, {{"listeners.https.ssl.truststore.type", "PKCS12"},
                                                 {"listeners.https.ssl.truststore.location", "/t.p12"}});
  for (const char* value : {"required", "requested", "none"}) {
    const auto settings = parse_rest_settings(with(trusted, {{"listeners.https.ssl.client.auth", value}}));
    EXPECT_EQ(settings.tls->client_auth, value);
  }
  for (const char* value : {"REQUIRED", "Requested", "need", ""}) {
    const auto error = error_for(with(trusted, {{"listeners.https.ssl.client.auth", value}}));
    ASSERT_TRUE(error) << value;
    EXPECT_EQ(error->property(), "listeners.https.ssl.client.auth");
    EXPECT_EQ(error->rule(), "String must be one of: required, requested, none");
  }
  // The unprefixed one is validated even without an https listener, as RestServerConfig does.
  EXPECT_TRUE(error_for({{"ssl.client.auth", "yes"}}));
  const auto error = error_for(with(https_pkcs12, {{"listeners.https.ssl.client.auth", "required"}}));
  ASSERT_TRUE(error);
  EXPECT_TRUE(error->rule().starts_with("Client certificates need a truststore")) << error->rule();
  EXPECT_TRUE(has_note_containing(parse_rest_settings(trusted), "truststore is not used"));
}

TEST(RestTls, EnabledProtocolsAndCipherSuites) {
  auto settings = parse_rest_settings(with(https_pkcs12, {{"listeners.https.ssl.enabled.protocols", "tlsv1.3"},
                                                          {"listeners.https.ssl.cipher.suites", "A, B,"}}));
  EXPECT_EQ(settings.tls->enabled_protocols, (std::vector<std::string>{"TLSv1.3"}));
  EXPECT_EQ(settings.tls->cipher_suites, (std::vector<std::string>{"A", "B"}));
  settings = parse_rest_settings(with(https_pkcs12, {{"listeners.https.ssl.enabled.protocols", "TLSv1.2,TLSv1.1"}}));
  EXPECT_EQ(settings.tls->enabled_protocols, (std::vector<std::string>{"TLSv1.2"}));
  EXPECT_TRUE(has_note_containing(settings, "TLSv1.1 left out"));
  EXPECT_EQ(parse_rest_settings(with(https_pkcs12, {{"listeners.https.ssl.enabled.protocols", ""}}))
                .tls->enabled_protocols.size(),
            2u);
  for (const char* value : {"TLSv1", "SSLv3,TLSv1.2"}) {
    const auto error = error_for(with(https_pkcs12, {{"listeners.https.ssl.enabled.protocols", value}}));
    ASSERT_TRUE(error) << value;
    EXPECT_EQ(error->property(), "listeners.https.ssl.enabled.protocols");
  }
}

// ---- CORS, ownership, printing ----------------------------------------------------------------------------

TEST(RestCors, ConnectsDefaultsAndMeaning) {
  auto settings = parse_rest_settings({});
  EXPECT_EQ(settings.allow_origin, "");
  EXPECT_EQ(settings.allow_methods, "");
  EXPECT_EQ(default_cors_allow_methods, "GET,POST,HEAD");
  settings = parse_rest_settings({{"access.control.allow.origin", " * "}, {"access.control.allow.methods", "GET"}});
  EXPECT_EQ(settings.allow_origin, "*");
  EXPECT_EQ(settings.allow_methods, "GET");
  EXPECT_TRUE(settings.notes.empty()) << all_notes(settings);
  settings = parse_rest_settings({{"access.control.allow.methods", "GET"}});
  EXPECT_TRUE(has_note_containing(settings, "access.control.allow.methods is not used without"));
}

TEST(RestSettingOwnership, TheParserOwnsItsKeysAndNotTheClientsSsl) {
  for (const char* key :
       {"listeners", "listeners.https.ssl.keystore.location", "listeners.x", "admin.listeners",
        "admin.listeners.https.ssl.key.password", "rest.port", "rest.extension.classes", "access.control.allow.origin",
        "status.rest.jaas.config.file", "response.http.headers.config", "ssl.client.auth"}) {
    EXPECT_TRUE(is_rest_setting(key)) << key;
  }
  for (const char* key :
       {"ssl.keystore.location", "ssl.truststore.location", "ssl.enabled.protocols", "admin.request.timeout.ms",
        "admin.listener", "status.storage.topic", "listener", "restart.policy", "producer.listeners"}) {
    EXPECT_FALSE(is_rest_setting(key)) << key;
  }
}

TEST(RestEffectiveConfig, SortedWithPrefixesAndSecretsMasked) {
  const auto rows = effective_rest_config(parse_rest_settings(
      with(https_pkcs12, {{"listeners", "https://0.0.0.0:8443,http://:8083"}, {"access.control.allow.origin", "*"}})));
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  const auto value_of = [&rows](const std::string& key) -> std::string {
    for (const auto& [name, value] : rows) {
      if (name == key) return value;
    }
    return "<absent>";
  };
  EXPECT_EQ(value_of("listeners"), "https://0.0.0.0:8443,http://:8083");
  EXPECT_EQ(value_of("listeners.https.ssl.keystore.type"), "PKCS12");
  EXPECT_EQ(value_of("listeners.https.ssl.keystore.password"), "[hidden]");
  EXPECT_EQ(value_of("listeners.https.ssl.client.auth"), "none");
  EXPECT_EQ(value_of("listeners.https.ssl.enabled.protocols"), "TLSv1.2,TLSv1.3");
  EXPECT_EQ(value_of("access.control.allow.origin"), "*");
  EXPECT_EQ(value_of("access.control.allow.methods"), "");
  for (const auto& [key, value] : rows) EXPECT_EQ(value.find("hunter2"), std::string::npos) << key;
}

TEST(RestEffectiveConfig, EveryRowShownFromTheTableAsBefore) {
  // Unprefixed ssl.* keys are shown unprefixed; no truststore type without a truststore; PEM text shown.
  const auto rows = effective_rest_config(parse_rest_settings({{"listeners", "https://:8443"},
                                                               {"admin.listeners", "http://:8084"},
                                                               {"ssl.keystore.type", "pem"},
                                                               {"ssl.keystore.key", "KEY"},
                                                               {"ssl.keystore.certificate.chain", "CHAIN"},
                                                               {"ssl.cipher.suites", "A, B"}}));
  const std::vector<std::pair<std::string, std::string>> expected{{"access.control.allow.methods", ""},
                                                                  {"access.control.allow.origin", ""},
                                                                  {"admin.listeners", "http://:8084"},
                                                                  {"listeners", "https://:8443"},
                                                                  {"ssl.cipher.suites", "A,B"},
                                                                  {"ssl.client.auth", "none"},
                                                                  {"ssl.enabled.protocols", "TLSv1.2,TLSv1.3"},
                                                                  {"ssl.keystore.certificate.chain", "CHAIN"},
                                                                  {"ssl.keystore.key", "[hidden]"},
                                                                  {"ssl.keystore.type", "PEM"}};
  EXPECT_EQ(rows, expected);
}

}  // namespace
}  // namespace status_store
