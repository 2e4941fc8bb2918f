#pragma once
// The endpoints of `status-store run`: Connect's REST API where Connect has the endpoint (same paths,
// bodies and codes), and /metrics, /healthz and the history and flapping under /status-store/v1/ of
// our own. Each request is routed by
// route_http_request (app/http_routes.hpp), checked by the request gate (Basic auth, CORS), then
// answered by one member function per endpoint. Until attach() the store is still replaying its
// topic: /health says "starting" and the other endpoints answer 503. See docs/http-service.md.
#include "app/http_routes.hpp"
#include "app/rest/http_listener.hpp"
#include "app/rest/request_gate.hpp"
#include "config/rest_settings.hpp"
#include "config/worker_config.hpp"

#include <atomic>
#include <string>

namespace status_store {

class store;

struct server_info {
  std::string version;  // status-store's own
  std::string commit;   // the source's git commit, or "unknown" (Connect's AppInfoParser default)
};

class rest_api {
 public:
  rest_api(const worker_config& config, const rest_settings& settings, server_info info);

  /// The store is started (its replay done): every endpoint is served from it. The store must stay
  /// alive until detach().
  void attach(store& s) { store_.store(&s, std::memory_order_release); }
  /// Before the store stops: what follows is answered as while starting.
  void detach() { store_.store(nullptr, std::memory_order_release); }

  /// What the listener answers inline and on its health lane.
  static bool is_probe(std::string_view method, std::string_view target) { return is_probe_request(method, target); }
  http_response handle(const http_request& request) const;

  /// The listener's handlers, bound to this API (which must outlive the listener).
  http_handlers handlers() const;

 private:
  http_response serve(const http_route& route, store* s) const;

  // ---- one per endpoint ----------------------------------------------------------------------------
  http_response root(store& s) const;
  http_response health(store* s) const;
  http_response healthz(store* s) const;
  http_response connectors(const http_route& route, store& s) const;
  http_response connectors_in_state(const http_route& route, store& s) const;
  http_response connector_status(const http_route& route, store& s) const;
  http_response task_status(const http_route& route, store& s) const;
  http_response connector_topics(const http_route& route, store& s) const;
  http_response reset_connector_topics(const http_route& route, store& s) const;
  http_response metrics(store& s) const;
  // ours, under /status-store/v1/
  http_response connector_history(const http_route& route, store& s) const;
  http_response task_history(const http_route& route, store& s) const;
  http_response flapping(store& s) const;

  const worker_config& config_;
  request_gate gate_;
  server_info info_;
  std::atomic<store*> store_{nullptr};
};

}  // namespace status_store
