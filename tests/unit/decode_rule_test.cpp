// Every decode error names the rule the record broke without quoting the record (the status view
// rate-limits its log lines per rule, so a writer must not be able to mint new rules), and its reason
// starts with that rule.
#include "messages/status_record_codec.hpp"

#include <gtest/gtest.h>

#include <string>
#include <variant>

using namespace status_store;

namespace {

constexpr std::string_view marker = "EVIL\x1b[2J";

template <class T>
void expect_rule(const decoded<T>& result, const std::string& rule) {
  const auto* e = std::get_if<decode_error>(&result);
  ASSERT_NE(e, nullptr) << "decoded";
  EXPECT_EQ(e->rule, rule) << e->reason;
  EXPECT_TRUE(e->reason.starts_with(e->rule)) << e->reason;
  EXPECT_EQ(e->rule.find("EVIL"), std::string::npos);
}

std::string m() { return std::string{marker}; }
/// The marker inside a JSON string (a raw ESC there would make the value invalid JSON instead).
std::string json_m() { return R"(EVIL\u001b[2J)"; }

}  // namespace

TEST(DecodeRule, KeyErrorsNameTheirRuleAndNotTheKey) {
  expect_rule(parse_key("status-connector-"), "invalid connector status key (empty connector)");
  expect_rule(parse_key("status-task-" + m()), "invalid task status key (too few '-' separated parts)");
  expect_rule(parse_key("status-task-c-" + m()), "invalid task status key (invalid task id)");
  expect_rule(parse_key("status-topic-" + m()), "invalid topic status key (no ':')");
  expect_rule(parse_key("status-topic-:connector-" + m()), "invalid topic status key (empty topic)");
  expect_rule(parse_key("status-topic-t:conn"), "invalid topic status key (nothing after the topic)");
  expect_rule(parse_key("status-topic-" + m() + ":connector-"), "invalid topic status key (empty connector)");
  expect_rule(parse_key(m()), "unknown key prefix");
}

TEST(DecodeRule, ValueErrorsNameTheirRuleAndNotTheValue) {
  expect_rule(decode_status_value("{" + m()), "value is not JSON");
  expect_rule(decode_status_value("\"" + json_m() + "\""), "value is not a JSON object");
  expect_rule(decode_status_value(R"({"state":")" + json_m() + R"(","worker_id":"w","generation":1})"),
              "unknown state");
  expect_rule(decode_status_value(R"({"worker_id":"EVIL","generation":1})"), "field 'state' is missing or null");
  expect_rule(decode_status_value(R"({"state":"RUNNING","worker_id":"w","generation":"EVIL"})"),
              "field 'generation' is not an integer");
  expect_rule(decode_topic_value("[\"" + json_m() + "\"]"), "value is not a JSON object");
  expect_rule(decode_topic_value(R"({"topic":"EVIL"})"), "field 'topic' is missing or not an object");
}
