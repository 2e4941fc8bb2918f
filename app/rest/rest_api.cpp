#include "app/rest/rest_api.hpp"

#include "app/connector_states.hpp"
#include "app/history_format.hpp"
#include "app/listener_metrics.hpp"
#include "app/overview_json.hpp"
#include "app/prometheus_text.hpp"
#include "app/status_json.hpp"
#include "app/store/store.hpp"
#include "app/topic_tracking_gate.hpp"
#include "app/ui_assets.hpp"
#include "config/logging.hpp"

#include "caf/send.hpp"

#include <nlohmann/json.hpp>

namespace status_store {

namespace {

using ordered_json = nlohmann::ordered_json;

std::string dump(const ordered_json& j) { return j.dump(-1, ' ', false, ordered_json::error_handler_t::replace); }

http_response json_reply(int status, std::string body) { return {status, "application/json", std::move(body), {}}; }
http_response error_reply(int status, std::string_view message) {
  return json_reply(status, http_error_json(status, message));
}

// Connect's WorkerStatus (KIP-1017), its sentences followed by our details.
http_response worker_status(int code, std::string_view status, std::string message) {
  return json_reply(code, dump(ordered_json{{"status", status}, {"message", std::move(message)}}));
}

}  // namespace

rest_api::rest_api(const worker_config& config, const rest_settings& settings, server_info info)
    : config_{config}, gate_{settings}, info_{std::move(info)} {}

http_handlers rest_api::handlers() const {
  return {&rest_api::is_probe, [this](const http_request& request) { return handle(request); },
          [this](std::shared_ptr<event_stream_sink> sink) { return attach_event_stream(std::move(sink)); }};
}

std::function<void()> rest_api::attach_event_stream(std::shared_ptr<event_stream_sink> sink) const {
  if (store_.load(std::memory_order_acquire) == nullptr) return {};  // stopping: the stream just ends
  const uint64_t id = next_stream_id_++;
  caf::anon_send(hub_, join_atom_v, event_stream_port{id, std::move(sink)});
  // A stream may end after detach() (its connection is destroyed with the listener): then the hub is
  // gone or going, and nothing is sent.
  return [this, id] {
    if (store_.load(std::memory_order_acquire) != nullptr) caf::anon_send(hub_, leave_atom_v, id);
  };
}

http_response rest_api::handle(const http_request& request) const {
  const bool probe = is_probe(request.method, request.target);
  if (auto refusal = gate_.refuse(request, probe)) return std::move(*refusal);
  http_response response;
  http_route route = route_http_request(request.method, request.target);
  // GET / is Connect's ServerInfo, unless a browser asks for the page (app/ui_assets.hpp).
  const bool root = route.endpoint == http_endpoint::root;
  if (root && prefers_html(request.header("Accept"))) route.endpoint = http_endpoint::ui_page;
  try {
    response = serve(route, store_.load(std::memory_order_acquire));
  } catch (const std::exception& e) {
    // A query the view cannot answer in time is a 503, never a hung connection. The exception's
    // text goes to the log, not to the client.
    component_logger("http")->warn("{} {}: answered 503: {}", request.method, request.target, e.what());
    response = error_reply(503, "The status view did not answer in time; try again");
  }
  if (root) response.headers.emplace_back("Vary", "Accept");
  gate_.decorate(request, response);
  return response;
}

http_response rest_api::serve(const http_route& route, store* s) const {
  if (route.endpoint == http_endpoint::error) return error_reply(route.status, route.message);
  if (route.endpoint == http_endpoint::health) return health(s);
  if (route.endpoint == http_endpoint::healthz) return healthz(s);
  if (route.endpoint == http_endpoint::ui_page) return ui_file("index.html");
  if (route.endpoint == http_endpoint::ui_asset) return ui_file(route.asset);
  if (s == nullptr) return error_reply(503, "status-store is starting: the status topic is still being replayed");
  // topic.tracking.enable and topic.tracking.allow.reset: Connect's 403 before anything is looked up.
  if (const auto refusal =
          topic_tracking_refusal(route.endpoint, config_.topic_tracking_enable, config_.topic_tracking_allow_reset))
    return error_reply(403, *refusal);
  switch (route.endpoint) {
    case http_endpoint::root:
      return root(*s);
    case http_endpoint::connectors:
      return connectors(route, *s);
    case http_endpoint::connector_status:
      return connector_status(route, *s);
    case http_endpoint::task_status:
      return task_status(route, *s);
    case http_endpoint::connector_topics:
      return connector_topics(route, *s);
    case http_endpoint::reset_connector_topics:
      return reset_connector_topics(route, *s);
    case http_endpoint::metrics:
      return metrics(*s);
    case http_endpoint::connector_history:
      return connector_history(route, *s);
    case http_endpoint::task_history:
      return task_history(route, *s);
    case http_endpoint::flapping:
      return flapping(*s);
    case http_endpoint::overview:
      return overview(*s);
    case http_endpoint::store_metrics:
      return store_metrics(*s);
    case http_endpoint::events:
      return events();
    default:
      return error_reply(404, "HTTP 404 Not Found");
  }
}

http_response rest_api::root(store& s) const {
  // Connect's ServerInfo; kafka_cluster_id as the cluster's metadata says it (null if it did not).
  ordered_json info{{"version", info_.version}, {"commit", info_.commit}, {"kafka_cluster_id", nullptr}};
  if (!s.kafka_cluster_id().empty()) info["kafka_cluster_id"] = s.kafka_cluster_id();
  return json_reply(200, dump(info));
}

http_response rest_api::health(store* s) const {
  if (s == nullptr)
    return worker_status(503, "starting", "Worker is still starting up. The status topic is being replayed.");
  const store_health h = s->health();
  if (h.healthy())
    return worker_status(200, "healthy", "Worker has completed startup and is ready to handle requests.");
  std::string details = h.credential_failure
                            ? "The brokers refuse the status store's credentials: " + *h.credential_failure
                            : "No broker of " + s->bootstrap_servers() + " is reachable.";
  return worker_status(
      500, "unhealthy",
      "Worker was unable to handle this request and may be unable to handle other requests. " + details);
}

http_response rest_api::healthz(store* s) const {
  // Liveness only: the process answers. The bootstrap servers are known once the store runs (the
  // embedded mock's ports are chosen at start).
  const std::string servers = s != nullptr ? s->bootstrap_servers() : config_.bootstrap_servers;
  return json_reply(
      200, dump(ordered_json{{"status", "ok"}, {"topic", config_.status_topic}, {"bootstrap_servers", servers}}));
}

http_response rest_api::connectors(const http_route& route, store& s) const {
  // Connect ignores an expansion type it does not know; "info" (connector configurations, which a
  // status store does not have) is ignored the same way rather than invented.
  if (route.state) return connectors_in_state(route, s);
  if (route.expand_status) return json_reply(200, connectors_with_status_json(s.describe_all()));
  if (route.expand) return json_reply(200, connectors_without_expansions_json(s.connectors()));
  return json_reply(200, connectors_json(s.connectors()));
}

http_response rest_api::connectors_in_state(const http_route& route, store& s) const {
  // ?state= is ours: the same shapes as without it, from one pass over the view, for the connectors
  // whose own state or a task's is the one asked (so a degraded connector is listed under FAILED).
  const auto views = with_state(s.describe_all(), *route.state);
  std::vector<std::string> names;
  for (const auto& v : views) names.push_back(v.name);
  if (route.expand_status) return json_reply(200, connectors_with_status_json(views));
  if (route.expand) return json_reply(200, connectors_without_expansions_json(names));
  return json_reply(200, connectors_json(names));
}

http_response rest_api::connector_status(const http_route& route, store& s) const {
  const auto view = s.describe(route.connector);
  if (!view.found)  // as Connect: the connector's own status is required
    return error_reply(404, "No status found for connector " + view.name);
  return json_reply(200, connector_status_json(view));
}

http_response rest_api::task_status(const http_route& route, store& s) const {
  // One task from the view, not the whole connector described and searched.
  const auto task = s.get(route.connector, route.task);
  if (!task)  // Connect's words for a task without a status
    return error_reply(404, "No status found for task " + route.connector + "-" + std::to_string(route.task));
  return json_reply(200, task_status_json(*task));
}

http_response rest_api::connector_topics(const http_route& route, store& s) const {
  return json_reply(200, connector_topics_json(s.describe(route.connector)));
}

http_response rest_api::reset_connector_topics(const http_route& route, store& s) const {
  // As AbstractHerder: a tombstone per topic the view knows, through the store (retried and counted
  // like any delete_topic); 202 with no body, also for a connector without topics.
  const auto topics = s.get_all_topics(route.connector);
  for (const auto& topic : topics) s.delete_topic(route.connector, topic.topic);
  component_logger("http")->info("topics reset for connector '{}': {} topic status(es) deleted", route.connector,
                                 topics.size());
  return {202, "application/json", {}, {}};
}

http_response rest_api::metrics(store& s) const {
  // The counters, the event streams' counts, then the per-state series from one pass over the view
  // and the history's per connector from one more (both bounded by its keys).
  return {200,
          "text/plain; version=0.0.4; charset=utf-8",
          prometheus_text(s.metrics()) +
              prometheus_text(listener_samples(listener_counts_ ? listener_counts_() : listener_counts{})) +
              prometheus_state_text(s.describe_all()) + prometheus_history_text(s.counts_by_connector()),
          {}};
}

// Ours. A connector or task is unknown, Connect's 404, when the view holds neither a status of its own
// nor a transition of it (with status.history.max.transitions=0 a known one answers an empty list).
http_response rest_api::connector_history(const http_route& route, store& s) const {
  const key_history h = s.history(route.connector);
  if (h.transitions.empty() && !s.describe(route.connector).found)
    return error_reply(404, "No status found for connector " + route.connector);
  return json_reply(200, history_json({route.connector, std::nullopt}, h));
}

http_response rest_api::task_history(const http_route& route, store& s) const {
  const key_history h = s.history(route.connector, route.task);
  if (h.transitions.empty() && !s.get(route.connector, route.task))
    return error_reply(404, "No status found for task " + route.connector + "-" + std::to_string(route.task));
  return json_reply(200, history_json({route.connector, route.task}, h));
}

http_response rest_api::flapping(store& s) const {
  return json_reply(200, flapping_json(s.flapping(), config_.flap_threshold, config_.flap_window_ms));
}

http_response rest_api::overview(store& s) const {
  return json_reply(200, overview_json(s.overview(), config_.flap_threshold, config_.flap_window_ms));
}

http_response rest_api::store_metrics(store& s) const {
  return json_reply(200, store_metrics_json(s.metrics(), listener_counts_ ? listener_counts_() : listener_counts{}));
}

http_response rest_api::events() const {
  // The listener turns this into a stream (app/rest/event_stream_session.hpp); the body is its first
  // lines: reconnect after a second, and a comment so the client sees the stream open at once.
  return {200,
          "text/event-stream; charset=utf-8",
          "retry: 1000\n: status-store events: one per status record read\n\n",
          {{"Cache-Control", "no-store"}, {"X-Accel-Buffering", "no"}},
          true};
}

http_response rest_api::ui_file(std::string_view name) const {
  const auto asset = find_ui_asset(name);
  if (!asset) return error_reply(404, "HTTP 404 Not Found");
  // Names and traces on the page are anyone's bytes: it writes them as text only, and this policy
  // forbids inline script and any origin but this one, should a bug ever let markup through.
  return {200,
          std::string{asset->content_type},
          std::string{asset->body},
          {{"Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
            "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
           {"X-Content-Type-Options", "nosniff"},
           {"Referrer-Policy", "no-referrer"},
           {"Cache-Control", "no-cache"}}};
}

}  // namespace status_store
