#pragma once
// The HTTPS listener's server-side TLS context, built from Connect's ssl.* settings (parsed into
// rest_tls_settings by config/rest_settings.hpp): the keystore (PKCS12, or PEM as a file or inline
// text; JKS refused with the keytool line that converts it), the truststore that client certificates
// are verified against (PEM, or PKCS12 as keytool writes it), ssl.client.auth, ssl.enabled.protocols
// (TLS 1.2 and 1.3 only) and ssl.cipher.suites (IANA names, as Java takes them).
// See docs/security.md ("The REST listener's TLS").
//
// Light on purpose: no OpenSSL and no Asio header. The listener includes <boost/asio/ssl/context.hpp>
// where it uses the context; boost::asio::ssl::context is a class (not an alias) in Boost 1.74, so it
// can be declared here.
#include "config/rest_settings.hpp"

#include <memory>

namespace boost::asio::ssl {
class context;
}  // namespace boost::asio::ssl

namespace status_store {

/// A server context (TLS_server_method, TLS 1.2 at least, no compression, no renegotiation, the
/// server's cipher order) holding the keystore's key and certificate chain, the truststore's
/// certificates and the client-certificate verification that ssl.client.auth asks for.
///
/// Reads the keystore and truststore files once, here. Every problem is a config_error naming the
/// property as the operator wrote it (settings.prefix + key, e.g. listeners.https.ssl.keystore.password),
/// its masked value and the rule, with what to do about it; no password or key appears in a message.
std::shared_ptr<boost::asio::ssl::context> make_server_tls_context(const rest_tls_settings& settings);

}  // namespace status_store
