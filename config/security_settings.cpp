#include "config/security_settings.hpp"

#include "config/ascii.hpp"
#include "config/config_error.hpp"
#include "config/jaas_config.hpp"
#include "config/secret_masking.hpp"

#include <array>
#include <optional>

namespace status_store {

namespace {

template <std::size_t N>
bool one_of(std::string_view value, const std::array<std::string_view, N>& allowed) {
  for (const std::string_view candidate : allowed) {
    if (value == candidate) return true;
  }
  return false;
}

constexpr std::array<std::string_view, 4> security_protocols{"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"};
// What the client library implements (2.0.2 and 2.8.0, both built with SASL and SSL).
constexpr std::array<std::string_view, 5> sasl_mechanisms{"GSSAPI", "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512",
                                                          "OAUTHBEARER"};
constexpr std::array<std::string_view, 3> password_mechanisms{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"};
constexpr std::array<std::string_view, 3> store_types{"JKS", "PKCS12", "PEM"};

// Java classes a worker may name; the client library can load none of them.
constexpr std::array<std::string_view, 4> java_class_settings{"sasl.client.callback.handler.class", "sasl.login.class",
                                                              "sasl.login.callback.handler.class",
                                                              "ssl.engine.factory.class"};
// Tuning of the JVM's TLS stack or of Java's token login, with no client-library counterpart. Dropping
// them changes no security property the client library would otherwise enforce: OpenSSL negotiates TLS 1.2
// or 1.3 and verifies the broker as configured.
constexpr std::array<std::string_view, 6> jvm_only_settings{"ssl.protocol",
                                                            "ssl.enabled.protocols",
                                                            "ssl.keymanager.algorithm",
                                                            "ssl.trustmanager.algorithm",
                                                            "ssl.secure.random.implementation",
                                                            "ssl.provider"};
constexpr std::string_view jvm_only_prefix = "sasl.login.";

class layer_translator {
 public:
  layer_translator(const settings_map& settings, std::string_view prefix, const settings_map* inherited,
                   std::vector<std::string>* warnings)
      : out_{settings}, prefix_{prefix}, inherited_{inherited}, warnings_{warnings} {}

  settings_map translate() {
    check_security_protocol();
    check_sasl_mechanism();
    refuse_java_classes();
    drop_jvm_only_settings();
    translate_jaas_config();
    translate_truststore();
    translate_keystore();
    translate_endpoint_identification();
    return std::move(out_);
  }

 private:
  std::string name(std::string_view key) const { return std::string{prefix_} + std::string{key}; }

  [[noreturn]] void fail(std::string_view key, std::string_view value, std::string rule) const {
    throw config_error(name(key), mask_if_secret(name(key), value), std::move(rule));
  }

  std::optional<std::string> own(std::string_view key) const {
    const auto found = out_.find(std::string{key});
    if (found == out_.end()) return std::nullopt;
    return found->second;
  }

  /// This layer's value, else the common layer's.
  std::optional<std::string> effective(std::string_view key) const {
    if (auto value = own(key)) return value;
    if (inherited_ == nullptr) return std::nullopt;
    const auto found = inherited_->find(std::string{key});
    if (found == inherited_->end()) return std::nullopt;
    return found->second;
  }

  std::optional<std::string> effective_mechanism() const {
    if (auto value = effective("sasl.mechanism")) return value;
    return effective("sasl.mechanisms");  // the client library's own name
  }

  void check_security_protocol() {
    const auto protocol = own("security.protocol");
    // The client library takes the names in either case; Java only in upper case, which is what is written.
    if (protocol && !one_of(ascii_uppercase(*protocol), security_protocols)) {
      fail("security.protocol", *protocol, "Must be one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL");
    }
  }

  void check_sasl_mechanism() {
    for (const std::string_view key : {"sasl.mechanism", "sasl.mechanisms"}) {
      const auto mechanism = own(key);
      if (mechanism && !one_of(std::string_view{*mechanism}, sasl_mechanisms)) {
        fail(key, *mechanism,
             "Must be one of GSSAPI, PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER (what status-store's "
             "Kafka client implements)");
      }
    }
  }

  void refuse_java_classes() {
    for (const std::string_view key : java_class_settings) {
      if (const auto value = own(key)) {
        fail(key, *value,
             "Names a Java class, which status-store's Kafka client cannot load; remove it (status-store supports "
             "SASL PLAIN/SCRAM through sasl.jaas.config or sasl.username/sasl.password)");
      }
    }
  }

  void drop_jvm_only_settings() {
    for (auto it = out_.begin(); it != out_.end();) {
      const std::string_view key = it->first;
      if (one_of(key, jvm_only_settings) || key.starts_with(jvm_only_prefix)) {
        warn("Ignoring '" + name(key) + "=" + mask_if_secret(name(key), it->second) +
             "': it tunes Java's TLS stack or login and has no equivalent in status-store's Kafka client");
        it = out_.erase(it);
      } else {
        ++it;
      }
    }
  }

  void translate_jaas_config() {
    const auto jaas = own("sasl.jaas.config");
    if (!jaas) return;
    const jaas_credentials credentials = parse_jaas_credentials(name("sasl.jaas.config"), *jaas);
    if (own("sasl.username") || own("sasl.password")) {
      fail("sasl.jaas.config", *jaas,
           "Set either sasl.jaas.config or sasl.username/sasl.password, not both (they would compete for the "
           "same client settings)");
    }
    const std::string module_name = credentials.login_module.substr(credentials.login_module.rfind('.') + 1);
    const auto mechanism = effective_mechanism();
    if (!mechanism) {
      // Java and the client library both default to GSSAPI, which would ignore these credentials.
      throw config_error::with_message(name("sasl.mechanism"), "",
                                       name("sasl.mechanism") +
                                           " must be set (PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512) when " +
                                           name("sasl.jaas.config") + " uses " + module_name +
                                           ": the default, GSSAPI, ignores a username and password");
    }
    if (!one_of(std::string_view{*mechanism}, password_mechanisms)) {
      fail("sasl.jaas.config", *jaas,
           module_name + " gives a username and password, which sasl.mechanism=" + *mechanism +
               " does not use (use PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512)");
    }
    out_.erase("sasl.jaas.config");
    out_["sasl.username"] = credentials.username;
    out_["sasl.password"] = credentials.password;
  }

  std::string store_type(std::string_view type_key) const {
    const auto type = effective(type_key);
    const std::string upper = ascii_uppercase(type.value_or("JKS"));  // Java's default type
    if (type && !one_of(std::string_view{upper}, store_types)) fail(type_key, *type, "Must be one of JKS, PKCS12, PEM");
    return upper;
  }

  void translate_truststore() {
    const auto location = own("ssl.truststore.location");
    const auto certificates = own("ssl.truststore.certificates");
    const bool configured = location || certificates || own("ssl.truststore.type");
    if (!configured) {
      out_.erase("ssl.truststore.password");  // meaningless without a truststore
      return;
    }
    const std::string type = store_type("ssl.truststore.type");
    if (location && type != "PEM") {
      fail("ssl.truststore.location", *location,
           "status-store's Kafka client cannot read a " + type + " truststore; export its CA certificate(s) as PEM (" +
               (type == "JKS" ? std::string{"keytool -exportcert -rfc -keystore FILE -alias CA -file ca.pem"}
                              : std::string{"openssl pkcs12 -in FILE -nokeys -out ca.pem"}) +
               ") and set ssl.truststore.type=PEM with ssl.truststore.location=ca.pem, or ssl.ca.location=ca.pem");
    }
    if ((location || certificates) && (own("ssl.ca.location") || own("ssl.ca.pem"))) {
      fail(location ? "ssl.truststore.location" : "ssl.truststore.certificates", location.value_or(*certificates),
           "Set either ssl.truststore.* or the client's own ssl.ca.location/ssl.ca.pem, not both");
    }
    if (location) out_["ssl.ca.location"] = *location;
    if (certificates) out_["ssl.ca.pem"] = *certificates;
    for (const char* key :
         {"ssl.truststore.location", "ssl.truststore.certificates", "ssl.truststore.type", "ssl.truststore.password"}) {
      out_.erase(key);
    }
  }

  void translate_keystore() {
    if (const auto type = own("ssl.keystore.type")) {
      const std::string upper = store_type("ssl.keystore.type");
      if (upper == "JKS") {
        fail("ssl.keystore.type", *type,
             "status-store's Kafka client reads PKCS12 keystores only; convert it (keytool -importkeystore "
             "-srckeystore FILE "
             "-destkeystore keystore.p12 -deststoretype PKCS12) and set ssl.keystore.type=PKCS12");
      }
      if (upper == "PEM") {
        fail("ssl.keystore.type", *type,
             "A PEM keystore file is not supported; set ssl.keystore.certificate.chain and ssl.keystore.key, or "
             "the client's own ssl.certificate.location and ssl.key.location");
      }
      out_.erase("ssl.keystore.type");  // PKCS12: the client library's ssl.keystore.location is PKCS#12
    }
    if (const auto chain = own("ssl.keystore.certificate.chain")) {
      out_["ssl.certificate.pem"] = *chain;
      out_.erase("ssl.keystore.certificate.chain");
    }
    if (const auto key = own("ssl.keystore.key")) {
      out_["ssl.key.pem"] = *key;
      out_.erase("ssl.keystore.key");
    }
  }

  void translate_endpoint_identification() {
    const auto algorithm = own("ssl.endpoint.identification.algorithm");
    if (!algorithm) return;
    const std::string upper = ascii_uppercase(*algorithm);
    // Java turns hostname verification off with an empty value; the client library with "none".
    if (algorithm->empty() || upper == "NONE") {
      out_["ssl.endpoint.identification.algorithm"] = "none";
    } else if (upper == "HTTPS") {
      out_["ssl.endpoint.identification.algorithm"] = "https";
    } else {
      fail("ssl.endpoint.identification.algorithm", *algorithm,
           "Must be https, or empty (or none) to turn off "
           "hostname verification");
    }
  }

  void warn(std::string message) {
    if (warnings_ != nullptr) warnings_->push_back(std::move(message));
  }

  settings_map out_;
  std::string_view prefix_;
  const settings_map* inherited_;
  std::vector<std::string>* warnings_;
};

}  // namespace

settings_map client_security_settings(const settings_map& settings, std::string_view prefix,
                                      const settings_map* inherited, std::vector<std::string>* warnings) {
  return layer_translator{settings, prefix, inherited, warnings}.translate();
}

void translate_security_settings(worker_config& config, std::vector<std::string>* warnings) {
  // The override layers first: they consult the common layer as written.
  const settings_map common = config.security_settings;
  config.producer_overrides = client_security_settings(config.producer_overrides, "producer.", &common, warnings);
  config.consumer_overrides = client_security_settings(config.consumer_overrides, "consumer.", &common, warnings);
  config.admin_overrides = client_security_settings(config.admin_overrides, "admin.", &common, warnings);
  config.security_settings = client_security_settings(common, "", nullptr, warnings);
}

}  // namespace status_store
