#include "config/webhook_url.hpp"

#include "config/ascii.hpp"
#include "config/kafka_value_parsing.hpp"
#include "config/rest_settings_parts.hpp"

#include <array>

namespace status_store {

namespace {

constexpr std::string_view printable_rule = "Must be printable ASCII without spaces (percent-encode other characters)";
constexpr std::string_view scheme_rule = "Must start with http:// or https://";
constexpr std::string_view port_rule = "Must give a port in [1, 65535] after the host's ':'";

// Headers the sender writes itself: a second one would make the request ambiguous or wrong.
constexpr std::array<std::string_view, 5> reserved_headers{"host", "content-type", "content-length",
                                                           "transfer-encoding", "connection"};

bool is_token_char(char c) {
  return is_ascii_alnum(c) || std::string_view{"!#$%&'*+-.^_`|~"}.find(c) != std::string_view::npos;
}

bool is_host_char(char c, bool ipv6) {
  if (ipv6) return is_ascii_alnum(c) || c == ':' || c == '.';
  return is_ascii_alnum(c) || c == '-' || c == '.' || c == '_';
}

/// The port after a host's ':', checked; throws with the port rule.
std::string port_of(std::string_view key, std::string_view value, std::string_view port) {
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string_view::npos)
    throw invalid(key, value, std::string{port_rule});
  const int number = std::stoi(std::string{port});
  if (number < 1 || number > 65535) throw invalid(key, value, std::string{port_rule});
  return std::string{port};
}

/// Host and port of the authority (what lies between "//" and the path).
void split_authority(std::string_view key, std::string_view value, std::string_view authority, webhook_url& url) {
  std::string_view port;
  bool has_port = false;
  if (authority.starts_with('[')) {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) throw invalid(key, value, "Must close an IPv6 address with ']'");
    url.host = std::string{authority.substr(1, close - 1)};
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty() && after.front() != ':') throw invalid(key, value, std::string{port_rule});
    has_port = !after.empty();
    if (has_port) port = after.substr(1);
  } else {
    const auto colon = authority.rfind(':');
    url.host = std::string{authority.substr(0, colon)};
    has_port = colon != std::string_view::npos;
    if (has_port) port = authority.substr(colon + 1);
  }
  const bool ipv6 = authority.starts_with('[');
  if (url.host.empty()) throw invalid(key, value, "Must name a host after the scheme");
  for (const char c : url.host)
    if (!is_host_char(c, ipv6)) throw invalid(key, value, "Must name a host of letters, digits, '-', '.' and '_'");
  url.default_port = !has_port;
  url.port = has_port ? port_of(key, value, port) : (url.tls() ? "443" : "80");
}

}  // namespace

std::string webhook_url::host_header() const {
  const std::string name = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return default_port ? name : name + ":" + port;
}

std::string webhook_url::origin() const {
  const std::string name = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return scheme + "://" + name + ":" + port;
}

webhook_url parse_webhook_url(std::string_view key, std::string_view value) {
  for (const char c : value)
    if (static_cast<unsigned char>(c) <= ' ' || static_cast<unsigned char>(c) >= 0x7f)
      throw invalid(key, value, std::string{printable_rule});
  const auto separator = value.find("://");
  if (separator == std::string_view::npos) throw invalid(key, value, std::string{scheme_rule});
  webhook_url url;
  url.scheme = ascii_lowercase(value.substr(0, separator));
  if (url.scheme != "http" && url.scheme != "https") throw invalid(key, value, std::string{scheme_rule});
  const std::string_view rest = value.substr(separator + 3);
  if (rest.find('#') != std::string_view::npos)
    throw invalid(key, value, "Must not have a fragment ('#'): it is never sent");
  const auto path = rest.find_first_of("/?");
  const std::string_view authority = rest.substr(0, path);
  if (authority.find('@') != std::string_view::npos)
    throw invalid(key, value,
                  "Must not carry user info (user:password@host): give credentials in status.alert.webhook.headers");
  split_authority(key, value, authority, url);
  url.target = path == std::string_view::npos ? "/" : std::string{rest.substr(path)};
  if (url.target.front() == '?') url.target.insert(0, "/");
  return url;
}

std::vector<std::pair<std::string, std::string>> parse_webhook_headers(std::string_view key, std::string_view value) {
  std::vector<std::pair<std::string, std::string>> headers;
  if (value.empty()) return headers;
  const std::vector<std::string> items = rest_parts::parse_list(value);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string entry = "entry " + std::to_string(i + 1);
    const auto rule = [&](const std::string& why) {
      return invalid(key, value, "Each entry must be 'Name: value' with an HTTP token as its name (" + why + ")");
    };
    const auto colon = items[i].find(':');
    if (colon == std::string::npos) throw rule(entry + " has no ':'");
    const std::string name{java_trim(std::string_view{items[i]}.substr(0, colon))};
    const std::string text{java_trim(std::string_view{items[i]}.substr(colon + 1))};
    if (name.empty()) throw rule(entry + " has no name");
    for (const char c : name)
      if (!is_token_char(c)) throw rule(entry + "'s name is not an HTTP token");
    for (const std::string_view reserved : reserved_headers)
      if (ascii_lowercase(name) == reserved) throw rule(entry + " is " + name + ", which the alert sender sets itself");
    if (text.empty()) throw rule(entry + " has an empty value");
    for (const char c : text)
      if ((static_cast<unsigned char>(c) < ' ' && c != '\t') || c == 0x7f)
        throw rule(entry + "'s value has a control character");
    headers.emplace_back(name, text);
  }
  return headers;
}

}  // namespace status_store
