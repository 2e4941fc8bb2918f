#include "config/kafka_names.hpp"

#include "config/ascii.hpp"
#include "config/kafka_value_parsing.hpp"

#include <algorithm>

namespace status_store {

void require_legal_topic_name(std::string_view key, std::string_view topic) {
  constexpr std::size_t max_topic_length = 249;
  if (topic == "." || topic == "..") throw invalid(key, topic, "Topic name cannot be \".\" or \"..\"");
  if (topic.size() > max_topic_length) {
    throw invalid(key, topic,
                  "Topic name is illegal, it can't be longer than 249 characters, topic name: " + std::string{topic});
  }
  for (const char c : topic) {
    const bool legal = is_ascii_alnum(c) || c == '.' || c == '_' || c == '-';
    if (!legal) {
      throw invalid(key, topic,
                    "Topic name \"" + std::string{topic} +
                        "\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'");
    }
  }
}

std::string normalize_server_list(std::string_view list) {
  std::string normalized;
  while (true) {
    const std::size_t comma = std::min(list.find(','), list.size());
    const std::string_view server = java_trim(list.substr(0, comma));
    if (!server.empty()) {
      if (!normalized.empty()) normalized += ',';
      normalized += server;
    }
    if (comma == list.size()) break;
    list.remove_prefix(comma + 1);
  }
  return normalized;
}

}  // namespace status_store
