// docs/metrics.md's table names every metric the code reports (app/store/metric_names.hpp, the one
// table the Prometheus text, the CLI and the metrics reporter come from, its table of labelled
// per-state families and its table of hop histograms; and the HTTP listener's of `run`,
// app/listener_metrics.hpp) with its kind, and no other.
#include "app/listener_metrics.hpp"
#include "app/store/metric_names.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace {

std::vector<std::string> cells_of(const std::string& row) {
  std::vector<std::string> cells;
  std::string cell;
  for (size_t i = 1; i < row.size(); ++i) {
    if (row[i] == '|') {
      cells.push_back(cell);
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  return cells;
}

/// The last `n` '-'-separated parts of `name` replaced by `suffix` (which has n parts, "-p99-ms").
std::string with_suffix(const std::string& name, const std::string& suffix) {
  const auto parts = static_cast<size_t>(std::count(suffix.begin(), suffix.end(), '-'));
  size_t cut = name.size();
  for (size_t i = 0; i < parts; ++i) cut = name.rfind('-', cut - 1);
  return name.substr(0, cut) + suffix;
}

/// Metric name -> kind, from the table rows of docs/metrics.md: "`a`, `-b-ms`" is a and a's stem + b-ms.
std::map<std::string, std::string> documented_metrics() {
  std::ifstream in{std::string{STATUS_STORE_SOURCE_DIR} + "/docs/metrics.md"};
  EXPECT_TRUE(in) << "docs/metrics.md not found";
  std::map<std::string, std::string> found;
  const std::regex quoted{"`([^`]+)`"};
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    const auto cells = cells_of(line);
    if (cells.size() < 3) continue;
    std::string first;
    for (std::sregex_iterator it{cells[0].begin(), cells[0].end(), quoted}, end; it != end; ++it) {
      const std::string name = (*it)[1];
      if (first.empty()) first = name;
      found[name.front() == '-' ? with_suffix(first, name) : name] = std::regex_replace(cells[1], std::regex{" "}, "");
    }
  }
  return found;
}

}  // namespace

TEST(DocsMetrics, TheTableListsEveryMetricOfTheCodeWithItsKindAndNoOther) {
  std::map<std::string, std::string> in_code;
  for (const auto& m : status_store::metric_samples(status_store::metrics_snapshot{}))
    in_code[std::string{m.name}] = std::string{m.kind};
  for (const auto& m : status_store::labelled_metrics) in_code[std::string{m.name}] = std::string{m.kind};
  for (const auto& m : status_store::listener_samples({})) in_code[std::string{m.name}] = std::string{m.kind};
  for (const auto& m : status_store::histogram_metrics) in_code[std::string{m.name}] = "histogram";
  EXPECT_EQ(documented_metrics(), in_code);
}
