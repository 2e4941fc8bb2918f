#include "app/prometheus_text.hpp"

#include "app/connector_states.hpp"
#include "app/http_routes.hpp"
#include "app/store/metric_names.hpp"
#include "config/ascii.hpp"

#include <cstdio>
#include <map>

namespace status_store {

namespace {

std::string prometheus_name(std::string_view name) {
  std::string out{name};
  for (auto& ch : out)
    if (ch == '-') ch = '_';
  return out;
}

void family_header(std::string& out, const labelled_metric& m) {
  const std::string name = prometheus_name(m.name);
  out += "# HELP " + name + " " + std::string{m.help} + "\n";
  out += "# TYPE " + name + " " + std::string{m.kind} + "\n";
}

// Strimzi's rules give the states in lower case, as Connect's JMX attribute holds them.
std::string state_label(status_state state) { return ascii_lowercase(to_string(state)); }

void count_lines(std::string& out, const labelled_metric& m, const std::map<std::string, uint64_t>& counts) {
  family_header(out, m);
  for (const auto& [state, n] : counts)
    out += prometheus_name(m.name) + "{state=\"" + state + "\"} " + std::to_string(n) + "\n";
}

}  // namespace

std::string prometheus_text(const metrics_snapshot& snapshot) {
  std::string out;
  for (const auto& m : metric_samples(snapshot)) {
    std::string name{m.name};
    double value = m.value;
    // Prometheus wants base units: the two millisecond gauges become seconds.
    if (name.size() > 3 && name.compare(name.size() - 3, 3, "-ms") == 0) {
      name.replace(name.size() - 3, 3, "-seconds");
      value = value < 0 ? value : value / 1000.0;
    }
    name = prometheus_name(name);
    char number[64];
    std::snprintf(number, sizeof number, "%.17g", value);
    out += "# HELP " + name + " " + std::string{m.help} + "\n";
    out += "# TYPE " + name + " " + std::string{m.kind} + "\n";
    out += name + " " + number + "\n";
  }
  return out;
}

std::string prometheus_label_value(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      // The format is UTF-8 and a key read from the topic need not be: a byte that starts no valid
      // sequence becomes U+FFFD, so one foreign record cannot make the whole scrape unparsable.
      size_t len = 2;
      while (len <= 4 && !is_valid_utf8(text.substr(i, len))) ++len;
      if (len > 4) {
        out += "\xEF\xBF\xBD";
        continue;
      }
      out.append(text.substr(i, len));
      i += len - 1;
    } else if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string prometheus_state_text(const std::vector<connector_view>& views) {
  std::map<std::string, uint64_t> connectors, tasks;  // every state present, so a rule sees 0, not absent
  for (const auto state : reported_states) connectors[state_label(state)] = tasks[state_label(state)] = 0;
  connectors["degraded"] = 0;
  std::string out;
  family_header(out, state_metric_connector);
  for (const auto& v : views) {
    if (!v.found) continue;  // tasks without their connector's status are still listed below
    const std::string state = state_label(v.connector.value.state);
    ++connectors[state];
    if (is_degraded(v)) ++connectors["degraded"];
    out += prometheus_name(state_metric_connector.name) + "{connector=\"" + prometheus_label_value(v.name) +
           "\",state=\"" + state + "\"} 1\n";
  }
  family_header(out, state_metric_task);
  for (const auto& v : views)
    for (const auto& t : v.tasks) {
      const std::string state = state_label(t.value.state);
      ++tasks[state];
      out += prometheus_name(state_metric_task.name) + "{connector=\"" + prometheus_label_value(t.connector) +
             "\",task=\"" + std::to_string(t.task) + "\",state=\"" + state + "\"} 1\n";
    }
  count_lines(out, state_metric_connectors, connectors);
  count_lines(out, state_metric_tasks, tasks);
  return out;
}

std::string prometheus_history_text(const history_counts& counts) {
  const auto samples = history_samples(counts);  // family by family, each in the connectors' order
  std::string out;
  for (const labelled_metric* m : {&history_metric_failed, &history_metric_flapping}) {
    family_header(out, *m);
    for (const auto& s : samples) {
      if (s.name != m->name) continue;
      out += prometheus_name(s.name) + "{";
      for (size_t i = 0; i < s.labels.size(); ++i)
        out +=
            (i ? "," : "") + std::string{s.labels[i].first} + "=\"" + prometheus_label_value(s.labels[i].second) + "\"";
      out += "} " + std::to_string(static_cast<uint64_t>(s.value)) + "\n";
    }
  }
  return out;
}

}  // namespace status_store
