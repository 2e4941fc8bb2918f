// The protocol table lives twice: in messages/protocol.hpp, beside the interfaces it describes, and
// in docs/architecture.md for readers. This test keeps the two equal and every message they name an
// atom of the protocol, and every atom named in the table.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in{std::string{STATUS_STORE_SOURCE_DIR} + "/" + path};
  EXPECT_TRUE(in) << path << " not found";
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// The table rows of the header's comment, without the "// ".
std::vector<std::string> header_rows() {
  std::vector<std::string> rows;
  for (const auto& line : lines_of("messages/protocol.hpp"))
    if (line.rfind("// |", 0) == 0) rows.push_back(line.substr(3));
  return rows;
}

/// The table rows of the "## The protocol" section of docs/architecture.md.
std::vector<std::string> docs_rows() {
  std::vector<std::string> rows;
  bool inside = false;
  for (const auto& line : lines_of("docs/architecture.md")) {
    if (line.rfind("## ", 0) == 0) inside = line == "## The protocol";
    if (inside && line.rfind("|", 0) == 0) rows.push_back(line);
  }
  return rows;
}

std::string message_cell(const std::string& row) {
  std::vector<std::string> cells;
  std::stringstream in{row};
  for (std::string cell; std::getline(in, cell, '|');) cells.push_back(cell);
  return cells.size() > 3 ? cells[3] : std::string{};
}

std::set<std::string> declared_atoms() {
  std::set<std::string> atoms;
  const std::regex declaration{R"(^using ([a-z_]+)_atom\b)"};
  std::smatch m;
  for (const auto& line : lines_of("messages/protocol.hpp"))
    if (std::regex_search(line, m, declaration)) atoms.insert(m[1]);
  return atoms;
}

}  // namespace

TEST(DocsProtocol, TheArchitectureDocHoldsTheHeadersTable) {
  const auto header = header_rows();
  ASSERT_GT(header.size(), 10u) << "no protocol table found in messages/protocol.hpp";
  EXPECT_EQ(docs_rows(), header) << "copy the table of messages/protocol.hpp into docs/architecture.md";
}

TEST(DocsProtocol, EveryMessageStartsWithADeclaredAtomAndEveryAtomIsInTheTable) {
  const auto atoms = declared_atoms();
  ASSERT_FALSE(atoms.empty());
  std::set<std::string> named;
  const std::regex word{R"([a-z_]+)"};
  const auto rows = header_rows();
  for (size_t i = 2; i < rows.size(); ++i) {  // past the heading and the rule
    const std::string message = message_cell(rows[i]);
    std::smatch first;
    ASSERT_TRUE(std::regex_search(message, first, word)) << rows[i];
    EXPECT_TRUE(atoms.count(first.str())) << "'" << first.str() << "' in: " << rows[i];
    for (auto it = std::sregex_iterator(message.begin(), message.end(), word); it != std::sregex_iterator(); ++it)
      named.insert(it->str());
  }
  for (const auto& atom : atoms) EXPECT_TRUE(named.count(atom)) << atom << "_atom is in no row of the table";
}
