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

// ---- JAAS files (java.security.auth.login.config) -----------------------------------------------------

namespace {

const std::string property_file_module = "org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule";

std::optional<config_error> file_error_for(const std::string& text) {
  try {
    parse_jaas_file("status.rest.jaas.config.file", "/etc/kafka/connect-jaas.conf", text);
  } catch (const config_error& error) {
    return error;
  }
  return std::nullopt;
}

}  // namespace

TEST(JaasFile, NamedEntriesWithCommentsAsConnectDocumentsThem) {
  const auto entries = parse_jaas_file("p", "f",
                                       "// Connect's REST Basic auth\n"
                                       "KafkaConnect {\n"
                                       "  " +
                                           property_file_module +
                                           " required\n"
                                           "  file=\"/mnt/secret/credentials.properties\";\n"
                                           "};\n"
                                           "/* the clients' */ KafkaClient { " +
                                           plain + " required username=\"u\" password=\"p\"; };\n");
  ASSERT_EQ(entries.size(), 2u);
  const auto& modules = entries.at("KafkaConnect");
  ASSERT_EQ(modules.size(), 1u);
  EXPECT_EQ(modules[0].class_name, property_file_module);
  EXPECT_EQ(modules[0].control_flag, "required");
  EXPECT_EQ(modules[0].options.at("file"), "/mnt/secret/credentials.properties");
  EXPECT_EQ(entries.at("KafkaClient").at(0).options.at("username"), "u");
}

TEST(JaasFile, AnEntryMayHaveNoModuleOrSeveral) {
  const auto entries = parse_jaas_file("p", "f", "Empty { };\nTwo { a.B optional; c.D SUFFICIENT x=y; };");
  EXPECT_TRUE(entries.at("Empty").empty());
  ASSERT_EQ(entries.at("Two").size(), 2u);
  EXPECT_EQ(entries.at("Two")[1].options.at("x"), "y");
}

TEST(JaasFile, ErrorsNameTheFileTheSettingAndTheLine) {
  const struct {
    std::string text;
    std::string message;
  } cases[] = {
      {"KafkaConnect\n" + property_file_module + " required;",
       "line 2: expected '{' after the entry name KafkaConnect"},
      {"KafkaConnect {\n  x.Y required file=\"f\";\n",
       "line 2: expected '}' at the end of the entry KafkaConnect, "
       "read end of file"},
      {"KafkaConnect { x.Y required; }",
       "line 1: expected ';' after the '}' of the entry KafkaConnect, read end of "
       "file"},
      {"KafkaConnect {\n\n x.Y required file=;\n};", "line 3: Value not specified for key 'file' in JAAS config"},
      {"KafkaConnect { x.Y maybe; };",
       "line 1: Invalid login module control flag in JAAS config (required, "
       "requisite, sufficient or optional)"},
      {"A { };\nA { };", "line 2: Can not specify multiple entries for A"},
      {"A {\n x.Y required file=\"f\"\n};", "line 3: JAAS config entry not terminated by semi-colon"},
      {"{ };", "line 1: expected the name of an entry"},
      {"A { x.Y required file=\"unterminated; };", "line 1: JAAS config has an unterminated quoted value"},
      {"A {\n /* x.Y required; };", "line 2: JAAS config has an unterminated /* comment"},
  };
  for (const auto& c : cases) {
    const auto error = file_error_for(c.text);
    ASSERT_TRUE(error) << c.text;
    EXPECT_EQ(error->property(), "status.rest.jaas.config.file") << c.text;
    EXPECT_EQ(error->value(), "/etc/kafka/connect-jaas.conf") << c.text;
    EXPECT_EQ(std::string{error->what()},
              "JAAS file /etc/kafka/connect-jaas.conf (status.rest.jaas.config.file), " + c.message)
        << c.text;
  }
}

TEST(JaasFile, ErrorsNeverShowAnOptionValue) {
  const auto error = file_error_for("KafkaConnect { x.Y required password=\"hunter2\" file };");
  ASSERT_TRUE(error);
  EXPECT_EQ(std::string{error->what()}.find("hunter2"), std::string::npos) << error->what();
}

TEST(JaasFile, AnEmptyFileHasNoEntries) {
  EXPECT_TRUE(parse_jaas_file("p", "f", "").empty());
  EXPECT_TRUE(parse_jaas_file("p", "f", "// nothing\n/* at all */").empty());
}

TEST(JaasConfig, ABraceInAPropertyValueIsStillRefusedAsBefore) {
  const auto error = error_for(plain + " required username=u password=p; }");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rule(), "JAAS config must start each entry with a login module class name");
  EXPECT_EQ(error->value(), "[hidden]");
}
