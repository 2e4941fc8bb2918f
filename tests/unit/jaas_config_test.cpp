// sasl.jaas.config -> librdkafka's sasl.username / sasl.password: Kafka's JaasConfig grammar, one
// entry, PlainLoginModule or ScramLoginModule, and errors that name the property but never show any
// part of the value.
#include "config/jaas_config.hpp"
#include "config/config_error.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

using namespace status_store;

namespace {

const std::string plain = "org.apache.kafka.common.security.plain.PlainLoginModule";
const std::string scram = "org.apache.kafka.common.security.scram.ScramLoginModule";

std::optional<config_error> error_for(const std::string& value) {
  try {
    parse_jaas_credentials("sasl.jaas.config", value);
  } catch (const config_error& error) {
    return error;
  }
  return std::nullopt;
}

}  // namespace

TEST(JaasConfig, PlainLoginModuleAsConnectDocumentsIt) {
  const auto c =
      parse_jaas_credentials("sasl.jaas.config", plain + " required username=\"alice\" password=\"alice-secret\";");
  EXPECT_EQ(c.login_module, plain);
  EXPECT_EQ(c.username, "alice");
  EXPECT_EQ(c.password, "alice-secret");
}

TEST(JaasConfig, ScramLoginModuleWithBareWordsAndOtherOptions) {
  const auto c =
      parse_jaas_credentials("sasl.jaas.config", scram + " REQUIRED username=bob password=s3cr3t-pw debug=true;");
  EXPECT_EQ(c.login_module, scram);
  EXPECT_EQ(c.username, "bob");
  EXPECT_EQ(c.password, "s3cr3t-pw");
}

TEST(JaasConfig, QuotedValuesKeepSpacesSemicolonsAndEscapes) {
  const auto c = parse_jaas_credentials(
      "sasl.jaas.config", plain + " required\n  username='a b' // a comment\n  password=\"p;w=\\\"x\\\\\" /* c */ ;  ");
  EXPECT_EQ(c.username, "a b");
  EXPECT_EQ(c.password, "p;w=\"x\\");
}

TEST(JaasConfig, EveryControlFlagIsAccepted) {
  for (const char* flag : {"required", "requisite", "sufficient", "optional", "Optional"}) {
    EXPECT_EQ(parse_jaas_credentials("x", plain + " " + flag + " username=u password=p;").username, "u") << flag;
  }
}

TEST(JaasConfig, MalformedEntriesNameThePropertyAndTheRule) {
  const struct {
    std::string value;
    std::string rule;
  } cases[] = {
      {"", "Login module not specified in JAAS config"},
      {"   // only a comment", "Login module not specified in JAAS config"},
      {plain, "Login module control flag not specified in JAAS config"},
      {plain + " username=u password=p;",
       "Invalid login module control flag in JAAS config (required, requisite, sufficient or optional)"},
      {plain + " required username=u password=p", "JAAS config entry not terminated by semi-colon"},
      {plain + " required username password=p;", "Value not specified for key 'username' in JAAS config"},
      {plain + " required username=u password=;", "Value not specified for key 'password' in JAAS config"},
      {plain + " required username=u password=\"p;", "JAAS config has an unterminated quoted value"},
      {plain + " required /* username=u password=p;", "JAAS config has an unterminated /* comment"},
      {plain + " required username=u;", "JAAS config must set password"},
      {plain + " required password=p;", "JAAS config must set username"},
      {plain + " required username=u password=p; " + plain + " required username=v password=q;",
       "JAAS config property contains 2 login modules, should be 1 module"},
      {scram + " required username=u password=p tokenauth=true;",
       "ScramLoginModule with tokenauth=true (delegation tokens) is not supported by status-store's Kafka client"},
  };
  for (const auto& c : cases) {
    const auto error = error_for(c.value);
    ASSERT_TRUE(error) << c.value;
    EXPECT_EQ(error->property(), "sasl.jaas.config") << c.value;
    EXPECT_EQ(error->value(), "[hidden]") << c.value;
    EXPECT_EQ(error->rule(), c.rule) << c.value;
  }
}

TEST(JaasConfig, OtherLoginModulesAreRefusedByName) {
  const auto error =
      error_for("org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required clientSecret=zzz;");
  ASSERT_TRUE(error);
  const std::string what = error->what();
  EXPECT_NE(
      what.find("Login module org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule is not supported"),
      std::string::npos)
      << what;
  EXPECT_NE(what.find("PlainLoginModule"), std::string::npos) << what;
  EXPECT_EQ(what.find("zzz"), std::string::npos) << what;
}

TEST(JaasConfig, NoErrorEverShowsThePassword) {
  for (const std::string& value : std::vector<std::string>{
           plain + " required username=u password=hunter2", plain + " required username=u password=\"hunter2",
           plain + " required password=hunter2;", plain + " hunter2 username=u;", std::string{"hunter2"},
           plain + " required username=u password=p; hunter2 required;"}) {
    const auto error = error_for(value);
    ASSERT_TRUE(error) << value;
    EXPECT_EQ(std::string{error->what()}.find("hunter2"), std::string::npos) << error->what();
  }
}

TEST(JaasConfig, AnUnknownWordInPlaceOfTheModuleIsNotShown) {
  const auto error = error_for("hunter2 required username=u password=p;");
  ASSERT_TRUE(error);
  EXPECT_EQ(std::string{error->what()}.find("hunter2"), std::string::npos) << error->what();
  EXPECT_NE(std::string{error->what()}.find("Login module is not supported"), std::string::npos) << error->what();
}
