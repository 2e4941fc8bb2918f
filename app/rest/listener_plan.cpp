#include "app/rest/listener_plan.hpp"

#include "config/config_error.hpp"

#include <charconv>

namespace status_store {

namespace {

rest_listener parse_listen(std::string_view listen) {
  const auto colon = listen.rfind(':');
  int port = -1;
  if (colon != std::string_view::npos) {
    const std::string_view digits = listen.substr(colon + 1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (ec != std::errc{} || end != digits.data() + digits.size()) port = -1;
  }
  if (colon == std::string_view::npos || colon == 0 || port < 0 || port > 65535)
    throw config_error("--listen", std::string{listen}, "must be HOST:PORT with a port from 0 to 65535");
  std::string host{listen.substr(0, colon)};
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return {"http", host, port, "http://" + std::string{listen}};
}

}  // namespace

std::vector<rest_listener> listeners_to_open(std::string_view listen, const rest_settings& rest) {
  if (!listen.empty()) return {parse_listen(listen)};
  if (!rest.listeners.empty()) return rest.listeners;
  return {parse_listen(default_listen)};
}

bool is_loopback_host(std::string_view host) {
  return host == "localhost" || host == "::1" || host.starts_with("127.");
}

std::string display_host(std::string_view host) {
  if (host.empty()) return "0.0.0.0";
  if (host.find(':') != std::string_view::npos) return "[" + std::string{host} + "]";
  return std::string{host};
}

std::vector<std::string> exposure_warnings(const std::vector<rest_listener>& listeners, const rest_settings& rest) {
  std::vector<std::string> warnings;
  for (const auto& l : listeners) {
    if (l.scheme != "http" || is_loopback_host(l.host)) continue;
    std::string what = l.url + " serves plain HTTP to other hosts";
    what += rest.basic_auth ? ": Basic auth credentials cross the network unencrypted"
                            : " without authentication: anyone who can reach it reads every connector's and task's "
                              "status and trace (traces often hold credentials), the worker ids and the metrics";
    what += ". Listen on 127.0.0.1, or use an https:// listener";
    what += rest.basic_auth ? "" : " with Basic auth (rest.extension.classes)";
    warnings.push_back(what + "; docs/security.md");
  }
  return warnings;
}

}  // namespace status_store
