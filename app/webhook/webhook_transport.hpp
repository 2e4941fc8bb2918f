#pragma once
// The webhook's HTTP client, the alert transport `status-store run` gives its store
// (messages/alert_transport.hpp): Boost.Beast over Asio on an io_context and a thread of its own, so
// the alert sender never waits on the network. One connection per alert (`Connection: close`: alerts
// are rare, and no idle connection can go stale between them); a deadline of
// status.alert.webhook.timeout.ms over all of it (resolving, connecting, the TLS handshake, writing,
// the answer's head); https:// verified against the system's trust store (OpenSSL's default paths,
// which SSL_CERT_FILE and SSL_CERT_DIR override) with the host name checked. Outside the installed
// libraries: an embedder gives a transport of its own, or none.
#include "config/alert_settings.hpp"
#include "messages/alert_transport.hpp"

#include <memory>

namespace status_store {

/// The transport for `settings`, whose URL and headers parse_worker_config validated (config_error
/// otherwise). Its thread runs until the transport is destroyed; what is in flight then is abandoned.
std::shared_ptr<alert_transport> make_webhook_transport(const alert_settings& settings);

}  // namespace status_store
