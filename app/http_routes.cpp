#include "app/http_routes.hpp"

#include "app/connector_states.hpp"

#include <cstdint>
#include <iterator>
#include <optional>
#include <vector>

namespace status_store {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

http_route error(int status, std::string message) {
  http_route route;
  route.status = status;
  route.message = std::move(message);
  return route;
}

// Connect's (Jersey's) bodies for an unknown path and a wrong method.
http_route not_found() { return error(404, "HTTP 404 Not Found"); }
http_route not_allowed() { return error(405, "HTTP 405 Method Not Allowed"); }

/// A task id as JAX-RS reads an Integer path parameter: digits only, at most INT32_MAX.
std::optional<int32_t> task_id(const std::string& id) {
  int64_t task = 0;
  if (id.empty() || id.size() > 10 || id.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  for (char c : id) task = task * 10 + (c - '0');
  if (task > INT32_MAX) return std::nullopt;
  return static_cast<int32_t>(task);
}

/// The endpoints under /status-store/v1/: `rest` holds the segments after "status-store", "v1".
http_route route_own(std::vector<std::string>& rest) {
  http_route route;
  const size_t n = rest.size();
  if (n == 1 && rest[0] == "flapping") {
    route.endpoint = http_endpoint::flapping;
  } else if (n == 1 && rest[0] == "overview") {
    route.endpoint = http_endpoint::overview;
  } else if (n == 1 && rest[0] == "metrics") {
    route.endpoint = http_endpoint::store_metrics;
  } else if (n == 1 && rest[0] == "events") {
    route.endpoint = http_endpoint::events;
  } else if (n == 3 && rest[0] == "connectors" && !rest[1].empty() && rest[2] == "history") {
    route.endpoint = http_endpoint::connector_history;
    route.connector = std::move(rest[1]);
  } else if (n == 5 && rest[0] == "connectors" && !rest[1].empty() && rest[2] == "tasks" && rest[4] == "history") {
    const auto task = task_id(rest[3]);
    if (!task) return not_found();
    route.endpoint = http_endpoint::task_history;
    route.connector = std::move(rest[1]);
    route.task = *task;
  } else {
    return not_found();
  }
  return route;
}

}  // namespace

bool is_probe_request(std::string_view method, std::string_view target) {
  const http_endpoint endpoint = route_http_request(method, target).endpoint;
  return endpoint == http_endpoint::health || endpoint == http_endpoint::healthz;
}

bool is_valid_utf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte (RFC 3629, table 3-7)
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // no overlong forms
      if (c == 0xED) hi = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;  // no overlong forms
      if (c == 0xF4) hi = 0x8F;  // nothing past U+10FFFF
    } else {
      return false;  // a continuation byte first, C0/C1 (overlong) or F5..FF
    }
    if (n - i < len || s[i + 1] < lo || s[i + 1] > hi) return false;
    for (size_t k = 2; k < len; ++k)
      if (s[i + k] < 0x80 || s[i + k] > 0xBF) return false;
    i += len;
  }
  return true;
}

bool percent_decode(std::string_view text, bool plus_is_space, std::string& out) {
  out.clear();
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      if (text.size() - i < 3) return false;
      const int high = hex_value(text[i + 1]), low = hex_value(text[i + 2]);
      if (high < 0 || low < 0) return false;
      out += static_cast<char>(high * 16 + low);
      i += 2;
    } else {
      out += plus_is_space && c == '+' ? ' ' : c;
    }
  }
  return true;
}

