// docs/configuration.md's settings tables are the code's (config/worker_settings.cpp and
// config/rest_setting_defs.cpp): every row, cell for cell, and no other. Rows for a family of keys
// (`producer.*`, `status.storage.<topic-config>`) are prose and not compared.
#include "config/rest_setting_defs.hpp"
#include "config/secret_masking.hpp"
#include "config/worker_settings.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace status_store {
namespace {

using rows = std::map<std::string, std::vector<std::string>>;

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(' ');
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

std::vector<std::string> cells_of(const std::string& row) {
  std::vector<std::string> cells;
  std::string cell;
  for (size_t i = 1; i < row.size(); ++i) {
    if (row[i] != '|') {
      cell += row[i];
      continue;
    }
    cells.push_back(trimmed(cell));
    cell.clear();
  }
  return cells;
}

/// The rows of one key each in the table under `heading` (up to the next heading), by key.
rows documented(const std::string& heading) {
  std::ifstream in{std::string{STATUS_STORE_SOURCE_DIR} + "/docs/configuration.md"};
  EXPECT_TRUE(in) << "docs/configuration.md not found";
  rows found;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with('#')) inside = line == heading;
    if (!inside || !line.starts_with("| `")) continue;
    std::vector<std::string> cells = cells_of(line);
    const std::string& key = cells.front();
    if (key.find_first_of("*<,") != std::string::npos) continue;  // a family of keys
    EXPECT_TRUE(found.emplace(key, std::move(cells)).second) << key << " documented twice";
  }
  return found;
}

template <typename Config>
rows in_code(std::span<const setting_def<Config>> table, std::string& markdown) {
  rows found;
  for (const setting_def<Config>& def : table) {
    std::vector<std::string> cells = doc_cells(def);
    std::string line = "|";
    for (const std::string& cell : cells) line += " " + cell + " |";
    markdown += line + "\n";
    EXPECT_TRUE(found.emplace(cells.front(), std::move(cells)).second) << def.key << " twice in the table";
  }
  return found;
}

TEST(DocsSettings, TheWorkerTableIsTheCodesTable) {
  std::string markdown;
  const rows code = in_code(worker_settings(), markdown);
  EXPECT_EQ(documented("# Configuration"), code) << "the code's rows:\n" << markdown;
}

TEST(DocsSettings, TheRestTableIsTheCodesTable) {
  std::string markdown;
  const rows code = in_code(rest_setting_defs(), markdown);
  EXPECT_EQ(documented("## REST listener (Connect's settings)"), code) << "the code's rows:\n" << markdown;
}

TEST(SettingsTable, AKeyHasOneRowInBothTables) {
  std::set<std::string_view> keys;
  for (const auto& def : worker_settings()) EXPECT_TRUE(keys.insert(def.key).second) << def.key;
  for (const auto& def : rest_setting_defs()) EXPECT_TRUE(keys.insert(def.key).second) << def.key;
}

TEST(SettingsTable, TheRowDecidesWhetherItsKeyIsMaskedAndTheNameAgrees) {
  // Agreeing with the name pattern is what masks the prefixed forms (producer.ssl.key.password), which
  // have no row.
  for (const auto& def : worker_settings()) {
    EXPECT_EQ(is_secret_property(def.key), def.secret) << def.key;
    EXPECT_EQ(is_secret_by_name(def.key), def.secret) << def.key;
  }
  for (const auto& def : rest_setting_defs()) {
    EXPECT_EQ(is_secret_property(def.key), def.secret) << def.key;
    EXPECT_EQ(is_secret_by_name(def.key), def.secret) << def.key;
  }
  EXPECT_EQ(mask_if_secret("ssl.keystore.password", "hunter2"), masked_value);
  EXPECT_EQ(mask_if_secret("status.storage.topic", "connect-status"), "connect-status");
}

TEST(SettingsTable, ASecretRowIsMaskedUnderEveryPrefixToo) {
  // The prefixed forms are no rows of their own: the name pattern must catch them as the row does.
  for (const auto& def : rest_setting_defs()) {
    if (!def.secret) continue;
    for (const std::string prefix : {"producer.", "consumer.", "admin.", "listeners.https.", "admin.listeners.https."})
      EXPECT_TRUE(is_secret_property(prefix + std::string{def.key})) << prefix << def.key;
  }
}

TEST(SettingsTable, EveryWorkerRowIsParsedAndShown) {
  for (const auto& def : worker_settings()) {
    EXPECT_NE(def.apply, nullptr) << def.key;
    EXPECT_NE(def.show, nullptr) << def.key;
  }
}

}  // namespace
}  // namespace status_store
