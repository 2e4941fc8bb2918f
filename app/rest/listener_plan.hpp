#pragma once
// Which listeners `status-store run` opens, and what it warns about before it does: --listen (one plain
// listener) over Connect's `listeners` over the loopback default. Pure, so the rules are unit-tested.
// See docs/http-service.md.
#include "config/rest_settings.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace status_store {

/// The listener of status-store's own default: plain HTTP on loopback only.
inline constexpr std::string_view default_listen = "127.0.0.1:8083";

/// `listen` (HOST:PORT from --listen; empty when not given) replaces `listeners`; with neither, the
/// default. Throws config_error naming --listen for a malformed value.
std::vector<rest_listener> listeners_to_open(std::string_view listen, const rest_settings& rest);

/// True for 127.0.0.0/8, ::1 and "localhost": addresses only this machine reaches.
bool is_loopback_host(std::string_view host);

/// The host as a URL shows it: every interface as 0.0.0.0, an IPv6 address in brackets.
std::string display_host(std::string_view host);

/// One warning per plain-HTTP listener that other hosts can reach while no authentication is asked:
/// anyone there reads traces (which often hold credentials), worker ids and metrics.
std::vector<std::string> exposure_warnings(const std::vector<rest_listener>& listeners, const rest_settings& rest);

}  // namespace status_store
