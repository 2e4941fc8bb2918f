#pragma once
// The service's routing as a pure function of the request method and raw target, free of any HTTP
// library so it can be unit-tested and fuzzed. Each path segment is percent-decoded on its own (so
// "%2F" stays inside a connector name, as in Connect's JAX-RS routes) and must be valid UTF-8, as
// must the query: anything else is a 400 with a fixed message, never an echo of the bad bytes.
#include "messages/status.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace status_store {

enum class http_endpoint {
  root,  // GET /: Connect's ServerInfo
  connectors,
  connector_status,
  task_status,
  connector_topics,
  reset_connector_topics,  // PUT /connectors/{name}/topics/reset
  metrics,
  health,   // GET /health: Connect's WorkerStatus (KIP-1017), a readiness probe
  healthz,  // GET /healthz: liveness only
  // Ours, under /status-store/v1/: every Connect path starts with one of its resources (/connectors,
  // /connector-plugins, /admin, /health, /, ...), none of them "status-store", so these can never take
  // a request meant for Connect's API (docs/http-service.md).
  connector_history,  // GET /status-store/v1/connectors/{name}/history
  task_history,       // GET /status-store/v1/connectors/{name}/tasks/{id}/history
  flapping,           // GET /status-store/v1/flapping
  overview,           // GET /status-store/v1/overview: the status page's snapshot
  store_metrics,      // GET /status-store/v1/metrics: the store's totals and the event streams', as JSON
  events,             // GET /status-store/v1/events: the event stream (text/event-stream)
  // The status page (docs/http-service.md#the-status-page): /ui, and GET / when the client asks for
  // HTML (rest_api negotiates; the route says root). No Connect path starts with /ui either.
  ui_page,   // GET /ui, /ui/
  ui_asset,  // GET /ui/{file}: the page's script and style sheet
  error
};

struct http_route {
  http_endpoint endpoint = http_endpoint::error;
  std::string connector;       // decoded, valid UTF-8; for the endpoints under /connectors/{name}
  int32_t task = -1;           // for task_status and task_history
  std::string asset;           // for ui_asset: the file's name, e.g. "app.js"
  bool expand = false;         // connectors: any ?expand parameter, known or not (Connect's map form)
  bool expand_status = false;  // connectors: ?expand=status among them (each connector's status in the map)
  // connectors: ?state=S, our filter (Connect has none): only connectors whose own state or a task's
  // is S, any case; an unknown S is a 400. Absent: Connect's answer, unchanged.
  std::optional<status_state> state;
  int status = 200;     // for error: 400, 404 or 405
  std::string message;  // for error: valid UTF-8, in Connect's wording where Connect has one
};

/// Routes GET (and HEAD) requests for /, /connectors (also ?expand=…), /connectors/{name}/status,
/// /connectors/{name}/tasks/{id}/status, /connectors/{name}/topics, /metrics, /health and /healthz, our
/// /status-store/v1/connectors/{name}/history, …/tasks/{id}/history, /status-store/v1/flapping, …/overview,
/// …/metrics and …/events, the status page's /ui and /ui/{file}, and PUT
/// /connectors/{name}/topics/reset. `target` is the request-target as sent (path and optional query,
/// still percent-encoded). Never throws for any input.
http_route route_http_request(std::string_view method, std::string_view target);

/// True for a health check (GET or HEAD of /health or /healthz, with any query): what the service
/// answers without waiting for the store, also when every connection slot is taken.
bool is_probe_request(std::string_view method, std::string_view target);

/// True if `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
bool is_valid_utf8(std::string_view text);

/// Decodes %XX escapes (and '+' as a space when `plus_is_space`); false for a malformed escape.
bool percent_decode(std::string_view text, bool plus_is_space, std::string& out);

}  // namespace status_store