http_route route_http_request(std::string_view method, std::string_view target) {
  const auto question = target.find('?');
  const std::string_view path = target.substr(0, question);
  bool expand = false, expand_status = false;
  std::optional<std::string> state;  // ?state=, checked once the path is known to be /connectors
  if (question != std::string_view::npos) {
    // Each name=value pair is decoded on its own; a query with broken bytes is refused like a broken
    // path. Only /connectors reads one: expand (repeatable, as JAX-RS reads a list). As in Connect, any
    // expand asks for the map form, also "expand" alone; values other than "status" add nothing to it.
    for (std::string_view query = target.substr(question + 1); !query.empty();) {
      const size_t amp = query.find('&');
      const std::string_view pair = query.substr(0, amp);
      query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
      const size_t eq = pair.find('=');
      std::string name, value;
      if (!percent_decode(pair.substr(0, eq), true, name) ||
          (eq != std::string_view::npos && !percent_decode(pair.substr(eq + 1), true, value)))
        return error(400, "Malformed percent-encoding in the request query");
      if (!is_valid_utf8(name) || !is_valid_utf8(value)) return error(400, "The request query is not valid UTF-8");
      if (name == "expand") {
        expand = true;
        expand_status = expand_status || value == "status";
      } else if (name == "state") {
        state = std::move(value);  // given twice, the last counts
      }
    }
  }
  if (path.empty() || path.front() != '/') return error(400, "The request path must start with '/'");

  std::vector<std::string> segments;
  for (size_t begin = 1;;) {
    const size_t slash = path.find('/', begin);
    std::string segment;
    if (!percent_decode(path.substr(begin, slash == std::string_view::npos ? path.npos : slash - begin), false,
                        segment))
      return error(400, "Malformed percent-encoding in the request path");
    if (!is_valid_utf8(segment)) return error(400, "The request path is not valid UTF-8");
    segments.push_back(std::move(segment));
    if (slash == std::string_view::npos) break;
    begin = slash + 1;
  }

  http_route route;
  const size_t n = segments.size();
  if (n == 1 && segments[0].empty()) {
    route.endpoint = http_endpoint::root;
  } else if (n == 1 && segments[0] == "connectors") {
    route.endpoint = http_endpoint::connectors;
    route.expand = expand;
    route.expand_status = expand_status;
    if (state) {
      route.state = parse_reported_state(*state);
      if (!route.state)  // a fixed message, never the request's bytes
        return error(400, "Unknown state in the query parameter 'state': must be one of " +
                              std::string{reported_state_names} + " (any case)");
    }
  } else if (n == 5 && segments[0] == "connectors" && !segments[1].empty() && segments[2] == "tasks" &&
             segments[4] == "status") {
    // JAX-RS reads {task} as an Integer: anything else matches no route.
    const auto task = task_id(segments[3]);
    if (!task) return not_found();
    route.endpoint = http_endpoint::task_status;
    route.connector = std::move(segments[1]);
    route.task = *task;
  } else if (n == 3 && segments[0] == "connectors" && !segments[1].empty() &&
             (segments[2] == "status" || segments[2] == "topics")) {
    route.endpoint = segments[2] == "status" ? http_endpoint::connector_status : http_endpoint::connector_topics;
    route.connector = std::move(segments[1]);
  } else if (n == 4 && segments[0] == "connectors" && !segments[1].empty() && segments[2] == "topics" &&
             segments[3] == "reset") {
    route.endpoint = http_endpoint::reset_connector_topics;
    route.connector = std::move(segments[1]);
  } else if (n == 1 && segments[0] == "metrics") {
    route.endpoint = http_endpoint::metrics;
  } else if (n == 1 && segments[0] == "health") {
    route.endpoint = http_endpoint::health;
  } else if (n == 1 && segments[0] == "healthz") {
    route.endpoint = http_endpoint::healthz;
  } else if (segments[0] == "ui" && (n == 1 || (n == 2 && segments[1].empty()))) {
    route.endpoint = http_endpoint::ui_page;
  } else if (n == 2 && segments[0] == "ui") {
    route.endpoint = http_endpoint::ui_asset;  // rest_api answers 404 for a name it does not embed
    route.asset = std::move(segments[1]);
  } else if (n >= 3 && segments[0] == "status-store" && segments[1] == "v1") {
    std::vector<std::string> rest(std::make_move_iterator(segments.begin() + 2),
                                  std::make_move_iterator(segments.end()));
    route = route_own(rest);
    if (route.endpoint == http_endpoint::error) return route;
  } else {
    return not_found();
  }
  // The reset is Connect's only PUT here; every other route is read-only.
  const bool allowed =
      route.endpoint == http_endpoint::reset_connector_topics ? method == "PUT" : method == "GET" || method == "HEAD";
  if (!allowed) return not_allowed();
  return route;
}

}  // namespace status_store
