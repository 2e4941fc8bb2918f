#pragma once
// The REST listener's settings, read from a Connect worker file with Connect's names and rules:
// listeners, admin.listeners, rest.advertised.*, the HTTPS listener's ssl.* (listeners.https.ssl.*
// replacing the unprefixed ones all or nothing, as Connect's SSLUtils reads them), Basic auth through
// rest.extension.classes and a JAAS file, and CORS. Pure: no socket, no TLS library.
// See docs/http-service.md.
#include "config/properties.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace status_store {

/// One entry of `listeners`: http://HOST:PORT or https://HOST:PORT; an empty host is every interface,
/// as in Connect.
struct rest_listener {
  std::string scheme;  // "http" or "https"
  std::string host;    // as written, brackets of an IPv6 address removed; empty = all interfaces
  int port = 0;        // 0..65535 (0: any free port)
  std::string url;     // as written, for messages
};

/// The HTTPS listeners' TLS settings (Connect's names; `prefix` is "listeners.https." when they came
/// from the prefixed keys, "" otherwise, so errors name the key the operator wrote).
struct rest_tls_settings {
  std::string prefix;
  std::string keystore_type = "JKS";  // Java's default; JKS is refused when the context is built
  std::string keystore_location;
  std::string keystore_password;           // secret
  std::string keystore_key;                // PEM text (ssl.keystore.key), secret
  std::string keystore_certificate_chain;  // PEM text (ssl.keystore.certificate.chain)
  std::string key_password;                // secret
  std::string truststore_type = "JKS";
  std::string truststore_location;
  std::string truststore_password;      // secret
  std::string truststore_certificates;  // PEM text (ssl.truststore.certificates)
  std::string client_auth = "none";     // none | requested | required
  std::vector<std::string> enabled_protocols{"TLSv1.2", "TLSv1.3"};
  std::vector<std::string> cipher_suites;  // empty: OpenSSL's defaults
};

/// Basic auth as Connect's BasicAuthSecurityRestExtension: the users and passwords of the file that
/// the JAAS file's KafkaConnect entry (PropertyFileLoginModule, option file="...") names.
struct rest_basic_auth {
  std::string jaas_file;    // where the entry was found
  std::string credentials_file;
  std::map<std::string, std::string> users;  // user -> password (secret)
};

struct rest_settings {
  /// From `listeners`; empty when it is not set (then `status-store run` listens on its own default,
  /// or on --listen).
  std::vector<rest_listener> listeners;
  std::vector<rest_listener> admin_listeners;  // accepted, not served (status-store has no admin endpoints)
  std::optional<rest_tls_settings> tls;        // set when a listener is https
  std::optional<rest_basic_auth> basic_auth;   // set when rest.extension.classes names the extension
  std::string allow_origin;                    // access.control.allow.origin; empty: no CORS headers
  std::string allow_methods;                   // access.control.allow.methods; empty: Connect's GET,POST,PUT,DELETE,OPTIONS,HEAD? see docs
  /// Sentences to log once at start-up (unused settings named, admin listeners not served).
  std::vector<std::string> notes;
};

/// Every key this parser owns (so parse_worker_config neither warns about them nor passes them to a
/// Kafka client): listeners, admin.listeners*, rest.*, listeners.https.*, access.control.*,
/// status.rest.*. The unprefixed ssl.* keys stay the clients' too.
bool is_rest_setting(std::string_view key);

/// Parses and validates; throws config_error naming the property, its (masked) value and the rule.
/// `kafka_opts` is the KAFKA_OPTS environment variable, where a Connect worker is given
/// -Djava.security.auth.login.config=FILE; the status-store setting status.rest.jaas.config.file names
/// the file instead (and wins). The JAAS and credentials files are read here, once.
rest_settings parse_rest_settings(const properties& props, std::string_view kafka_opts = {});

/// True if `user`/`password` match an entry of `auth` (compared in constant time per entry).
bool basic_auth_accepts(const rest_basic_auth& auth, std::string_view user, std::string_view password);

/// Decodes an Authorization header's value ("Basic base64(user:password)"); nullopt when malformed.
std::optional<std::pair<std::string, std::string>> parse_basic_authorization(std::string_view header_value);

}  // namespace status_store
