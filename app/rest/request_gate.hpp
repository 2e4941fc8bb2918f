#pragma once
// What is checked before a request reaches an endpoint, as Connect's REST server does it: Basic auth
// (BasicAuthSecurityRestExtension's JaasBasicAuthFilter) and CORS (Jetty's CrossOriginFilter driven by
// access.control.allow.origin / .methods). Pure: a request in, a refusal or headers out.
// See docs/http-service.md.
#include "app/rest/http_listener.hpp"
#include "config/rest_settings.hpp"

#include <optional>

namespace status_store {

class request_gate {
 public:
  explicit request_gate(const rest_settings& settings) : settings_{settings} {}

  /// The answer that replaces the endpoint's, if any: a CORS preflight's 204, or the 401 of a request
  /// without valid credentials (probes are never asked for credentials: they stay usable as probes).
  std::optional<http_response> refuse(const http_request& request, bool probe) const;

  /// CORS headers for an allowed Origin, added to any answer.
  void decorate(const http_request& request, http_response& response) const;

 private:
  bool origin_allowed(std::string_view origin) const;
  bool authenticated(const http_request& request) const;

  const rest_settings& settings_;
};

}  // namespace status_store
