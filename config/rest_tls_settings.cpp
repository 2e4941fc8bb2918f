// The HTTPS listeners' TLS settings as Connect's SSLUtils.createServerSideSslContextFactory reads them:
// config.valuesWithPrefixAllOrNothing("listeners.https."), i.e. every setting from the prefixed keys
// as soon as one key has the prefix, else every setting from the unprefixed ssl.* keys; Java's
// defaults (JKS stores, TLSv1.2,TLSv1.3, client auth none). The key and certificate PEM settings and the
// PEM rules are those of Kafka's DefaultSslEngineFactory, with its wording.
#include "config/ascii.hpp"
#include "config/config_error.hpp"
#include "config/kafka_value_parsing.hpp"
#include "config/rest_settings_parts.hpp"

#include <array>
#include <string>

namespace status_store::rest_parts {

namespace {

constexpr std::string_view https_prefix = "listeners.https.";

// What the listener uses, without a prefix.
constexpr std::array<std::string_view, 13> used_names{"ssl.keystore.type",
                                                      "ssl.keystore.location",
                                                      "ssl.keystore.password",
                                                      "ssl.keystore.key",
                                                      "ssl.keystore.certificate.chain",
                                                      "ssl.key.password",
                                                      "ssl.truststore.type",
                                                      "ssl.truststore.location",
                                                      "ssl.truststore.password",
                                                      "ssl.truststore.certificates",
                                                      "ssl.client.auth",
                                                      "ssl.enabled.protocols",
                                                      "ssl.cipher.suites"};
// Connect reads these too, for the JVM's TLS stack; status-store's listener has no counterpart.
constexpr std::array<std::string_view, 7> jvm_only_names{"ssl.protocol",
                                                         "ssl.provider",
                                                         "ssl.keymanager.algorithm",
                                                         "ssl.trustmanager.algorithm",
                                                         "ssl.secure.random.implementation",
                                                         "ssl.endpoint.identification.algorithm",
                                                         "ssl.engine.factory.class"};

bool is_one_of(std::string_view name, const auto& names) {
  for (const std::string_view n : names) {
    if (name == n) return true;
  }
  return false;
}

class tls_parser {
 public:
  tls_parser(const properties& props, std::vector<std::string>& notes) : props_{props}, notes_{notes} {
    for (const auto& [key, value] : props_) {
      if (key.starts_with(https_prefix)) tls_.prefix = std::string{https_prefix};
    }
  }

  rest_tls_settings parse() {
    note_unused_keys();
    parse_keystore();
    if (const auto value = get("ssl.client.auth")) tls_.client_auth = parse_client_auth(key("ssl.client.auth"), *value);
    parse_truststore();
    parse_protocols();
    if (const auto value = get("ssl.cipher.suites")) {
      for (auto& suite : parse_list(*value)) {
        if (!suite.empty()) tls_.cipher_suites.push_back(std::move(suite));
      }
    }
    return std::move(tls_);
  }

 private:
  std::string key(std::string_view name) const { return tls_.key(name); }
  std::optional<std::string_view> get(std::string_view name) const { return value_of(props_, key(name)); }

  void note_unused_keys() {
    std::vector<std::string> jvm_only, unknown, unprefixed;
    for (const auto& [full_key, value] : props_) {
      if (!tls_.prefix.empty() && full_key.starts_with(https_prefix)) {
        const std::string_view name = std::string_view{full_key}.substr(https_prefix.size());
        if (is_one_of(name, jvm_only_names)) jvm_only.push_back(full_key);
        if (!is_one_of(name, jvm_only_names) && !is_one_of(name, used_names)) unknown.push_back(full_key);
      } else if (!tls_.prefix.empty() && is_one_of(full_key, used_names)) {
        if (!props_.contains(key(full_key))) unprefixed.push_back(full_key);
      }
    }
    if (!jvm_only.empty()) {
      notes_.push_back(rest_parts::join_list(jvm_only) +
                       ": not used; status-store's HTTPS listener has no counterpart of these Java " + "TLS settings");
    }
    for (const auto& name : unknown) {
      notes_.push_back("Unknown configuration '" + name + "' was supplied but isn't a known config.");
    }
    if (!unprefixed.empty()) {
      notes_.push_back(rest_parts::join_list(unprefixed) +
                       ": not used for the HTTPS listener, since listeners.https.* settings are given and Connect "
                       "then takes every listener TLS setting from them (all or nothing); set listeners.https." +
                       "<name> instead, or remove every listeners.https.* key");
    }
  }

  /// JKS, PKCS12 or PEM, upper case. JKS (also Java's default when no type is given) is kept: Java 9+
  /// reads a PKCS12 file under type JKS, so the file decides (app/rest/tls_context.hpp loads PKCS12
  /// content and refuses a real JKS file with the keytool line that converts it).
  std::string store_type(std::string_view store) const {
    const std::string type_key = key("ssl." + std::string{store} + ".type");
    const std::optional<std::string_view> given = get("ssl." + std::string{store} + ".type");
    const std::string type = given ? ascii_uppercase(*given) : "JKS";
    if (type != "JKS" && type != "PKCS12" && type != "PEM") {
      throw invalid(type_key, *given, "The " + std::string{store} + " type must be PKCS12 or PEM");
    }
    return type;
  }

