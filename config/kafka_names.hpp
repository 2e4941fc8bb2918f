#pragma once
// Kafka's rules for topic names and bootstrap server lists, checked at start-up so a bad value fails
// there, naming its property, instead of at topic creation or connection time.
#include <string>
#include <string_view>

namespace status_store {

/// Kafka's topic name rules (org.apache.kafka.common.internals.Topic); throws config_error for `key`.
void require_legal_topic_name(std::string_view key, std::string_view topic);

/// Kafka's LIST type splits at commas and trims every element; the client then skips empty ones.
/// The client library is given the same list without the whitespace.
std::string normalize_server_list(std::string_view list);

}  // namespace status_store
