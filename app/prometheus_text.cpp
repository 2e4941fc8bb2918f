#include "app/prometheus_text.hpp"

#include "app/store/metric_names.hpp"

#include <cstdio>

namespace status_store {

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
    for (auto& ch : name)
      if (ch == '-') ch = '_';
    char number[64];
    std::snprintf(number, sizeof number, "%.17g", value);
    out += "# HELP " + name + " " + std::string{m.help} + "\n";
    out += "# TYPE " + name + " " + std::string{m.kind} + "\n";
    out += name + " " + number + "\n";
  }
  return out;
}

}  // namespace status_store
