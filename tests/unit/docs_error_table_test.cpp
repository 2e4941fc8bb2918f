// The error table in docs/retries.md is a copy of actors/kafka/delivery_error_table.cpp; this test keeps the two
// identical, so operators never read a classification the code does not apply.
#include "actors/kafka/delivery_error_table.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace status_store;

namespace {

std::vector<std::string> split_row(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in{line};
  std::string cell;
  std::getline(in, cell, '|');  // before the first '|'
  while (std::getline(in, cell, '|')) {
    const auto b = cell.find_first_not_of(' ');
    const auto e = cell.find_last_not_of(' ');
    cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
  }
  if (!cells.empty() && cells.back().empty()) cells.pop_back();
  return cells;
}

}  // namespace

TEST(DocsRetries, ErrorTableMatchesTheCode) {
  std::ifstream doc{std::string{STATUS_STORE_SOURCE_DIR} + "/docs/retries.md"};
  ASSERT_TRUE(doc) << "docs/retries.md not found";
  std::vector<std::vector<std::string>> rows;
  bool inside = false;
  for (std::string line; std::getline(doc, line);) {
    if (line.find("<!-- error-table:begin -->") != std::string::npos)
      inside = true;
    else if (line.find("<!-- error-table:end -->") != std::string::npos)
      inside = false;
    else if (inside && line.rfind("| ", 0) == 0 && line.find("---") == std::string::npos &&
             line.find("| code |") == std::string::npos)
      rows.push_back(split_row(line));
  }
  const auto table = delivery_error_table();
  ASSERT_EQ(rows.size(), table.size()) << "docs/retries.md rows vs code rows";
  for (size_t i = 0; i < table.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 4u) << "row " << i;
    EXPECT_EQ(rows[i][0], std::to_string(table[i].code)) << "row " << i;
    EXPECT_EQ(rows[i][1], table[i].name) << "row " << i;
    EXPECT_EQ(rows[i][2], table[i].retriable ? "yes" : "no") << table[i].name;
    EXPECT_EQ(rows[i][3], table[i].reason) << table[i].name;
  }
}
