#include "app/prometheus_text.hpp"

#include "app/http_routes.hpp"
#include "app/store/labelled_samples.hpp"
#include "app/store/metric_names.hpp"
#include "config/ascii.hpp"

#include <cstdio>
#include <initializer_list>

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

// The families' lines from `samples` (grouped by family, as labelled_samples.hpp builds them): a HELP
// and TYPE header for every family of `families`, also one without a sample.
std::string labelled_text(const std::vector<labelled_sample>& samples,
                          std::initializer_list<const labelled_metric*> families) {
  std::string out;
  for (const labelled_metric* m : families) {
    family_header(out, *m);
    const std::string name = prometheus_name(m->name);
    for (const auto& s : samples) {
      if (s.name != m->name) continue;
      out += name + "{";
      for (size_t i = 0; i < s.labels.size(); ++i)
        out +=
            (i ? "," : "") + std::string{s.labels[i].first} + "=\"" + prometheus_label_value(s.labels[i].second) + "\"";
      out += "} " + std::to_string(static_cast<uint64_t>(s.value)) + "\n";  // counts: whole numbers
    }
  }
  return out;
}

/// Microseconds as seconds in plain decimal, exactly (0.00025, 2.5, 10): the `le` labels and the sums.
std::string seconds_text(uint64_t micros) {
  std::string out = std::to_string(micros / 1'000'000);
  if (const uint64_t fraction = micros % 1'000'000; fraction != 0) {
    char digits[24];
    std::snprintf(digits, sizeof digits, "%06llu", static_cast<unsigned long long>(fraction));
    std::string tail{digits};
    tail.erase(tail.find_last_not_of('0') + 1);
    out += "." + tail;
  }
  return out;
}

/// The write path's hop histograms (metric_names.hpp, histogram_metrics): cumulative buckets, sum, count.
std::string histogram_text(const metrics_snapshot& snapshot) {
  std::string out;
  for (const auto& m : histogram_metrics) {
    const latency_distribution& d = snapshot.hops.*m.distribution;
    const std::string name = prometheus_name(m.name);
    out += "# HELP " + name + " " + std::string{m.help} + "\n";
    out += "# TYPE " + name + " histogram\n";
    for (size_t i = 0; i < latency_bucket_bounds_us.size(); ++i)
      out += name + "_bucket{le=\"" + seconds_text(latency_bucket_bounds_us[i]) + "\"} " +
             std::to_string(i < d.at_or_below.size() ? d.at_or_below[i] : 0) + "\n";
    out += name + "_bucket{le=\"+Inf\"} " + std::to_string(d.count) + "\n";
    out += name + "_sum " + seconds_text(d.sum_us) + "\n";
    out += name + "_count " + std::to_string(d.count) + "\n";
  }
  return out;
}

}  // namespace

std::string prometheus_text(const metrics_snapshot& snapshot) {
  return prometheus_text(metric_samples(snapshot)) + histogram_text(snapshot);
}

std::string prometheus_text(const std::vector<metric_sample>& samples) {
  std::string out;
  for (const auto& m : samples) {
    std::string name{m.name};
    double value = m.value;
    // Prometheus wants base units: the millisecond gauges become seconds.
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
  return labelled_text(state_samples(views),
                       {&state_metric_connector, &state_metric_task, &state_metric_connectors, &state_metric_tasks});
}

std::string prometheus_history_text(const history_counts& counts) {
  return labelled_text(history_samples(counts), {&history_metric_failed, &history_metric_flapping});
}

}  // namespace status_store
