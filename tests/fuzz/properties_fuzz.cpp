// libFuzzer target: the worker configuration (config/properties.hpp, config/worker_config.hpp) on
// arbitrary text, as an operator's file or a config management tool might produce it.
//
// Checked, besides "no crash, no sanitizer report":
//   - parse_properties never throws (every text has a meaning, as in java.util.Properties).
//   - Written back in the escaped form java.util.Properties#store uses, the parsed map parses to
//     the same map.
//   - parse_worker_config on the result either returns a configuration or throws config_error with
//     a non-empty message; any other exception is a bug. A configuration it returns is usable:
//     effective_config and the three client settings lists can be built from it, and no secret
//     value (a non-empty value of a secret key) appears in effective_config unmasked.
//   - The same text with a valid status.storage.topic prepended goes through the same checks, so the
//     fuzzer also reaches the validation behind the required topic.
#include "config/client_settings.hpp"
#include "config/config_error.hpp"
#include "config/properties.hpp"
#include "config/secret_masking.hpp"
#include "config/worker_config.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

using namespace status_store;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail) {
  std::fprintf(stderr, "properties_fuzz: property violated: %s\n  detail: ", what);
  std::fwrite(detail.data(), 1, detail.size(), stderr);
  std::fputc('\n', stderr);
  std::abort();
}

/// Properties#store's escaping (saveConvert), applied to keys and values alike: every character
/// with a meaning to the parser is escaped, everything else is written as it is.
std::string escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\f':
        out += "\\f";
        break;
      case ' ':
      case '=':
      case ':':
      case '#':
      case '!':
      case '\\':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
        break;
    }
  }
  return out;
}

void check_store_round_trip(const properties& props) {
  std::string text;
  for (const auto& [key, value] : props) text += escaped(key) + "=" + escaped(value) + "\n";
  if (parse_properties(text) != props) fail("parsed properties, stored and parsed again, differ", text);
}

void check_worker_config(const properties& props) {
  worker_config config;
  std::vector<std::string> warnings;
  try {
    config = parse_worker_config(props, &warnings);
  } catch (const config_error& e) {
    if (std::string_view(e.what()).empty()) fail("config_error without a message", e.property());
    return;
  } catch (const std::exception& e) {
    fail("parse_worker_config threw something other than config_error", e.what());
  } catch (...) {
    fail("parse_worker_config threw a non-std exception", "");
  }

  for (const auto& [key, value] : effective_config(config)) {
    if (is_secret_property(key) && value != masked_value) fail("effective_config shows a secret", key);
  }
  (void)producer_settings(config);
  (void)consumer_settings(config);
  (void)admin_settings(config);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  properties props;
  try {
    props = parse_properties(text);
  } catch (const std::exception& e) {
    fail("parse_properties threw", e.what());
  }
  check_store_round_trip(props);
  check_worker_config(props);

  // A prepended valid topic: the rest of the text can still override it (the last key wins).
  check_worker_config(parse_properties("status.storage.topic=connect-status\n" + std::string(text)));
  return 0;
}
