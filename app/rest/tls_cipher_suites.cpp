// ssl.cipher.suites as Java takes it (IANA names, TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384) turned into
// OpenSSL's two lists: the TLS 1.2 cipher list (OpenSSL's names, ECDHE-RSA-AES256-GCM-SHA384) and the
// TLS 1.3 ciphersuites (TLS_AES_256_GCM_SHA384: the same name in both worlds). The mapping is
// OpenSSL's own (SSL_CIPHER_standard_name over every cipher it has), not a table kept here.
#include "app/rest/tls_detail.hpp"

#include <openssl/err.h>
#include <openssl/objects.h>

#include <map>

namespace status_store::tls_detail {

namespace {

constexpr std::string_view suites_key = "ssl.cipher.suites";
// Every TLS 1.3 suite OpenSSL 3 has (the two CCM ones are not in its default list).
constexpr const char* all_tls13_suites =
    "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_CCM_SHA256:"
    "TLS_AES_128_CCM_8_SHA256";

struct known_suite {
  const SSL_CIPHER* cipher;
  std::string openssl_name;
  bool tls13;
};

// IANA name -> suite, for every cipher this OpenSSL has (whatever the security level).
struct suite_table {
  ssl_ctx_ptr owner;  // the SSL_CIPHERs are static, but only listed through a context
  std::map<std::string, known_suite, std::less<>> by_iana_name;
};

suite_table all_suites() {
  suite_table table{ssl_ctx_ptr{SSL_CTX_new(TLS_server_method())}, {}};
  SSL_CTX_set_security_level(table.owner.get(), 0);
  SSL_CTX_set_cipher_list(table.owner.get(), "ALL:COMPLEMENTOFALL");
  SSL_CTX_set_ciphersuites(table.owner.get(), all_tls13_suites);
  ERR_clear_error();
  const STACK_OF(SSL_CIPHER)* ciphers = SSL_CTX_get_ciphers(table.owner.get());
  for (int i = 0; i < sk_SSL_CIPHER_num(ciphers); ++i) {
    const SSL_CIPHER* cipher = sk_SSL_CIPHER_value(ciphers, i);
    const char* iana = SSL_CIPHER_standard_name(cipher);
    if (iana == nullptr) continue;
    const bool tls13 = std::string_view{SSL_CIPHER_get_version(cipher)} == "TLSv1.3";
    table.by_iana_name.emplace(iana, known_suite{cipher, SSL_CIPHER_get_name(cipher), tls13});
  }
  return table;
}

// Why a suite OpenSSL has is still refused (Java disables these too: jdk.tls.disabledAlgorithms).
std::string unusable_reason(const SSL_CIPHER* cipher) {
  if (SSL_CIPHER_get_cipher_nid(cipher) == NID_undef) return "it encrypts nothing (NULL cipher)";
  const int auth = SSL_CIPHER_get_auth_nid(cipher);
  if (auth == NID_auth_null) return "it is anonymous (the server proves nothing)";
  if (auth == NID_auth_psk || auth == NID_auth_srp)
    return "it needs a pre-shared key or SRP, which the listener has not";
  return {};
}

std::string joined(const std::vector<std::string>& names, std::string_view separator) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : std::string{separator}) + name;
  return text;
}

const known_suite& find_suite(const setting_errors& errors, const suite_table& table, const std::string& name,
                              const std::string& value) {
  // Java accepts the SSL_ spelling of the old suites (SSL_RSA_WITH_AES_128_CBC_SHA) as an alias.
  const std::string iana = name.starts_with("SSL_") ? "TLS_" + name.substr(4) : name;
  if (const auto found = table.by_iana_name.find(iana); found != table.by_iana_name.end()) {
    if (const std::string why = unusable_reason(found->second.cipher); !why.empty()) {
      errors.fail(suites_key, value, "Cipher suite " + name + " is refused: " + why);
    }
    return found->second;
  }
  for (const auto& [standard_name, suite] : table.by_iana_name) {
    if (suite.openssl_name == name) {
      errors.fail(
          suites_key, value,
          name + " is OpenSSL's name; " + errors.name(suites_key) + " takes the IANA (Java) name: " + standard_name);
    }
  }
  errors.fail(suites_key, value,
              "Unknown cipher suite " + name +
                  ": OpenSSL 3 has no suite by that IANA name (names look like "
                  "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 for TLS 1.2 or TLS_AES_256_GCM_SHA384 for TLS 1.3)");
}

void set_list(const setting_errors& errors, const std::string& value, int ok, const std::string& list) {
  if (ok != 1) errors.fail(suites_key, value, "OpenSSL refuses the cipher list " + list + ": " + openssl_reason());
}

}  // namespace

void apply_cipher_suites(SSL_CTX* ctx, const rest_tls_settings& settings, const setting_errors& errors) {
  if (settings.cipher_suites.empty()) return;                     // OpenSSL's defaults
  const std::string value = joined(settings.cipher_suites, ",");  // as the operator wrote it
  const suite_table table = all_suites();
  std::vector<std::string> tls12;
  std::vector<std::string> tls13;
  for (const std::string& name : settings.cipher_suites) {
    if (name == "TLS_EMPTY_RENEGOTIATION_INFO_SCSV") continue;  // a signal OpenSSL always sends and honours
    const known_suite& suite = find_suite(errors, table, name, value);
    (suite.tls13 ? tls13 : tls12).push_back(suite.openssl_name);
  }
  const bool tls12_enabled = SSL_CTX_get_min_proto_version(ctx) <= TLS1_2_VERSION;
  const bool tls13_enabled = SSL_CTX_get_max_proto_version(ctx) >= TLS1_3_VERSION;
  // Java offers a protocol only with a suite of it; so does the listener, by narrowing the range.
  if ((tls12.empty() || !tls12_enabled) && (tls13.empty() || !tls13_enabled)) {
    errors.fail(suites_key, value,
                "It names no cipher suite of the protocols that " + errors.name("ssl.enabled.protocols") +
                    " enables, so no client could connect");
  }
  if (tls12_enabled && tls12.empty()) SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
  if (tls13_enabled && tls13.empty()) SSL_CTX_set_max_proto_version(ctx, TLS1_2_VERSION);
  const std::string tls12_list = joined(tls12, ":");
  const std::string tls13_list = joined(tls13, ":");
  if (!tls12.empty()) set_list(errors, value, SSL_CTX_set_cipher_list(ctx, tls12_list.c_str()), tls12_list);
  set_list(errors, value, SSL_CTX_set_ciphersuites(ctx, tls13_list.c_str()), tls13_list);
}

}  // namespace status_store::tls_detail
