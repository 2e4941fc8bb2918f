// make_server_tls_context: the protocol range, ssl.client.auth, then the stores (tls_keystore.cpp,
// tls_truststore.cpp) and the cipher suites (tls_cipher_suites.cpp) put into one Asio server context.
#include "app/rest/tls_context.hpp"

#include "app/rest/tls_detail.hpp"
#include "config/ascii.hpp"

#include <boost/asio/ssl/context.hpp>

#include <openssl/err.h>
#include <openssl/ssl.h>

namespace status_store {

namespace {

using namespace tls_detail;

constexpr std::string_view protocols_key = "ssl.enabled.protocols";
constexpr std::string_view client_auth_key = "ssl.client.auth";
// Required for session resumption once client certificates are verified (OpenSSL refuses to resume
// a session without one: "session id context uninitialized").
constexpr std::string_view session_id_context = "status-store-rest";

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ",") + name;
  return text;
}

// Java's protocol names, case-sensitive as in Java; the range spans the versions named.
void apply_protocols(SSL_CTX* ctx, const rest_tls_settings& settings, const setting_errors& errors) {
  const std::string value = joined(settings.enabled_protocols);
  bool tls12 = false;
  bool tls13 = false;
  for (const std::string& protocol : settings.enabled_protocols) {
    if (protocol == "TLSv1.2") {
      tls12 = true;
    } else if (protocol == "TLSv1.3") {
      tls13 = true;
    } else if (protocol == "TLSv1" || protocol == "TLSv1.1" || protocol == "SSLv3" || protocol == "SSLv2Hello") {
      errors.fail(protocols_key, value,
                  protocol +
                      " is older than TLS 1.2, which the REST listener requires (current Java disables it "
                      "too); enable TLSv1.2 and/or TLSv1.3 only");
    } else {
      errors.fail(protocols_key, value,
                  "Unknown protocol " + protocol + ": the REST listener offers TLSv1.2 and TLSv1.3 (Java's names)");
    }
  }
  if (!tls12 && !tls13) {
    errors.fail(protocols_key, value, "It enables no protocol; set TLSv1.2,TLSv1.3 (the default) or one of them");
  }
  SSL_CTX_set_min_proto_version(ctx, tls12 ? TLS1_2_VERSION : TLS1_3_VERSION);
  SSL_CTX_set_max_proto_version(ctx, tls13 ? TLS1_3_VERSION : TLS1_2_VERSION);
}

// Connect's none | requested | required (case-insensitive, as SslClientAuth.forConfig reads it).
int verify_mode(const rest_tls_settings& settings, const setting_errors& errors) {
  const std::string mode = ascii_lowercase(java_trim(settings.client_auth));
  if (mode == "none") return SSL_VERIFY_NONE;
  if (mode != "requested" && mode != "required") {
    errors.fail(client_auth_key, settings.client_auth, "Must be one of none, requested, required");
  }
  if (settings.truststore_location.empty() && settings.truststore_certificates.empty()) {
    errors.fail(truststore_keys.location, "null",
                errors.name(client_auth_key) + "=" + mode +
                    " verifies client certificates against the CA certificates of a truststore: set " +
                    errors.name(truststore_keys.location) + " (a PEM or PKCS12 file) or " +
                    errors.name("ssl.truststore.certificates") + " (PEM text)");
  }
  return mode == "required" ? SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT : SSL_VERIFY_PEER;
}

void use_key_material(SSL_CTX* ctx, const key_material& material, const setting_errors& errors) {
  ERR_clear_error();
  bool ok = SSL_CTX_use_certificate(ctx, material.chain.front().get()) == 1 &&
            SSL_CTX_use_PrivateKey(ctx, material.key.get()) == 1;
  for (std::size_t i = 1; ok && i < material.chain.size(); ++i) {
    ok = SSL_CTX_add1_chain_cert(ctx, material.chain[i].get()) == 1;
  }
  if (!ok || SSL_CTX_check_private_key(ctx) != 1) {
    // Seen with a key or certificate the security level forbids (an RSA key under 2048 bits, SHA-1).
    errors.fail(keystore_keys.location, "[hidden]",
                "OpenSSL refuses the keystore's key or certificate: " + openssl_reason());
  }
}

// The certificates client certificates are verified against, and the CA names sent to clients in the
// certificate request (as Java's server does), so a client with several certificates picks the right one.
void trust(SSL_CTX* ctx, const std::vector<x509_ptr>& certificates, const setting_errors& errors) {
  X509_STORE* store = SSL_CTX_get_cert_store(ctx);
  for (const auto& certificate : certificates) {
    ERR_clear_error();
    if (X509_STORE_add_cert(store, certificate.get()) != 1 || SSL_CTX_add_client_CA(ctx, certificate.get()) != 1) {
      errors.fail(truststore_keys.location, "[hidden]",
                  "OpenSSL refuses a truststore certificate: " + openssl_reason());
    }
  }
}

}  // namespace

std::shared_ptr<boost::asio::ssl::context> make_server_tls_context(const rest_tls_settings& settings) {
  const setting_errors errors{settings.prefix};
  auto context = std::make_shared<boost::asio::ssl::context>(boost::asio::ssl::context::tls_server);
  SSL_CTX* ctx = context->native_handle();
  SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
  SSL_CTX_set_dh_auto(ctx, 1);  // parameters for the TLS_DHE_* suites, should they be named
  // The settings that need no file first, so a typo is reported before a missing keystore.
  apply_protocols(ctx, settings, errors);
  const int mode = verify_mode(settings, errors);
  apply_cipher_suites(ctx, settings, errors);
  use_key_material(ctx, load_keystore(settings, errors), errors);
  trust(ctx, load_truststore(settings, errors), errors);
  SSL_CTX_set_verify(ctx, mode, nullptr);
  SSL_CTX_set_session_id_context(ctx, reinterpret_cast<const unsigned char*>(session_id_context.data()),
                                 static_cast<unsigned int>(session_id_context.size()));
  return context;
}

}  // namespace status_store
