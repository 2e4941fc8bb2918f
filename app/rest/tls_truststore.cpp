// The HTTPS listener's truststore, which client certificates are verified against: a PEM file or
// ssl.truststore.certificates, or a PKCS12 file of trusted-certificate entries as Java's keytool
// writes it (`keytool -importcert -storetype PKCS12`: certificate bags with Oracle's trusted-key-usage
// attribute, no key, PBES2/AES-256 and an HMAC-SHA256 MAC on Java 17; OpenSSL 3 reads them).
#include "app/rest/tls_detail.hpp"

#include <openssl/err.h>
#include <openssl/pkcs12.h>

namespace status_store::tls_detail {

namespace {

constexpr std::string_view certificates_key = "ssl.truststore.certificates";

void check_pkcs12_password(const setting_errors& errors, const rest_tls_settings& settings, PKCS12* p12) {
  const std::string& password = settings.truststore_password;
  if (!PKCS12_mac_present(p12)) return;
  if (password.empty()) {
    if (PKCS12_verify_mac(p12, nullptr, 0) || PKCS12_verify_mac(p12, "", 0)) return;
    ERR_clear_error();
    errors.fail(truststore_keys.password, "null",
                "The PKCS12 truststore in " + errors.name(truststore_keys.location) + " has a password: set " +
                    errors.name(truststore_keys.password));
  }
  if (PKCS12_verify_mac(p12, password.c_str(), -1)) return;
  if (ERR_peek_last_error() == 0) {
    errors.fail(truststore_keys.password, password,
                "It does not open the PKCS12 truststore in " + errors.name(truststore_keys.location) +
                    " (its integrity check fails: wrong password)");
  }
  errors.fail(truststore_keys.location, settings.truststore_location,
              "The truststore's integrity check cannot be computed (OpenSSL: " + openssl_reason() + ")");
}

std::vector<x509_ptr> pkcs12_certificates(const setting_errors& errors, const rest_tls_settings& settings,
                                          const std::string& der) {
  ERR_clear_error();
  const bio_ptr bio{BIO_new_mem_buf(der.data(), static_cast<int>(der.size()))};
  const std::unique_ptr<PKCS12, openssl_deleter<PKCS12_free>> p12{d2i_PKCS12_bio(bio.get(), nullptr)};
  if (!p12) {
    errors.fail(truststore_keys.location, settings.truststore_location,
                "The file is not a PKCS12 truststore (OpenSSL: " + openssl_reason() + ")");
  }
  check_pkcs12_password(errors, settings, p12.get());
  EVP_PKEY* key = nullptr;
  X509* certificate = nullptr;
  STACK_OF(X509)* ca = nullptr;
  const char* password = settings.truststore_password.empty() ? nullptr : settings.truststore_password.c_str();
  if (!PKCS12_parse(p12.get(), password, &key, &certificate, &ca)) {
    errors.fail(truststore_keys.location, settings.truststore_location,
                "Its contents cannot be decrypted (OpenSSL: " + openssl_reason() +
                    "); a truststore written by an old keytool is encrypted with RC2 or 3DES, which OpenSSL 3 does "
                    "not load by default: write it again with a current keytool (keytool -importkeystore -srckeystore "
                    "FILE -srcstoretype PKCS12 -destkeystore truststore.p12 -deststoretype PKCS12), or use PEM");
  }
  EVP_PKEY_free(key);  // a keystore given as truststore: its certificates are trusted, as Java does
  std::vector<x509_ptr> certificates;
  if (certificate != nullptr) certificates.emplace_back(certificate);
  for (int i = 0; i < sk_X509_num(ca); ++i) certificates.emplace_back(sk_X509_value(ca, i));
  sk_X509_free(ca);
  return certificates;
}

std::vector<x509_ptr> inline_certificates(const setting_errors& errors, const rest_tls_settings& settings,
                                          const std::string& type) {
  if (type != "PEM") {
    errors.fail(truststore_keys.type, settings.truststore_type,
                errors.name(certificates_key) + " holds PEM text: set " + errors.name(truststore_keys.type) + "=PEM");
  }
  if (!settings.truststore_location.empty()) {
    errors.fail(
        truststore_keys.location, settings.truststore_location,
        "Set either " + errors.name(truststore_keys.location) + " or " + errors.name(certificates_key) + ", not both");
  }
  const std::string pem = normalize_pem(settings.truststore_certificates);
  auto certificates = pem_certificates(pem, errors, certificates_key, settings.truststore_certificates);
  if (certificates.empty()) {
    errors.fail(certificates_key, settings.truststore_certificates,
                "It holds no certificate (-----BEGIN CERTIFICATE-----)");
  }
  return certificates;
}

}  // namespace

std::vector<x509_ptr> load_truststore(const rest_tls_settings& settings, const setting_errors& errors) {
  const std::string type = store_type(errors, truststore_keys.type, settings.truststore_type);
  if (!settings.truststore_certificates.empty()) return inline_certificates(errors, settings, type);
  const std::string& location = settings.truststore_location;
  if (location.empty()) return {};
  const store_file file = read_store_file(errors, truststore_keys, location, type);
  auto certificates = file.pem ? pem_certificates(file.bytes, errors, truststore_keys.location, location)
                               : pkcs12_certificates(errors, settings, file.bytes);
  if (certificates.empty()) {
    errors.fail(truststore_keys.location, location,
                "The truststore holds no certificate: it needs the CA certificate(s) that sign client certificates");
  }
  return certificates;
}

}  // namespace status_store::tls_detail
