#pragma once
// Comparing one endpoint's answers of Connect and of status-store, parsed with order-preserving JSON.
#include "connect_worker.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace status_store::interop {

using ordered = nlohmann::ordered_json;

/// The body parsed; an empty body is null.
ordered parse(const std::string& body);

/// The object with its members in name order (for Java's HashMap order, which nobody promises).
ordered sorted_object(const ordered& object);

struct compared {
  rest_answer connect, store;
  std::string connect_json, store_json;  // normalised, dumped again
};

/// Asks both services until the normalised bodies agree (each reads the topic at its own pace) or
/// 15 s pass; returns the last answers either way, for the test to assert on.
compared ask_both(int connect_port, int store_port, const std::string& method, const std::string& path,
                  const std::function<void(ordered&)>& normalise_connect,
                  const std::function<void(ordered&)>& normalise_store);

}  // namespace status_store::interop
