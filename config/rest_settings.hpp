#pragma once
// The REST listener's settings, read from a Connect worker file with Connect's names and rules:
// listeners, admin.listeners, rest.advertised.*, the HTTPS listener's ssl.* (listeners.https.ssl.*
// replacing the unprefixed ones all or nothing, as Connect's SSLUtils reads them), Basic auth through
// rest.extension.classes and a JAAS file, and CORS. No socket, no TLS library; the JAAS and
// credentials files are read. See docs/configuration.md#rest-listener-connects-settings.
#include "config/properties.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace status_store {

/// One entry of `listeners`: http://HOST:PORT or https://HOST:PORT; an empty host is every interface,
/// as in Connect.
struct rest_listener {
  std::string scheme;  // "http" or "https" (lower case; Connect accepts any case, e.g. HTTP://:8083)
  std::string host;    // as written, brackets of an IPv6 address removed; empty = all interfaces
  int port = 0;        // 0..65535 (0: any free port)
  std::string url;     // as written, for messages
};

/// The HTTPS listeners' TLS settings (Connect's names; `prefix` is "listeners.https." when they came
/// from the prefixed keys, "" otherwise, so errors name the key the operator wrote). Validated: the
/// types are PKCS12 or PEM (JKS is refused, naming the keytool command), the keystore is either a
/// location or ssl.keystore.key + ssl.keystore.certificate.chain (PEM only), likewise the truststore.
struct rest_tls_settings {
  std::string prefix;
  std::string keystore_type = "JKS";  // upper case; JKS (Java's default): the file decides (tls_context)
  std::string keystore_location;
  std::string keystore_password;           // secret
  std::string keystore_key;                // PEM text (ssl.keystore.key), secret
  std::string keystore_certificate_chain;  // PEM text (ssl.keystore.certificate.chain)
  std::string key_password;                // secret
  std::string truststore_type = "JKS";     // upper case; JKS as for the keystore
  std::string truststore_location;
  std::string truststore_password;      // secret
  std::string truststore_certificates;  // PEM text (ssl.truststore.certificates)
  std::string client_auth = "none";     // none | requested | required (exactly these, as Connect's validator)
  /// TLSv1.2 and/or TLSv1.3 (Java's names); TLSv1 and TLSv1.1 are dropped with a note.
  std::vector<std::string> enabled_protocols{"TLSv1.2", "TLSv1.3"};
  std::vector<std::string> cipher_suites;  // as written (Java/IANA names); empty: the TLS library's defaults

  /// The full key as the operator wrote it, e.g. "listeners.https.ssl.keystore.location".
  std::string key(std::string_view name) const { return prefix + std::string{name}; }
};

/// Basic auth as Connect's BasicAuthSecurityRestExtension: the users and passwords of the file that
/// the JAAS file's KafkaConnect entry (PropertyFileLoginModule, option file="...") names. A request
/// without valid credentials gets Connect's 401 with the body basic_auth_failure_message.
struct rest_basic_auth {
  std::string jaas_file;  // where the entry was found
  std::string credentials_file;
  std::map<std::string, std::string> users;  // user -> password (secret); never empty
};

/// The 401 body of Connect's JaasBasicAuthFilter (text, no WWW-Authenticate header).
inline constexpr std::string_view basic_auth_failure_message = "User cannot access the resource.";
/// The rest.extension.classes entry that enables Basic auth.
inline constexpr std::string_view basic_auth_extension_class =
    "org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension";
/// Access-Control-Allow-Methods when access.control.allow.methods is empty: Jetty's CrossOriginFilter
/// default, which Connect keeps.
inline constexpr std::string_view default_cors_allow_methods = "GET,POST,HEAD";

struct rest_settings {
  /// From `listeners`; empty when it is not set (then `status-store run` listens on its own default,
  /// or on --listen). Connect's default, http://:8083, listens on every interface.
  std::vector<rest_listener> listeners;
  std::vector<rest_listener> admin_listeners;  // accepted, not served (status-store has no admin endpoints)
  std::optional<rest_tls_settings> tls;        // set when a listener is https
  std::optional<rest_basic_auth> basic_auth;   // set when rest.extension.classes names the extension
  /// access.control.allow.origin: comma-separated origins (Jetty patterns, `*` = any); empty: no CORS
  /// headers at all (Connect's default: only the REST API's own origin).
  std::string allow_origin;
  /// access.control.allow.methods, used only with an allow_origin; empty: default_cors_allow_methods.
  std::string allow_methods;
  /// Sentences to log once at start-up (unused settings named, admin listeners not served).
  std::vector<std::string> notes;

  bool has_https_listener() const;
};

/// Every key this parser owns (so parse_worker_config neither warns about them nor passes them to a
/// Kafka client): listeners, listeners.*, admin.listeners, admin.listeners.*, rest.*,
/// access.control.*, status.rest.*, response.http.headers.config, and ssl.client.auth (a REST server
/// setting in Connect; no Kafka client has it). The other unprefixed ssl.* keys stay the clients' too.
bool is_rest_setting(std::string_view key);

/// Parses and validates; throws config_error naming the property, its (masked) value and the rule.
/// `kafka_opts` is the KAFKA_OPTS environment variable, where a Connect worker is given
/// -Djava.security.auth.login.config=FILE; the status-store setting status.rest.jaas.config.file names
/// the file instead (and wins). The JAAS and credentials files are read here, once, and only when
/// Basic auth is enabled.
rest_settings parse_rest_settings(const properties& props, std::string_view kafka_opts = {});

/// The FILE of the last -Djava.security.auth.login.config=FILE (or ==FILE) in `kafka_opts`, split into
/// words as a shell would (quotes group and are removed); a file: URL gives its path.
std::optional<std::string> login_config_from_kafka_opts(std::string_view kafka_opts);

/// The settings as check-config prints them: sorted by key, prefixes as written, secrets masked.
std::vector<std::pair<std::string, std::string>> effective_rest_config(const rest_settings& settings);

/// True if `user`/`password` match an entry of `auth`. Every entry is compared, each in constant time,
/// so the time taken says nothing about which user exists or how much of a password matched.
bool basic_auth_accepts(const rest_basic_auth& auth, std::string_view user, std::string_view password);

/// Decodes an Authorization header's value ("Basic base64(user:password)", the scheme in any case) as
/// Connect's JaasBasicAuthFilter does: split at the first ':', the user not empty, the password may be
/// (and may contain ':'). nullopt when malformed (no space, another scheme, bad base64, no ':').
std::optional<std::pair<std::string, std::string>> parse_basic_authorization(std::string_view header_value);

}  // namespace status_store
