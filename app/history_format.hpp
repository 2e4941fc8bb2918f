#pragma once
// How the executable shows the past (docs/operations.md): a connector's or task's transitions and the
// keys that flap, as lines for an operator and as the JSON of `--json` and of the service's
// /status-store/v1/ endpoints. Pure functions, one form each, shared by the CLI and the REST API.
#include "messages/history.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace status_store {

/// Milliseconds since the epoch as ISO-8601 UTC with milliseconds: "2025-12-02T04:27:29.123Z".
std::string iso8601_utc(int64_t ms);

/// What a history is about: a connector, or one of its tasks.
struct history_subject {
  std::string connector;
  std::optional<int32_t> task;
};

/// A header line (the subject, how many transitions, how far back the store's history reaches), then
/// one line per transition, oldest first: timestamp, state, worker id, generation, "(this store)"
/// when this store wrote it, and the trace's first line.
std::vector<std::string> history_text_lines(const history_subject& subject, const key_history& history);

/// {"connector":…[,"task":…],"reaches_back_to":"…Z"|null,"reaches_back_to_ms":…|null,
///  "transitions":[{"timestamp":"…Z","timestamp_ms":…,"state":…,"worker_id":…,"generation":…,
///  "trace":…|null,"written_by_this_store":…}]} — `history --json` and the history endpoints.
std::string history_json(const history_subject& subject, const key_history& history);

/// One line per flapping key ("task my-src-0 flapping since …Z"), then how many.
std::vector<std::string> flapping_text_lines(const std::vector<flapping_key>& keys);

/// One JSON object per flapping key and line: {"key":…,"type":"connector"|"task","connector":…
/// [,"task":…],"since":"…Z","since_ms":…} — `list --flapping --json`.
std::vector<std::string> flapping_lines_json(const std::vector<flapping_key>& keys);

/// {"threshold":…,"window_ms":…,"flapping":[…the objects above…]} — GET /status-store/v1/flapping.
std::string flapping_json(const std::vector<flapping_key>& keys, int32_t threshold, int64_t window_ms);

}  // namespace status_store
