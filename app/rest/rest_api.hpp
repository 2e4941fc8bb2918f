#pragma once
// The endpoints of `status-store run`: Connect's REST API where Connect has the endpoint (same paths,
// bodies and codes), and /metrics, /healthz, the history, flapping, overview, metrics and event stream
// under /status-store/v1/ and the status page under /ui of our own. Each request is routed by
// route_http_request (app/http_routes.hpp), checked by the request gate (Basic auth, CORS), then
// answered by one member function per endpoint. Until attach() the store is still replaying its
// topic: /health says "starting" and the other endpoints answer 503. See docs/http-service.md.
#include "app/http_routes.hpp"
#include "app/rest/http_listener.hpp"
#include "app/rest/request_gate.hpp"
#include "config/rest_settings.hpp"
#include "config/worker_config.hpp"
#include "messages/protocol.hpp"

#include <atomic>
#include <functional>
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

  /// The store is started (its replay done): every endpoint is served from it, the event streams from
  /// `hub` (subscribed to its view). Both must stay alive until detach().
  void attach(store& s, event_hub_actor hub) {
    hub_ = std::move(hub);
    store_.store(&s, std::memory_order_release);  // publishes hub_ with it
  }
  /// Before the store stops, once the listener has stopped: what follows is answered as while starting,
  /// and no handle on the store's actors is kept past it.
  void detach() {
    store_.store(nullptr, std::memory_order_release);
    hub_ = nullptr;
  }

  /// What the listener answers inline and on its health lane.
  static bool is_probe(std::string_view method, std::string_view target) { return is_probe_request(method, target); }
  http_response handle(const http_request& request) const;

  /// The listener's handlers, bound to this API (which must outlive the listener).
  http_handlers handlers() const;

  /// Where GET /status-store/v1/metrics reads the event streams' counts (the listener's). Set before
  /// the listener starts.
  void set_listener_counts(std::function<listener_counts()> counts) { listener_counts_ = std::move(counts); }

 private:
  http_response serve(const http_route& route, store* s) const;
  /// A new event stream joins the hub; returns what makes it leave.
  std::function<void()> attach_event_stream(std::shared_ptr<event_stream_sink> sink) const;

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
  http_response overview(store& s) const;
  http_response store_metrics(store& s) const;
  http_response events() const;
  // the status page: no store needed, so it also answers while the store starts
  http_response ui_file(std::string_view name) const;

  const worker_config& config_;
  request_gate gate_;
  server_info info_;
  std::atomic<store*> store_{nullptr};
  event_hub_actor hub_;  // set by attach() before store_, reset by detach()
  std::function<listener_counts()> listener_counts_;
  mutable std::atomic<uint64_t> next_stream_id_{1};
};

}  // namespace status_store
