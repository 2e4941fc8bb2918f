// The REST listener's rows. Those that stand alone are read and validated here (their `apply`), the
// TLS and Basic auth ones by rest_tls_settings.cpp and rest_basic_auth.cpp; what check-config prints
// is each row's `show`. The Java TLS tuning keys are read only under listeners.https.: unprefixed, they
// are the Kafka clients'.
#include "config/rest_setting_defs.hpp"

#include "config/kafka_value_parsing.hpp"
#include "config/rest_settings_parts.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace status_store {

namespace {

using def = setting_def<rest_settings>;
using shown = std::optional<std::string>;
using apply_fn = void (*)(std::string_view key, std::string_view value, rest_settings& settings);
using show_fn = shown (*)(const rest_settings& settings);
using enum setting_type;

constexpr std::string_view connect_unset = "Connect's: not set";
constexpr std::string_view java_default = "Java's default, which Connect keeps";
constexpr std::string_view advertised =
    "accepted, unused: status-store joins no Connect cluster, so it advertises no URL to other workers";
constexpr std::string_view removed = "removed from Connect in 3.0 (KAFKA-12482) and ignored, as there: use `listeners`";
constexpr std::string_view jvm_tuning = "under `listeners.https.`: accepted, unused (Java TLS tuning)";

// ---- how rows are read -------------------------------------------------------------------------------

void apply_listeners(std::string_view key, std::string_view value, rest_settings& s) {
  s.listeners = rest_parts::parse_listeners(key, value, false);
}
void apply_admin_listeners(std::string_view key, std::string_view value, rest_settings& s) {
  s.admin_listeners = rest_parts::parse_listeners(key, value, true);
}
void check_port(std::string_view key, std::string_view value, rest_settings&) { parse_integer<int32_t>(key, value); }
// Checked also without an https listener, as Connect validates it; the TLS parser reads it.
void check_client_auth(std::string_view key, std::string_view value, rest_settings&) {
  rest_parts::parse_client_auth(key, value);
}
void apply_allow_origin(std::string_view, std::string_view value, rest_settings& s) {
  s.allow_origin = std::string{value};
}
void apply_allow_methods(std::string_view, std::string_view value, rest_settings& s) {
  s.allow_methods = std::string{value};
}

// ---- how rows are shown --------------------------------------------------------------------------------

shown nonempty(std::string value) { return value.empty() ? shown{} : shown{std::move(value)}; }

std::string text(const std::string& value) { return value; }

std::string text(const std::vector<std::string>& items) {
  std::string joined;
  for (const auto& item : items) joined += (joined.empty() ? "" : ",") + item;
  return joined;
}

std::string urls(const std::vector<rest_listener>& listeners) {
  std::string joined;
  for (const auto& listener : listeners) joined += (joined.empty() ? "" : ",") + listener.url;
  return joined;
}

shown show_listeners(const rest_settings& s) { return nonempty(urls(s.listeners)); }
shown show_admin_listeners(const rest_settings& s) { return nonempty(urls(s.admin_listeners)); }
shown show_allow_origin(const rest_settings& s) { return s.allow_origin; }
shown show_allow_methods(const rest_settings& s) { return s.allow_methods; }
shown show_extension(const rest_settings& s) { return s.basic_auth ? shown{basic_auth_extension_class} : shown{}; }
shown show_jaas_file(const rest_settings& s) { return s.basic_auth ? shown{s.basic_auth->jaas_file} : shown{}; }

/// A TLS setting as the https listeners use it, when there is one and the setting is not empty.
template <auto field>
shown tls(const rest_settings& s) {
  return s.tls ? nonempty(text((*s.tls).*field)) : shown{};
}

/// The truststore's type only with a truststore: "JKS" alone would suggest one.
shown show_truststore_type(const rest_settings& s) {
  if (!s.tls || (s.tls->truststore_location.empty() && s.tls->truststore_certificates.empty())) return {};
  return s.tls->truststore_type;
}

// ---- the rows ------------------------------------------------------------------------------------------

/// A row: the documented default in markdown ("" = none), then how it is read and shown, if at all.
constexpr def row(std::string_view key, setting_type type, std::string_view default_text, std::string_view valid,
                  std::string_view documentation, std::string_view reason, apply_fn apply = nullptr,
                  show_fn show = nullptr) {
  return {.key = key,
          .type = type,
          .valid_values = valid,
          .documentation = documentation,
          .default_reason = reason,
          .apply = apply,
          .show = show,
          .default_text = default_text};
}

/// A secret row without a default, read by the TLS parser.
constexpr def secret(std::string_view key, setting_type type, std::string_view valid, std::string_view documentation,
                     show_fn show) {
  def d = row(key, type, "", valid, documentation, connect_unset, nullptr, show);
  d.secret = true;
  return d;
}

// clang-format off
constexpr std::array<def, 30> table{{
  row("listeners", list, "not set: `run`'s `--listen` (127.0.0.1:8083)",
      "comma-separated `http://HOST:PORT` / `https://HOST:PORT` (scheme in any case, empty host = every "
      "interface, `[::1]` for IPv6, port 0..65535, 0 = any free port)",
      "the REST listeners",
      "Connect's is `http://:8083`, every interface: a status store listens on loopback unless told otherwise",
      apply_listeners, show_listeners),
  row("admin.listeners", list, "", "as `listeners`, or empty",
      "parsed, not served: status-store has no admin endpoints (Connect's `/admin/loggers`); so are "
      "`admin.listeners.https.*`", connect_unset, apply_admin_listeners, show_admin_listeners),
  row("rest.advertised.host.name", string, "", "", advertised, connect_unset),
  row("rest.advertised.port", int_, "", "an int", advertised, connect_unset, check_port),
  row("rest.advertised.listener", string, "", "", advertised, connect_unset),
  row("rest.host.name", string, "", "", removed, connect_unset),
  row("rest.port", int_, "", "", removed, connect_unset),
  row("ssl.keystore.type", string, "`JKS`", "`JKS`, `PKCS12` or `PEM`, any case",
      "the keystore's type. Under `JKS` (also when not set) the file decides, as Java 9+ reads PKCS12 files "
      "under that type: PKCS12 content is loaded, a real JKS file (magic `0xFEEDFEED`) is refused with the "
      "`keytool -importkeystore … -deststoretype PKCS12` command to convert it",
      java_default, nullptr, tls<&rest_tls_settings::keystore_type>),
  secret("ssl.keystore.location", string, "a PKCS12 or PEM file",
         "the keystore file; required for an https listener unless the PEM pair `ssl.keystore.key`, "
         "`ssl.keystore.certificate.chain` is given", tls<&rest_tls_settings::keystore_location>),
  secret("ssl.keystore.password", password, "", "the keystore's password",
         tls<&rest_tls_settings::keystore_password>),
  secret("ssl.key.password", password, "", "the private key's password", tls<&rest_tls_settings::key_password>),
  secret("ssl.keystore.key", password, "",
         "private key as PEM text, with `ssl.keystore.certificate.chain`, `ssl.keystore.type=PEM` and no location",
         tls<&rest_tls_settings::keystore_key>),
  row("ssl.keystore.certificate.chain", string, "", "PEM text",
      "certificate chain as PEM text, with `ssl.keystore.key` (not secret: certificates are public)", connect_unset,
      nullptr, tls<&rest_tls_settings::keystore_certificate_chain>),
  row("ssl.truststore.type", string, "`JKS`", "as `ssl.keystore.type`",
      "the type of the CA(s) that client certificates are checked against", java_default, nullptr,
      show_truststore_type),
  row("ssl.truststore.location", string, "", "a PKCS12 or PEM file", "the truststore file", connect_unset, nullptr,
      tls<&rest_tls_settings::truststore_location>),
  secret("ssl.truststore.password", password, "", "the truststore's password",
         tls<&rest_tls_settings::truststore_password>),
  row("ssl.truststore.certificates", string, "", "PEM text", "the CA(s) as PEM text, with type PEM",
      connect_unset, nullptr, tls<&rest_tls_settings::truststore_certificates>),
  row("ssl.client.auth", string, "`none`", "`none`, `requested` or `required`, lower case as Connect's validator",
      "whether the listener asks for client certificates; other than `none` needs a truststore. Not given to the "
      "Kafka clients (no client has it)", "Connect's default", check_client_auth,
      tls<&rest_tls_settings::client_auth>),
  row("ssl.enabled.protocols", list, "`TLSv1.2,TLSv1.3`", "`TLSv1.2`, `TLSv1.3`, any case",
      "TLS versions offered; TLSv1 and TLSv1.1 are left out with a warning", java_default, nullptr,
      tls<&rest_tls_settings::enabled_protocols>),
  row("ssl.cipher.suites", list, "TLS library's defaults", "Java/IANA names", "cipher suites, as written",
      "Java's: the TLS library decides", nullptr, tls<&rest_tls_settings::cipher_suites>),
  row("ssl.protocol", string, "", "", jvm_tuning, java_default),
  row("ssl.provider", string, "", "", jvm_tuning, java_default),
  row("ssl.keymanager.algorithm", string, "", "", jvm_tuning, java_default),
  row("ssl.trustmanager.algorithm", string, "", "", jvm_tuning, java_default),
  row("ssl.secure.random.implementation", string, "", "", jvm_tuning, java_default),
  row("rest.extension.classes", list, "",
      "empty or `org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension`",
      "the class enables Basic auth; any other class is refused (status-store cannot load Java classes)",
      "Connect's: none", nullptr, show_extension),
  row("status.rest.jaas.config.file", string, "", "a JAAS file",
      "status-store's own: the JAAS file for Basic auth; wins over `-Djava.security.auth.login.config=FILE` "
      "(or `==FILE`) in `KAFKA_OPTS`, which is where a Connect worker gets it",
      "not set: a Connect worker's `KAFKA_OPTS` names the file", nullptr, show_jaas_file),
  row("access.control.allow.origin", string, "empty: no CORS headers", "origins, `*` = any",
      "origins allowed cross-origin", "Connect's: only the REST API's own origin", apply_allow_origin,
      show_allow_origin),
  row("access.control.allow.methods", string, "empty: `GET,POST,HEAD`", "methods",
      "Access-Control-Allow-Methods; only with an origin", "Connect's: Jetty's CrossOriginFilter default",
      apply_allow_methods, show_allow_methods),
  row("response.http.headers.config", string, "", "", "accepted, not applied", connect_unset),
}};
// clang-format on

}  // namespace

std::span<const setting_def<rest_settings>> rest_setting_defs() { return table; }

}  // namespace status_store
