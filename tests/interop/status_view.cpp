#include "status_view.hpp"

#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

namespace status_store::interop {

namespace {

using json = nlohmann::json;

const json& field(const json& object, const char* name) {
  if (!object.is_object() || !object.contains(name))
    throw std::runtime_error(std::string("Java view: no '") + name + "' in " + object.dump());
  return object.at(name);
}

status_value status_from_java(const json& j) {
  status_value value;
  const auto state_name = field(j, "state").get<std::string>();
  const auto state = parse_status_state(state_name);
  if (!state) throw std::runtime_error("Java view: unknown state '" + state_name + "'");
  value.state = *state;
  if (const auto& trace = field(j, "trace"); !trace.is_null()) value.trace = trace.get<std::string>();
  value.worker_id = field(j, "worker_id").get<std::string>();
  value.generation = field(j, "generation").get<int32_t>();
  if (const auto& version = field(j, "version"); !version.is_null()) value.version = version.get<std::string>();
  return value;
}

/// A string as a C++ literal would show it: quotes, backslashes and control characters escaped
/// (non-ASCII stays UTF-8), so a failure message shows exactly which byte differs.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string show(const std::optional<std::string>& s) { return s ? quoted(*s) : "null"; }

void compare_status(const std::string& where, const status_value& expected, const status_value& actual,
                    std::vector<std::string>& out) {
  if (expected.state != actual.state)
    out.push_back(where + ": state " + std::string(to_string(expected.state)) + " expected, got " +
                  std::string(to_string(actual.state)));
  if (expected.trace != actual.trace)
    out.push_back(where + ": trace " + show(expected.trace) + " expected, got " + show(actual.trace));
  if (expected.worker_id != actual.worker_id)
    out.push_back(where + ": worker_id " + quoted(expected.worker_id) + " expected, got " + quoted(actual.worker_id));
  if (expected.generation != actual.generation)
    out.push_back(where + ": generation " + std::to_string(expected.generation) + " expected, got " +
                  std::to_string(actual.generation));
  if (expected.version != actual.version)
    out.push_back(where + ": version " + show(expected.version) + " expected, got " + show(actual.version));
}

void compare_topic(const std::string& where, const topic_status& expected, const topic_status& actual,
                   std::vector<std::string>& out) {
  if (expected.topic != actual.topic)
    out.push_back(where + ": name " + quoted(expected.topic) + " expected, got " + quoted(actual.topic));
  if (expected.connector != actual.connector)
    out.push_back(where + ": connector " + quoted(expected.connector) + " expected, got " + quoted(actual.connector));
  if (expected.task != actual.task)
    out.push_back(where + ": task " + std::to_string(expected.task) + " expected, got " + std::to_string(actual.task));
  if (expected.discover_timestamp != actual.discover_timestamp)
    out.push_back(where + ": discoverTimestamp " + std::to_string(expected.discover_timestamp) + " expected, got " +
                  std::to_string(actual.discover_timestamp));
}

/// Walks the union of two maps' keys: `both` for keys in both, `missing`/`extra` for the others.
template <class Map, class Both, class Missing, class Extra>
void walk(const Map& expected, const Map& actual, Both both, Missing missing, Extra extra) {
  for (const auto& [key, value] : expected) {
    auto it = actual.find(key);
    if (it == actual.end())
      missing(key, value);
    else
      both(key, value, it->second);
  }
  for (const auto& [key, value] : actual)
    if (!expected.contains(key)) extra(key, value);
}

}  // namespace

status_view view_from_java(const json& read_output) {
  status_view view;
  for (const auto& c : field(read_output, "connectors")) {
    connector_entry entry;
    if (const auto& status = field(c, "status"); !status.is_null()) entry.status = status_from_java(status);
    for (const auto& t : field(c, "tasks")) entry.tasks[field(t, "task").get<int32_t>()] = status_from_java(t);
    for (const auto& t : field(c, "topics")) {
      topic_status topic{field(t, "topic").get<std::string>(), field(t, "connector").get<std::string>(),
                         field(t, "task").get<int32_t>(), field(t, "discover_timestamp").get<int64_t>()};
      entry.topics[topic.topic] = topic;
    }
    const auto name = field(c, "name").get<std::string>();
    if (!view.emplace(name, std::move(entry)).second)
      throw std::runtime_error("Java view: connector listed twice: " + name);
  }
  return view;
}

status_view view_from_store(store& s, const std::vector<std::string>& names) {
  std::set<std::string> all{names.begin(), names.end()};
  for (auto& name : s.connectors()) all.insert(std::move(name));
  status_view view;
  for (const auto& name : all) {
    const connector_view described = s.describe(name);
    connector_entry entry;
    if (described.found) entry.status = described.connector.value;
    for (const auto& task : described.tasks) entry.tasks[task.task] = task.value;
    for (const auto& topic : described.topics) entry.topics[topic.topic] = topic;
    view[name] = std::move(entry);
  }
  return view;
}

std::vector<std::string> differences(const status_view& expected, const status_view& actual) {
  std::vector<std::string> out;
  walk(
      expected, actual,
      [&](const std::string& name, const connector_entry& e, const connector_entry& a) {
        const std::string where = "connector " + quoted(name);
        if (e.status && a.status)
          compare_status(where, *e.status, *a.status, out);
        else if (e.status)
          out.push_back(where + ": connector status expected, got none");
        else if (a.status)
          out.push_back(where + ": no connector status expected, got " + std::string(to_string(a.status->state)));
        walk(
            e.tasks, a.tasks,
            [&](int32_t id, const status_value& ev, const status_value& av) {
              compare_status(where + " task " + std::to_string(id), ev, av, out);
            },
            [&](int32_t id, const status_value&) {
              out.push_back(where + " task " + std::to_string(id) + ": missing");
            },
            [&](int32_t id, const status_value& av) {
              out.push_back(where + " task " + std::to_string(id) + ": unexpected (" +
                            std::string(to_string(av.state)) + ")");
            });
        walk(
            e.topics, a.topics,
            [&](const std::string& topic, const topic_status& et, const topic_status& at) {
              compare_topic(where + " topic " + quoted(topic), et, at, out);
            },
            [&](const std::string& topic, const topic_status&) {
              out.push_back(where + " topic " + quoted(topic) + ": missing");
            },
            [&](const std::string& topic, const topic_status&) {
              out.push_back(where + " topic " + quoted(topic) + ": unexpected");
            });
      },
      [&](const std::string& name, const connector_entry&) {
        out.push_back("connector " + quoted(name) + ": missing");
      },
      [&](const std::string& name, const connector_entry&) {
        out.push_back("connector " + quoted(name) + ": unexpected");
      });
  return out;
}

std::string describe_differences(const std::vector<std::string>& lines) {
  std::ostringstream out;
  out << lines.size() << " difference(s):";
  for (const auto& line : lines) out << "\n  " << line;
  return out.str();
}

}  // namespace status_store::interop
