#pragma once
// Connect's two topic-tracking switches on the REST side: which active-topics requests the worker
// configuration refuses, and with which of ConnectorsResource's 403 messages. Pure, so the order of
// the checks (tracking off is reported before reset off) is unit-tested apart from the service.
#include "app/http_routes.hpp"

#include <optional>
#include <string_view>

namespace status_store {

/// The message of Connect 4.4's 403 for `endpoint`, or nothing when the request is served:
/// "Topic tracking is disabled." for GET /connectors/{name}/topics and PUT …/topics/reset when
/// `tracking_enabled` is false (topic.tracking.enable), checked first; "Topic tracking reset is
/// disabled." for the reset when only `reset_allowed` is false (topic.tracking.allow.reset).
std::optional<std::string_view> topic_tracking_refusal(http_endpoint endpoint, bool tracking_enabled,
                                                       bool reset_allowed);

}  // namespace status_store
