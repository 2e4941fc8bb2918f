#include "app/rest/request_gate.hpp"

namespace status_store {

namespace {

// Jetty's CrossOriginFilter defaults, which Connect keeps (it sets only the origins and methods).
constexpr std::string_view allowed_headers = "X-Requested-With,Content-Type,Accept,Origin";
constexpr std::string_view preflight_max_age_s = "1800";

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

/// Each comma-separated entry of `list`, trimmed.
template <class Visit>
bool any_entry(std::string_view list, Visit visit) {
  while (!list.empty()) {
    const size_t comma = list.find(',');
    if (visit(trim(list.substr(0, comma)))) return true;
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
  }
  return false;
}

/// Jetty's origin patterns: an exact origin, or one with '*' standing for any run of characters.
bool matches(std::string_view pattern, std::string_view origin) {
  const size_t star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == origin;
  const std::string_view head = pattern.substr(0, star), rest = pattern.substr(star + 1);
  if (!origin.starts_with(head)) return false;
  for (size_t at = head.size(); at <= origin.size(); ++at)
    if (matches(rest, origin.substr(at))) return true;
  return false;
}

}  // namespace

bool request_gate::origin_allowed(std::string_view origin) const {
  if (settings_.allow_origin.empty() || origin.empty()) return false;
  return any_entry(settings_.allow_origin, [&](std::string_view entry) { return matches(entry, origin); });
}

bool request_gate::authenticated(const http_request& request) const {
  const auto credentials = parse_basic_authorization(request.header("Authorization"));
  return credentials && basic_auth_accepts(*settings_.basic_auth, credentials->first, credentials->second);
}

std::optional<http_response> request_gate::refuse(const http_request& request, bool probe) const {
  const std::string_view origin = request.header("Origin");
  if (request.method == "OPTIONS" && !request.header("Access-Control-Request-Method").empty() &&
      origin_allowed(origin)) {
    // A preflight is answered before authentication: browsers send it without credentials.
    http_response preflight{204, "text/plain", {}, {}};
    const std::string_view methods =
        settings_.allow_methods.empty() ? default_cors_allow_methods : std::string_view{settings_.allow_methods};
    preflight.headers = {{"Access-Control-Allow-Methods", std::string{methods}},
                         {"Access-Control-Allow-Headers", std::string{allowed_headers}},
                         {"Access-Control-Max-Age", std::string{preflight_max_age_s}}};
    decorate(request, preflight);
    return preflight;
  }
  if (settings_.basic_auth && !probe && !authenticated(request)) {
    http_response refusal{401, "text/plain", std::string{basic_auth_failure_message}, {}};
    // Connect sends no challenge; one makes curl, browsers and proxies ask for credentials.
    refusal.headers.emplace_back("WWW-Authenticate", "Basic realm=\"status-store\", charset=\"UTF-8\"");
    return refusal;
  }
  return std::nullopt;
}

void request_gate::decorate(const http_request& request, http_response& response) const {
  const std::string_view origin = request.header("Origin");
  if (!origin_allowed(origin)) return;
  response.headers.emplace_back("Access-Control-Allow-Origin", std::string{origin});
  response.headers.emplace_back("Access-Control-Allow-Credentials", "true");
  response.headers.emplace_back("Vary", "Origin");
}

}  // namespace status_store