  void parse_keystore() {
    tls_.keystore_location = std::string{get("ssl.keystore.location").value_or("")};
    tls_.keystore_password = std::string{get("ssl.keystore.password").value_or("")};
    tls_.keystore_key = std::string{get("ssl.keystore.key").value_or("")};
    tls_.keystore_certificate_chain = std::string{get("ssl.keystore.certificate.chain").value_or("")};
    tls_.key_password = std::string{get("ssl.key.password").value_or("")};
    tls_.keystore_type = store_type("keystore");
    const bool pem_parts = !tls_.keystore_key.empty() || !tls_.keystore_certificate_chain.empty();
    if (pem_parts) {
      require_pem_parts();
    } else if (tls_.keystore_location.empty()) {
      throw config_error::with_message(key("ssl.keystore.location"), "",
                                       "An https listener needs a keystore: set " + key("ssl.keystore.location") +
                                           " (a PKCS12 or PEM file, with " + key("ssl.keystore.type") + ") or " +
                                           key("ssl.keystore.key") + " and " + key("ssl.keystore.certificate.chain") +
                                           " (PEM text, with " + key("ssl.keystore.type") + "=PEM)");
    }
  }

  /// ssl.keystore.key and ssl.keystore.certificate.chain: together, PEM only, without a location.
  void require_pem_parts() const {
    const std::string key_key = key("ssl.keystore.key");
    const std::string chain_key = key("ssl.keystore.certificate.chain");
    if (tls_.keystore_key.empty()) {
      throw invalid(chain_key, tls_.keystore_certificate_chain, "Set " + key_key + " (the private key) with it");
    }
    if (tls_.keystore_certificate_chain.empty()) {
      throw invalid(key_key, tls_.keystore_key, "Set " + chain_key + " (the certificate chain) with it");
    }
    if (tls_.keystore_type != "PEM") {
      throw invalid(key_key, tls_.keystore_key,
                    "SSL private key can be specified only for PEM, but key store type is " + tls_.keystore_type +
                        "; set " + key("ssl.keystore.type") + "=PEM");
    }
    if (!tls_.keystore_location.empty()) {
      throw invalid(key_key, tls_.keystore_key, "Both SSL key store location and separate private key specified");
    }
  }

  void parse_truststore() {
    tls_.truststore_location = std::string{get("ssl.truststore.location").value_or("")};
    tls_.truststore_password = std::string{get("ssl.truststore.password").value_or("")};
    tls_.truststore_certificates = std::string{get("ssl.truststore.certificates").value_or("")};
    tls_.truststore_type = store_type("truststore");
    const std::string certificates_key = key("ssl.truststore.certificates");
    if (!tls_.truststore_certificates.empty() && tls_.truststore_type != "PEM") {
      throw invalid(certificates_key, tls_.truststore_certificates,
                    "SSL trust store certs can be specified only for PEM, but trust store type is " +
                        tls_.truststore_type + "; set " + key("ssl.truststore.type") + "=PEM");
    }
    if (!tls_.truststore_certificates.empty() && !tls_.truststore_location.empty()) {
      throw invalid(certificates_key, tls_.truststore_certificates,
                    "Both SSL trust store location and separate trust certificates specified");
    }
    const bool has_truststore = !tls_.truststore_location.empty() || !tls_.truststore_certificates.empty();
    if (!has_truststore && tls_.client_auth != "none") {
      throw invalid(key("ssl.client.auth"), tls_.client_auth,
                    "Client certificates need a truststore to be verified against: set " +
                        key("ssl.truststore.location") + " (PKCS12 or PEM) or " + certificates_key);
    }
    if (has_truststore && tls_.client_auth == "none") {
      notes_.push_back("The HTTPS listener's truststore is not used: " + key("ssl.client.auth") +
                       " is none, so no client certificate is asked for");
    }
  }

  void parse_protocols() {
    const std::optional<std::string_view> value = get("ssl.enabled.protocols");
    if (!value || parse_list(*value).empty()) return;  // empty: the defaults, as Jetty then takes the JVM's
    const std::string protocols_key = key("ssl.enabled.protocols");
    std::vector<std::string> enabled, dropped;
    for (const std::string& item : parse_list(*value)) {
      const std::string lower = ascii_lowercase(item);
      if (lower == "tlsv1.2" || lower == "tlsv1.3") {
        enabled.push_back(lower == "tlsv1.2" ? "TLSv1.2" : "TLSv1.3");
      } else if (lower == "tlsv1" || lower == "tlsv1.1") {
        dropped.push_back(item);
      } else if (!item.empty()) {
        throw invalid(protocols_key, *value, "Each protocol must be TLSv1.2 or TLSv1.3, not " + item);
      }
    }
    if (enabled.empty()) {
      throw invalid(protocols_key, *value, "status-store's HTTPS listener offers TLSv1.2 and TLSv1.3 only; list one");
    }
    if (!dropped.empty()) {
      notes_.push_back(protocols_key + ": " + rest_parts::join_list(dropped) +
                       " left out; status-store's HTTPS listener offers TLSv1.2 and TLSv1.3 only");
    }
    tls_.enabled_protocols = std::move(enabled);
  }

  const properties& props_;
  std::vector<std::string>& notes_;
  rest_tls_settings tls_;
};

}  // namespace

std::string parse_client_auth(std::string_view key, std::string_view value) {
  // RestServerConfig's validator: in(Utils.enumOptions(SslClientAuth.class)), case-sensitive.
  if (value == "required" || value == "requested" || value == "none") return std::string{value};
  throw invalid(key, value, "String must be one of: required, requested, none");
}

rest_tls_settings parse_tls_settings(const properties& props, std::vector<std::string>& notes) {
  return tls_parser{props, notes}.parse();
}

}  // namespace status_store::rest_parts
