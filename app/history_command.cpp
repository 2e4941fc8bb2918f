// `status-store history (connector NAME | task CONNECTOR ID) [--json]` and `status-store list
// --flapping [--json]`: what the store's replay of the topic finds of the past (docs/operations.md).
// Like the other operator verbs, each starts a store, asks its view once, and stops it.
#include "app/commands.hpp"
#include "app/history_format.hpp"
#include "app/operator_store.hpp"
#include "config/config_error.hpp"

#include <iostream>

namespace status_store::cli {

namespace {

history_subject parse_subject(const std::vector<std::string>& args) {
  if (args.size() == 2 && args[0] == "connector") return {args[1], std::nullopt};
  if (args.size() == 3 && args[0] == "task") return {args[1], parse_task_id(args[2])};
  std::string given;
  for (const auto& a : args) given += (given.empty() ? "" : " ") + a;
  throw config_error("TARGET", given, "must be: connector NAME | task CONNECTOR ID");
}

/// Whether the view holds a status of the subject itself: without one and without transitions, the
/// subject is unknown (as GET …/history answers 404).
bool has_status(store& s, const history_subject& subject) {
  return subject.task ? s.get(subject.connector, *subject.task).has_value() : s.describe(subject.connector).found;
}

}  // namespace

int history(const history_options& o) {
  const history_subject subject = parse_subject(o.target_args);
  const worker_config config = operator_config(o.connection, o.timeout_s);
  const auto started = start_store(config, "history", false);
  if (!started) return exit_failed;
  store& s = *started;
  const key_history h = subject.task ? s.history(subject.connector, *subject.task) : s.history(subject.connector);
  const bool known = !h.transitions.empty() || has_status(s, subject);
  s.stop();
  if (!known) {
    std::cerr << "error: no status found for " << (subject.task ? "task '" : "connector '") << subject.connector
              << (subject.task ? "-" + std::to_string(*subject.task) : std::string{}) << "'\n";
    return exit_failed;
  }
  if (o.json) {
    std::cout << history_json(subject, h) << "\n";
  } else {
    for (const auto& line : history_text_lines(subject, h)) std::cout << line << "\n";
  }
  return exit_ok;
}

int list_flapping(const list_options& o) {
  if (!o.state.empty())
    throw config_error("--flapping", "--state " + o.state, "lists flapping keys alone: drop --state");
  const worker_config config = operator_config(o.connection, o.timeout_s);
  const auto started = start_store(config, "list", false);
  if (!started) return exit_failed;
  store& s = *started;
  const auto keys = s.flapping();
  s.stop();
  if (o.json) {
    for (const auto& line : flapping_lines_json(keys)) std::cout << line << "\n";
    return exit_ok;
  }
  for (const auto& line : flapping_text_lines(keys)) std::cout << line << "\n";
  std::cout << "flapping: " << config.flap_threshold << " or more unstable transitions (entering FAILED, RUNNING to "
            << "RESTARTING) within " << config.flap_window_ms << " ms, until stable for as long\n";
  return exit_ok;
}

}  // namespace status_store::cli
