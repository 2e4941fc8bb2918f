// The HTTPS listener's keystore: ssl.keystore.location as PKCS12 or PEM, or the inline PEM of
// ssl.keystore.key and ssl.keystore.certificate.chain; Kafka's rules for which combinations are valid
// (DefaultSslEngineFactory), OpenSSL's reasons when a file cannot be read.
#include "app/rest/tls_detail.hpp"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>

namespace status_store::tls_detail {

namespace {

constexpr std::string_view key_text_key = "ssl.keystore.key";
constexpr std::string_view chain_key = "ssl.keystore.certificate.chain";
constexpr std::string_view key_password_key = "ssl.key.password";

// `password` is a std::string*; never prompts.
int password_callback(char* buffer, int size, int, void* password) {
  const auto& text = *static_cast<const std::string*>(password);
  if (text.empty() || text.size() > static_cast<std::size_t>(size)) return 0;
  text.copy(buffer, text.size());
  return static_cast<int>(text.size());
}

bool is_encrypted_pem_key(std::string_view pem) {
  return pem.find("-----BEGIN ENCRYPTED PRIVATE KEY-----") != std::string_view::npos ||
         pem.find("Proc-Type: 4,ENCRYPTED") != std::string_view::npos;
}

// The first private key of `pem`; `key` names where it came from (ssl.keystore.key or .location).
pkey_ptr pem_private_key(const setting_errors& errors, std::string_view pem, std::string_view key,
                         std::string_view shown, const std::string& password) {
  const bool encrypted = is_encrypted_pem_key(pem);
  if (encrypted && password.empty()) {
    errors.fail(key_password_key, "null",
                "The private key in " + errors.name(key) + " is encrypted; set " + errors.name(key_password_key) +
                    " to its password");
  }
  ERR_clear_error();
  const bio_ptr bio{BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()))};
  pkey_ptr private_key{
      PEM_read_bio_PrivateKey(bio.get(), nullptr, password_callback, const_cast<std::string*>(&password))};
  if (private_key) return private_key;
  const std::string reason = openssl_reason();
  if (encrypted) {
    errors.fail(
        key_password_key, password,
        "It does not decrypt the private key in " + errors.name(key) + " (wrong password? OpenSSL: " + reason + ")");
  }
  if (pem.find("PRIVATE KEY-----") == std::string_view::npos) {
    errors.fail(key, shown,
                "It holds no private key (-----BEGIN PRIVATE KEY----- or -----BEGIN ENCRYPTED PRIVATE KEY-----)");
  }
  errors.fail(key, shown, "Its private key cannot be read (OpenSSL: " + reason + ")");
}

key_material pem_key_material(const setting_errors& errors, std::string_view key_pem, std::string_view key_source,
                              std::string_view chain_pem, std::string_view chain_source, std::string_view shown,
                              const std::string& password) {
  key_material material;
  material.key = pem_private_key(errors, key_pem, key_source, shown, password);
  material.chain = pem_certificates(chain_pem, errors, chain_source, shown);
  if (material.chain.empty()) {
    errors.fail(chain_source, shown,
                "It holds no certificate (-----BEGIN CERTIFICATE-----): the server's certificate must come first, "
                "then its CA chain");
  }
  return material;
}

std::vector<x509_ptr> take_certificates(STACK_OF(X509) * stack) {
  std::vector<x509_ptr> certificates;
  for (int i = 0; i < sk_X509_num(stack); ++i) certificates.emplace_back(sk_X509_value(stack, i));
  sk_X509_free(stack);  // the certificates are owned by the vector now
  return certificates;
}

