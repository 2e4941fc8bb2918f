// The REST listener's rows; those that stand alone are read and validated here (`parsed`), the TLS and
// Basic auth ones by rest_tls_settings.cpp and rest_basic_auth.cpp. The Java TLS tuning keys are read
// only under listeners.https.: unprefixed, they are the Kafka clients'.
#include "config/rest_setting_defs.hpp"

#include "config/kafka_value_parsing.hpp"
#include "config/rest_settings_parts.hpp"

#include <array>

namespace status_store {

namespace {

using def = setting_def<rest_settings>;
using enum setting_type;

constexpr std::string_view connect_unset = "Connect's: not set";
constexpr std::string_view java_default = "Java's default, which Connect keeps";
constexpr std::string_view advertised =
    "accepted, unused: status-store joins no Connect cluster, so it advertises no URL to other workers";
constexpr std::string_view removed = "removed from Connect in 3.0 (KAFKA-12482) and ignored, as there: use `listeners`";
constexpr std::string_view jvm_tuning = "under `listeners.https.`: accepted, unused (Java TLS tuning)";

/// A row with a documented default (markdown) and no secret.
constexpr def row(std::string_view key, setting_type type, std::string_view default_text, std::string_view valid,
                  std::string_view documentation, std::string_view reason) {
  return {.key = key,
          .type = type,
          .valid_values = valid,
          .documentation = documentation,
          .default_reason = reason,
          .default_text = default_text};
}

/// `d`, read and validated by `apply`.
constexpr def parsed(def d, void (*apply)(std::string_view, std::string_view, rest_settings&)) {
  d.apply = apply;
  return d;
}

constexpr def secret(std::string_view key, setting_type type, std::string_view documentation) {
  return {.key = key,
          .type = type,
          .valid_values = "",
          .documentation = documentation,
          .default_reason = connect_unset,
          .secret = true};
}

// clang-format off
constexpr std::array<def, 30> table{{
  parsed(row("listeners", list, "not set: `run`'s `--listen` (127.0.0.1:8083)",
             "comma-separated `http://HOST:PORT` / `https://HOST:PORT` (scheme in any case, empty host = every "
             "interface, `[::1]` for IPv6, port 0..65535, 0 = any free port)",
             "the REST listeners",
             "Connect's is `http://:8083`, every interface: a status store listens on loopback unless told "
             "otherwise"),
         [](std::string_view key, std::string_view value, rest_settings& s) {
           s.listeners = rest_parts::parse_listeners(key, value, false);
         }),
  parsed(row("admin.listeners", list, "", "as `listeners`, or empty",
             "parsed, not served: status-store has no admin endpoints (Connect's `/admin/loggers`); so are "
             "`admin.listeners.https.*`", connect_unset),
         [](std::string_view key, std::string_view value, rest_settings& s) {
           s.admin_listeners = rest_parts::parse_listeners(key, value, true);
         }),
  row("rest.advertised.host.name", string, "", "", advertised, connect_unset),
  parsed(row("rest.advertised.port", int_, "", "an int", advertised, connect_unset),
         [](std::string_view key, std::string_view value, rest_settings&) { parse_integer<int32_t>(key, value); }),
  row("rest.advertised.listener", string, "", "", advertised, connect_unset),
  row("rest.host.name", string, "", "", removed, connect_unset),
  row("rest.port", int_, "", "", removed, connect_unset),
  row("ssl.keystore.type", string, "`JKS`", "`JKS`, `PKCS12` or `PEM`, any case",
      "the keystore's type. Under `JKS` (also when not set) the file decides, as Java 9+ reads PKCS12 files "
      "under that type: PKCS12 content is loaded, a real JKS file (magic `0xFEEDFEED`) is refused with the "
      "`keytool -importkeystore … -deststoretype PKCS12` command to convert it", java_default),
  {.key = "ssl.keystore.location", .type = string, .valid_values = "a PKCS12 or PEM file",
   .documentation = "the keystore file; required for an https listener unless the PEM pair "
                    "`ssl.keystore.key`, `ssl.keystore.certificate.chain` is given",
   .default_reason = connect_unset, .secret = true},
  secret("ssl.keystore.password", password, "the keystore's password"),
  secret("ssl.key.password", password, "the private key's password"),
  secret("ssl.keystore.key", password,
         "private key as PEM text, with `ssl.keystore.certificate.chain`, `ssl.keystore.type=PEM` and no location"),
  row("ssl.keystore.certificate.chain", string, "", "PEM text",
      "certificate chain as PEM text, with `ssl.keystore.key` (not secret: certificates are public)", connect_unset),
  row("ssl.truststore.type", string, "`JKS`", "as `ssl.keystore.type`",
      "the type of the CA(s) that client certificates are checked against", java_default),
  row("ssl.truststore.location", string, "", "a PKCS12 or PEM file", "the truststore file", connect_unset),
  secret("ssl.truststore.password", password, "the truststore's password"),
  row("ssl.truststore.certificates", string, "", "PEM text", "the CA(s) as PEM text, with type PEM", connect_unset),
  // Checked here also without an https listener, as Connect validates it; the TLS parser reads it.
  parsed(row("ssl.client.auth", string, "`none`",
             "`none`, `requested` or `required`, lower case as Connect's validator",
             "whether the listener asks for client certificates; other than `none` needs a truststore. Not given "
             "to the Kafka clients (no client has it)", "Connect's default"),
         [](std::string_view key, std::string_view value, rest_settings&) {
           rest_parts::parse_client_auth(key, value);
         }),
  row("ssl.enabled.protocols", list, "`TLSv1.2,TLSv1.3`", "`TLSv1.2`, `TLSv1.3`, any case",
      "TLS versions offered; TLSv1 and TLSv1.1 are left out with a warning", java_default),
  row("ssl.cipher.suites", list, "TLS library's defaults", "Java/IANA names", "cipher suites, as written",
      "Java's: the TLS library decides"),
  row("ssl.protocol", string, "", "", jvm_tuning, java_default),
  row("ssl.provider", string, "", "", jvm_tuning, java_default),
  row("ssl.keymanager.algorithm", string, "", "", jvm_tuning, java_default),
  row("ssl.trustmanager.algorithm", string, "", "", jvm_tuning, java_default),
  row("ssl.secure.random.implementation", string, "", "", jvm_tuning, java_default),
  row("rest.extension.classes", list, "", "empty or `org.apache.kafka.connect.rest.basic.auth.extension."
      "BasicAuthSecurityRestExtension`",
      "the class enables Basic auth; any other class is refused (status-store cannot load Java classes)",
      "Connect's: none"),
  row("status.rest.jaas.config.file", string, "", "a JAAS file",
      "status-store's own: the JAAS file for Basic auth; wins over `-Djava.security.auth.login.config=FILE` "
      "(or `==FILE`) in `KAFKA_OPTS`, which is where a Connect worker gets it",
      "not set: a Connect worker's `KAFKA_OPTS` names the file"),
  parsed(row("access.control.allow.origin", string, "empty: no CORS headers", "origins, `*` = any",
             "origins allowed cross-origin", "Connect's: only the REST API's own origin"),
         [](std::string_view, std::string_view value, rest_settings& s) { s.allow_origin = std::string{value}; }),
  parsed(row("access.control.allow.methods", string, "empty: `GET,POST,HEAD`", "methods",
             "Access-Control-Allow-Methods; only with an origin", "Connect's: Jetty's CrossOriginFilter default"),
         [](std::string_view, std::string_view value, rest_settings& s) { s.allow_methods = std::string{value}; }),
  row("response.http.headers.config", string, "", "", "accepted, not applied", connect_unset),
}};
// clang-format on

}  // namespace

std::span<const setting_def<rest_settings>> rest_setting_defs() { return table; }

}  // namespace status_store
