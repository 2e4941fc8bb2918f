// libFuzzer target: the service's request routing (app/http_routes.hpp) on arbitrary request
// targets, as any client on the network may send them.
//
// Checked, besides "no crash, no sanitizer report":
//   - route_http_request never throws, and answers either a route or an error.
//   - A route is only for GET or HEAD; its connector name (status, topics) is non-empty valid UTF-8.
//   - An error is a 400, 404 or 405 with a non-empty message that is valid UTF-8 — never a 5xx and
//     never the request's own bytes.
//   - Percent-encoding every byte of the input and routing it as a connector name gives back the
//     input exactly when it is non-empty valid UTF-8, and a 400 otherwise.
//   - A probe (what the service answers on its I/O threads and beyond its connection bound) is only
//     ever GET or HEAD of /health or /healthz: the input taken as a target, with each method.
#include "app/http_routes.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace status_store;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail) {
  std::fprintf(stderr, "http_routes_fuzz: property violated: %s\n  detail: ", what);
  std::fwrite(detail.data(), 1, detail.size(), stderr);
  std::fputc('\n', stderr);
  std::abort();
}

void check(std::string_view method, std::string_view target) {
  const http_route r = route_http_request(method, target);
  if (r.endpoint == http_endpoint::error) {
    if (r.status != 400 && r.status != 404 && r.status != 405) fail("an error is 400, 404 or 405", target);
    if (r.message.empty() || !is_valid_utf8(r.message)) fail("an error message is valid UTF-8", target);
    return;
  }
  if (r.endpoint == http_endpoint::reset_connector_topics ? method != "PUT" : method != "GET" && method != "HEAD")
    fail("only GET and HEAD are routed, and PUT for the topics reset", method);
  const bool named = r.endpoint == http_endpoint::connector_status || r.endpoint == http_endpoint::connector_topics ||
                     r.endpoint == http_endpoint::task_status || r.endpoint == http_endpoint::reset_connector_topics;
  if (named && (r.connector.empty() || !is_valid_utf8(r.connector))) fail("a connector name is valid UTF-8", target);
  if (!named && !r.connector.empty()) fail("only connector endpoints carry a name", target);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static constexpr std::string_view methods[] = {"GET", "HEAD", "POST", "PUT", "DELETE", "get", ""};
  const std::string_view input{reinterpret_cast<const char*>(data), size};
  const std::string_view method = size > 0 ? methods[data[0] % std::size(methods)] : "GET";
  check(method, input.empty() ? input : input.substr(1));
  check("GET", input);

  static constexpr char hex[] = "0123456789ABCDEF";
  std::string encoded = "/connectors/";
  for (const unsigned char c : input) {
    encoded += '%';
    encoded += hex[c >> 4];
    encoded += hex[c & 15];
  }
  encoded += "/status";
  const http_route r = route_http_request("GET", encoded);
  if (!input.empty() && is_valid_utf8(input)) {
    if (r.endpoint != http_endpoint::connector_status || r.connector != input)
      fail("an encoded valid name routes back to itself", input);
  } else if (r.endpoint != http_endpoint::error || (r.status != 400 && !input.empty()) ||
             (input.empty() && r.status != 404)) {
    fail("an encoded invalid name is a 400 (an empty one a 404)", input);
  }
  std::string decoded;
  if (!percent_decode(encoded, false, decoded)) fail("a fully encoded target decodes", input);

  for (const std::string_view method : {"GET", "HEAD", "PUT", "POST"}) {
    if (!is_probe_request(method, input)) continue;
    std::string path;  // segments are decoded one by one, so "%2F" would not be a probe: decode whole
    if (!percent_decode(input.substr(0, input.find('?')), false, path) || (method != "GET" && method != "HEAD") ||
        (path != "/health" && path != "/healthz"))
      fail("only GET or HEAD of /health or /healthz is a probe", input);
  }
  return 0;
}