key_material pkcs12_key_material(const setting_errors& errors, const rest_tls_settings& settings,
                                 const std::string& der) {
  const std::string& location = settings.keystore_location;
  const std::string& password = settings.keystore_password;
  if (password.empty()) {
    errors.fail(keystore_keys.password, "null",
                errors.name(keystore_keys.location) + " is set: set " + errors.name(keystore_keys.password) +
                    " to the keystore's password");
  }
  ERR_clear_error();
  const bio_ptr bio{BIO_new_mem_buf(der.data(), static_cast<int>(der.size()))};
  const std::unique_ptr<PKCS12, openssl_deleter<PKCS12_free>> p12{d2i_PKCS12_bio(bio.get(), nullptr)};
  if (!p12) {
    errors.fail(keystore_keys.location, location,
                "The file is not a PKCS12 keystore (OpenSSL: " + openssl_reason() + ")");
  }
  if (PKCS12_mac_present(p12.get()) && !PKCS12_verify_mac(p12.get(), password.c_str(), -1)) {
    if (ERR_peek_last_error() == 0) {  // the MAC was computed and differs: the password is wrong
      errors.fail(keystore_keys.password, password,
                  "It does not open the PKCS12 keystore in " + errors.name(keystore_keys.location) +
                      " (its integrity check fails: wrong password)");
    }
    errors.fail(keystore_keys.location, location,
                "The keystore's integrity check cannot be computed (OpenSSL: " + openssl_reason() + ")");
  }
  EVP_PKEY* key = nullptr;
  X509* certificate = nullptr;
  STACK_OF(X509)* ca = nullptr;
  if (!PKCS12_parse(p12.get(), password.c_str(), &key, &certificate, &ca)) {
    errors.fail(keystore_keys.location, location,
                "Its contents cannot be decrypted (OpenSSL: " + openssl_reason() +
                    "); a keystore written by an old keytool or by `openssl pkcs12 -legacy` is encrypted with RC2 or "
                    "3DES, which OpenSSL 3 does not load by default: write it again with a current keytool (keytool "
                    "-importkeystore -srckeystore FILE -srcstoretype PKCS12 -destkeystore keystore.p12 -deststoretype "
                    "PKCS12) and set " +
                    errors.name(keystore_keys.location) + "=keystore.p12");
  }
  key_material material{pkey_ptr{key}, {}};
  if (certificate != nullptr) material.chain.emplace_back(certificate);
  for (auto& chain_certificate : take_certificates(ca)) material.chain.push_back(std::move(chain_certificate));
  if (!material.key) {
    errors.fail(keystore_keys.location, location,
                "The keystore holds no private key (a truststore?): the listener needs its key and certificate");
  }
  if (certificate == nullptr) {
    errors.fail(keystore_keys.location, location, "The keystore holds no certificate for its private key");
  }
  return material;
}

key_material inline_key_material(const setting_errors& errors, const rest_tls_settings& settings,
                                 const std::string& type) {
  if (type != "PEM") {
    errors.fail(keystore_keys.type, settings.keystore_type,
                errors.name(key_text_key) + " and " + errors.name(chain_key) + " hold PEM text: set " +
                    errors.name(keystore_keys.type) + "=PEM");
  }
  if (!settings.keystore_location.empty()) {
    errors.fail(keystore_keys.location, settings.keystore_location,
                "Set either " + errors.name(keystore_keys.location) + " or " + errors.name(key_text_key) + " with " +
                    errors.name(chain_key) + ", not both");
  }
  if (settings.keystore_key.empty()) {
    errors.fail(key_text_key, "null", errors.name(chain_key) + " is set, so the private key must be too");
  }
  if (settings.keystore_certificate_chain.empty()) {
    errors.fail(chain_key, "null", errors.name(key_text_key) + " is set, so its certificate chain must be too");
  }
  return pem_key_material(errors, normalize_pem(settings.keystore_key), key_text_key,
                          normalize_pem(settings.keystore_certificate_chain), chain_key, "[hidden]",
                          settings.key_password);
}

void check_key_matches(const setting_errors& errors, const key_material& material, std::string_view key,
                       std::string_view shown) {
  ERR_clear_error();
  if (X509_check_private_key(material.chain.front().get(), material.key.get()) != 1) {
    ERR_clear_error();
    errors.fail(key, shown,
                "The private key does not belong to the first certificate (the server's own, which must come "
                "before its CA chain)");
  }
}

}  // namespace

key_material load_keystore(const rest_tls_settings& settings, const setting_errors& errors) {
  const std::string type = store_type(errors, keystore_keys.type, settings.keystore_type);
  if (!settings.keystore_key.empty() || !settings.keystore_certificate_chain.empty()) {
    key_material material = inline_key_material(errors, settings, type);
    check_key_matches(errors, material, key_text_key, "[hidden]");
    return material;
  }
  const std::string& location = settings.keystore_location;
  if (location.empty()) {
    errors.fail(keystore_keys.location, "null",
                "An HTTPS listener needs a keystore: set " + errors.name(keystore_keys.location) +
                    " (a PKCS12 or PEM file), or " + errors.name(key_text_key) + " and " + errors.name(chain_key) +
                    " (PEM text, with " + errors.name(keystore_keys.type) + "=PEM)");
  }
  const store_file file = read_store_file(errors, keystore_keys, location, type);
  key_material material = file.pem ? pem_key_material(errors, file.bytes, keystore_keys.location, file.bytes,
                                                      keystore_keys.location, location, settings.key_password)
                                   : pkcs12_key_material(errors, settings, file.bytes);
  check_key_matches(errors, material, keystore_keys.location, location);
  return material;
}

}  // namespace status_store::tls_detail
