#include "app/topic_tracking_gate.hpp"

namespace status_store {

std::optional<std::string_view> topic_tracking_refusal(http_endpoint endpoint, bool tracking_enabled,
                                                       bool reset_allowed) {
  const bool reset = endpoint == http_endpoint::reset_connector_topics;
  if (endpoint != http_endpoint::connector_topics && !reset) return std::nullopt;
  // ConnectorsResource's words and order: both endpoints check topic.tracking.enable first.
  if (!tracking_enabled) return "Topic tracking is disabled.";
  if (reset && !reset_allowed) return "Topic tracking reset is disabled.";
  return std::nullopt;
}

}  // namespace status_store
