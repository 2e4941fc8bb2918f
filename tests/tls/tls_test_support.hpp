#pragma once
// What the tls_tests share: the fixture files that tests/app/make_tls_fixtures.sh made (CTest's
// tls.fixtures entry runs it and passes the directory as STATUS_STORE_TLS_FIXTURES), their passwords,
// and the settings of a working HTTPS listener to vary one setting of.
#include "app/rest/tls_context.hpp"
#include "config/config_error.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>

namespace status_store::tls_test {

// As in tests/app/make_tls_fixtures.sh.
inline const std::string store_password = "server-store-secret";
inline const std::string key_password = "server-key-secret";
inline const std::string trust_password = "trust-store-secret";
inline const std::string client_password = "client-store-secret";

inline std::string fixture(const std::string& name) {
  const char* dir = std::getenv("STATUS_STORE_TLS_FIXTURES");
  if (dir == nullptr || *dir == '\0') {
    ADD_FAILURE() << "STATUS_STORE_TLS_FIXTURES is not set: run tests/app/make_tls_fixtures.sh DIR and set it to "
                     "DIR (ctest does both)";
    return "/nonexistent/" + name;
  }
  return std::string{dir} + "/" + name;
}

inline std::string fixture_text(const std::string& name) {
  std::ifstream in(fixture(name), std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A listener with the PKCS12 keystore and no client authentication.
inline rest_tls_settings pkcs12_settings(const std::string& prefix = "") {
  rest_tls_settings settings;
  settings.prefix = prefix;
  settings.keystore_type = "PKCS12";
  settings.keystore_location = fixture("server.p12");
  settings.keystore_password = store_password;
  return settings;
}

/// The error make_server_tls_context throws, if any. Every error is checked for what no message may
/// hold: a password, a private key or certificate's PEM text.
inline std::optional<config_error> error_of(const rest_tls_settings& settings) {
  try {
    make_server_tls_context(settings);
  } catch (const config_error& error) {
    const std::string message = error.what();
    for (const std::string& secret :
         {store_password, key_password, trust_password, client_password, settings.keystore_password,
          settings.key_password, settings.truststore_password}) {
      if (!secret.empty()) {
        EXPECT_EQ(message.find(secret), std::string::npos) << message;
      }
    }
    for (const char* pem : {"server.key", "server-encrypted.key", "client.key", "server.crt", "ca.pem"}) {
      const std::string text = fixture_text(pem);
      const std::string base64 = text.substr(text.find('\n') + 1, 24);  // the start of its first base64 line
      EXPECT_EQ(message.find(base64), std::string::npos) << pem << " is in: " << message;
    }
    return error;
  }
  return std::nullopt;
}

/// Expects make_server_tls_context to throw a config_error about `property` (prefixed) whose message
/// contains every one of `parts`.
inline void expect_refused(const rest_tls_settings& settings, const std::string& property,
                           std::initializer_list<std::string> parts) {
  const auto error = error_of(settings);
  ASSERT_TRUE(error.has_value()) << "accepted; expected an error about " << property;
  EXPECT_EQ(error->property(), settings.prefix + property) << error->what();
  const std::string message = error->what();
  EXPECT_NE(message.find("for configuration " + settings.prefix + property + ":"), std::string::npos) << message;
  for (const std::string& part : parts) EXPECT_NE(message.find(part), std::string::npos) << part << "\n" << message;
}

}  // namespace status_store::tls_test
