#pragma once
// The parts of status.alert.webhook.url and status.alert.webhook.headers, as the worker's table
// validates them (config/worker_settings.cpp) and the webhook transport uses them (app/webhook/).
// Pure: no network, no HTTP library.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace status_store {

struct webhook_url {
  std::string scheme;  // "http" or "https", lower case
  std::string host;    // a name, an IPv4 address or an IPv6 address without its brackets
  std::string port;    // the given port, or 80 / 443
  std::string target;  // the path and query, "/" when none was given
  bool default_port = true;

  bool tls() const { return scheme == "https"; }
  /// What a Host header says: the host (IPv6 in brackets), and the port unless it is the scheme's.
  std::string host_header() const;
  /// Scheme, host and port only: what logs may name (a path can carry a token, as Slack's do).
  std::string origin() const;
};

/// `value` as status.alert.webhook.url (`key`) allows it: http:// or https:// (any case), a host, an
/// optional port in [1, 65535], an optional path and query, printable ASCII (percent-encode the rest),
/// no user info (credentials go into the headers) and no fragment. Throws config_error otherwise.
webhook_url parse_webhook_url(std::string_view key, std::string_view value);

/// `value` as status.alert.webhook.headers (`key`) allows it: a comma-separated list of `Name: value`,
/// each name an HTTP token other than the ones the sender sets (Host, Content-Type, Content-Length,
/// Transfer-Encoding, Connection), each value non-empty without control characters. Throws
/// config_error naming the entry by its position, never by its value.
std::vector<std::pair<std::string, std::string>> parse_webhook_headers(std::string_view key, std::string_view value);

}  // namespace status_store
