// docs/operations.md shows the alerting rules for a FAILED task and for flapping; tests/app/alert_rules.yml
// is the file promtool checks and tests (tests/app/alert_rules_test.yml). This keeps the two equal, and
// every metric the rules name one that /metrics serves (app/store/metric_names.hpp).
#include "app/store/metric_names.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

std::string read(const std::string& path) {
  std::ifstream in{std::string{STATUS_STORE_SOURCE_DIR} + "/" + path};
  EXPECT_TRUE(in) << path << " not found";
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string prometheus_name(std::string_view name) {
  std::string out{name};
  for (auto& c : out) c = c == '-' ? '_' : c;
  return out;
}

}  // namespace

TEST(DocsAlertRules, TheDocumentsRulesAreTheCheckedFile) {
  const std::string doc = read("docs/operations.md");
  const std::string marker = "```yaml\ngroups:";
  const auto begin = doc.find(marker);
  ASSERT_NE(begin, std::string::npos) << "no ```yaml block of rules in docs/operations.md";
  const auto end = doc.find("```", begin + marker.size());
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(doc.substr(begin + 8, end - begin - 8), read("tests/app/alert_rules.yml"))
      << "copy the rules block of docs/operations.md into tests/app/alert_rules.yml and run promtool test rules";
}

TEST(DocsAlertRules, EveryMetricTheRulesNameIsServed) {
  std::set<std::string> served;
  for (const auto& m : status_store::labelled_metrics) served.insert(prometheus_name(m.name));
  const std::string rules = read("tests/app/alert_rules.yml");
  const std::regex metric{R"(\bstatus_[a-z_]+)"};
  size_t named = 0;
  for (std::sregex_iterator it{rules.begin(), rules.end(), metric}, end; it != end; ++it, ++named)
    EXPECT_TRUE(served.count(it->str())) << it->str() << " is not a labelled family of metric_names.hpp";
  EXPECT_GE(named, 4u);
}
