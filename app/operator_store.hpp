#pragma once
// What the operator verbs share (app/operator_commands.cpp, app/history_command.cpp): the worker
// configuration with the verb's time bound, the store each verb starts, and a task id as typed.
#include "app/commands.hpp"
#include "app/store/store.hpp"
#include "config/worker_config.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace status_store::cli {

/// The connection's worker configuration; start-up bounded by `timeout_s`.
worker_config operator_config(const connection_options& connection, int timeout_s);

/// The verb's store, started; nullptr after saying why when no broker answered within the timeout.
/// A write verb then prints its metrics line as on any failed write, with its update counted failed:
/// it was never sent.
std::unique_ptr<store> start_store(const worker_config& config, const char* what, bool writes);

/// A task id (0, 1, ...); config_error (exit 2) for anything else.
int32_t parse_task_id(const std::string& text);

/// `list --flapping` (app/history_command.cpp).
int list_flapping(const list_options& options);

}  // namespace status_store::cli
