#pragma once
// Internal to status_store_rest_tls (app/rest/tls_*.cpp): OpenSSL handles, the error helper that
// names a setting the way the operator wrote it, and the keystore/truststore readers.
#include "config/rest_settings.hpp"

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace status_store::tls_detail {

template <auto Free>
struct openssl_deleter {
  template <class T>
  void operator()(T* handle) const {
    Free(handle);
  }
};
using x509_ptr = std::unique_ptr<X509, openssl_deleter<X509_free>>;
using pkey_ptr = std::unique_ptr<EVP_PKEY, openssl_deleter<EVP_PKEY_free>>;
using bio_ptr = std::unique_ptr<BIO, openssl_deleter<BIO_free_all>>;
using ssl_ctx_ptr = std::unique_ptr<SSL_CTX, openssl_deleter<SSL_CTX_free>>;

/// Names settings as the operator wrote them (prefix + key) and throws config_error about them.
class setting_errors {
 public:
  explicit setting_errors(std::string prefix) : prefix_{std::move(prefix)} {}

  std::string name(std::string_view key) const { return prefix_ + std::string{key}; }

  /// Throws config_error(name(key), value masked, rule). Masked when the key is secret with or
  /// without the prefix (is_secret_property does not strip "listeners.https.").
  [[noreturn]] void fail(std::string_view key, std::string_view value, const std::string& rule) const;

 private:
  std::string prefix_;
};

/// The reason of OpenSSL's most recent error ("bad decrypt"), or `fallback`; empties the error queue.
std::string openssl_reason(std::string_view fallback = "no detail from OpenSSL");

/// A store's type upper-cased (Java's KeyStore.getInstance ignores case), refused unless JKS, PKCS12 or PEM.
std::string store_type(const setting_errors& errors, std::string_view key, std::string_view type);

/// The settings of one store, unprefixed: ssl.keystore.* or ssl.truststore.*.
struct store_keys {
  std::string_view type;
  std::string_view location;
  std::string_view password;
  std::string_view noun;            // "keystore" or "truststore"
  std::string_view converted_file;  // what the keytool line converts a JKS store to
};
inline constexpr store_keys keystore_keys{"ssl.keystore.type", "ssl.keystore.location", "ssl.keystore.password",
                                          "keystore", "keystore.p12"};
inline constexpr store_keys truststore_keys{"ssl.truststore.type", "ssl.truststore.location", "ssl.truststore.password",
                                            "truststore", "truststore.p12"};

/// A store file read whole. `pem` tells how to parse it: PEM text, or else PKCS12 (DER).
struct store_file {
  std::string bytes;
  bool pem = false;
};

/// Reads the store at `path` (the location setting) and checks its contents against the declared
/// `type` (store_type's result): an unreadable file, a JKS or JCEKS file (refused with the keytool line
/// that converts it), PEM text declared PKCS12 and the like are config_errors. A JKS type accepts a
/// PKCS12 file, as Java's keystore.type.compat does.
store_file read_store_file(const setting_errors& errors, const store_keys& keys, const std::string& path,
                           const std::string& type);

/// The keytool line that turns a JKS (or JCEKS) store into PKCS12, and the settings to use it with.
std::string conversion_advice(const setting_errors& errors, const store_keys& keys, std::string_view source_type);

/// Every -----BEGIN CERTIFICATE----- block of `pem`, in order (other blocks are skipped); a block
/// OpenSSL cannot read is a config_error naming `key` (with `value` shown, masked if secret).
std::vector<x509_ptr> pem_certificates(std::string_view pem, const setting_errors& errors, std::string_view key,
                                       std::string_view value);

/// PEM text as a properties file often carries it, on one line (a backslash-continued value loses its
/// newlines; Kafka accepts that): each header-less block re-wrapped so OpenSSL reads it.
std::string normalize_pem(std::string_view text);

struct key_material {
  pkey_ptr key;
  std::vector<x509_ptr> chain;  // the server's certificate first
};

/// The keystore settings read into a key and its certificate chain (tls_keystore.cpp).
key_material load_keystore(const rest_tls_settings& settings, const setting_errors& errors);

/// The truststore's certificates; empty when no truststore is set (tls_truststore.cpp).
std::vector<x509_ptr> load_truststore(const rest_tls_settings& settings, const setting_errors& errors);

/// ssl.cipher.suites (IANA names) applied to `ctx`; may narrow the protocol range it was given when
/// the list names no suite of one of the two versions (tls_cipher_suites.cpp).
void apply_cipher_suites(SSL_CTX* ctx, const rest_tls_settings& settings, const setting_errors& errors);

}  // namespace status_store::tls_detail
