// Basic auth of the REST listener as Connect's BasicAuthSecurityRestExtension configures it:
// rest.extension.classes, the JAAS file from KAFKA_OPTS or status.rest.jaas.config.file, its
// KafkaConnect entry, the credentials file; every error names the file. Then the request side:
// basic_auth_accepts and parse_basic_authorization.
#include "config/config_error.hpp"
#include "config/rest_settings.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace status_store {
namespace {

const std::string extension = "org.apache.kafka.connect.rest.basic.auth.extension.BasicAuthSecurityRestExtension";
const std::string module = "org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule";

class RestBasicAuth : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "rest-basic-auth-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = (dir_ / name).string();
    std::ofstream{path} << text;
    return path;
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  /// A JAAS file whose KafkaConnect entry names a credentials file of two users.
  std::string connect_jaas() const {
    const std::string credentials = write("credentials.properties", "# users\nalice: alice-secret\nbob=b:o:b\n");
    return write("connect-jaas.conf", "/* REST */ KafkaConnect {\n  " + module + " required\n  file=\"" + credentials +
                                          "\";\n};\n// the clients'\nKafkaClient { x.Y required; };\n");
  }

  static properties enabled(const properties& extra = {}) {
    properties props{{"rest.extension.classes", extension}};
    for (const auto& [key, value] : extra) props.insert_or_assign(key, value);
    return props;
  }

  static std::optional<config_error> error_for(const properties& props, const std::string& kafka_opts = {}) {
    try {
      parse_rest_settings(props, kafka_opts);
    } catch (const config_error& error) {
      return error;
    }
    ADD_FAILURE() << "expected a config_error";
    return std::nullopt;
  }

  std::filesystem::path dir_;
};

TEST_F(RestBasicAuth, JaasFileFromKafkaOptsAsAConnectWorkerIsStarted) {
  const std::string jaas = connect_jaas();
  const rest_settings settings =
      parse_rest_settings(enabled(), "-Xmx1G -Djava.security.auth.login.config=" + jaas + " -Dother=1");
  ASSERT_TRUE(settings.basic_auth);
  EXPECT_EQ(settings.basic_auth->jaas_file, jaas);
  EXPECT_EQ(settings.basic_auth->credentials_file, path("credentials.properties"));
  EXPECT_EQ(settings.basic_auth->users,
            (std::map<std::string, std::string>{{"alice", "alice-secret"}, {"bob", "b:o:b"}}));
}

TEST_F(RestBasicAuth, TheOwnSettingWinsOverKafkaOpts) {
  const std::string jaas = connect_jaas();
  const rest_settings settings = parse_rest_settings(enabled({{"status.rest.jaas.config.file", jaas}}),
                                                     "-Djava.security.auth.login.config=/nonexistent.conf");
  ASSERT_TRUE(settings.basic_auth);
  EXPECT_EQ(settings.basic_auth->jaas_file, jaas);
}

TEST_F(RestBasicAuth, NotEnabledReadsNoFile) {
  EXPECT_FALSE(parse_rest_settings({}, "-Djava.security.auth.login.config=/nonexistent.conf").basic_auth);
  const rest_settings settings = parse_rest_settings({{"status.rest.jaas.config.file", "/nonexistent.conf"}});
  EXPECT_FALSE(settings.basic_auth);
  ASSERT_EQ(settings.notes.size(), 1u);
  EXPECT_TRUE(settings.notes[0].starts_with("status.rest.jaas.config.file is not used")) << settings.notes[0];
}

TEST_F(RestBasicAuth, OtherExtensionClassesAreRefusedByName) {
  auto error = error_for({{"rest.extension.classes", extension + ",com.example.AuditExtension"}});
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "rest.extension.classes");
  EXPECT_TRUE(
      error->rule().starts_with("Cannot load com.example.AuditExtension: status-store cannot load Java "
                                "classes; of Connect's REST extensions it implements " +
                                extension + " only"))
      << error->rule();
  error = error_for({{"rest.extension.classes", extension + ",,"}});
  ASSERT_TRUE(error);
  EXPECT_TRUE(error->rule().starts_with("Empty class name in the list")) << error->rule();
}

TEST_F(RestBasicAuth, EnabledWithoutAJaasFileNamesBothWaysToGiveIt) {
  const auto error = error_for(enabled(), "-Xmx1G");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->property(), "rest.extension.classes");
  EXPECT_EQ(std::string{error->what()},
            extension +
                " needs a JAAS file with a KafkaConnect entry: set status.rest.jaas.config.file=FILE, or start "
                "status-store with KAFKA_OPTS=-Djava.security.auth.login.config=FILE as a Connect worker is started");
}

TEST_F(RestBasicAuth, EveryFileErrorNamesTheFile) {
  const std::string entry_start = "KafkaConnect { " + module + " required ";
  const struct {
    std::string jaas_text;  // empty: no JAAS file at all
    std::string message;    // what(), "@" standing for the JAAS file
  } cases[] = {
      {"", "Cannot read the JAAS file @ (status.rest.jaas.config.file): No such file or directory"},
      {"KafkaClient { x.Y required; };", "JAAS file @ (status.rest.jaas.config.file): no KafkaConnect entry, which " +
                                             extension + " reads (entries: KafkaClient)"},
      {"KafkaConnect { };",
       "JAAS file @ (status.rest.jaas.config.file): the KafkaConnect entry must have exactly "
       "one login module, " +
           module + "; it has 0"},
      {"KafkaConnect { com.example.LdapLoginModule required; };",
       "JAAS file @ (status.rest.jaas.config.file): login module com.example.LdapLoginModule is not supported: "
       "status-store cannot load Java classes; it implements " +
           module + " only"},
      {entry_start + "; };",
       "JAAS file @ (status.rest.jaas.config.file): Property Credentials file must be "
       "specified: give " +
           module + " the option file=\"/path/to/credentials.properties\""},
      {entry_start + "file=\"${user.home}/c\"; };",
       "JAAS file @ (status.rest.jaas.config.file): file=\"${user.home}/c\": status-store does not expand ${...} "
       "Java system properties; write the path out"},
      {entry_start + "file=\"" + path("missing.properties") + "\"; };",
       "Cannot read the credentials file " + path("missing.properties") +
           " named by the JAAS file @: No such file or directory"},
      {entry_start + "file=\"" + write("empty.properties", "# nobody\n") + "\"; };",
       "No user in the credentials file " + path("empty.properties") +
           " named by the JAAS file @ (user=password lines): Kafka Connect would let every request through, "
           "status-store refuses to start; add users, or remove " +
           extension + " from rest.extension.classes"},
      {"KafkaConnect {",
       "JAAS file @ (status.rest.jaas.config.file), line 1: expected '}' at the end of the entry "
       "KafkaConnect, read end of file"},
  };
  int n = 0;
  for (const auto& c : cases) {
    const std::string jaas =
        c.jaas_text.empty() ? path("none.conf") : write(std::to_string(n++) + ".conf", c.jaas_text);
    const auto error = error_for(enabled({{"status.rest.jaas.config.file", jaas}}));
    ASSERT_TRUE(error) << c.jaas_text;
    std::string expected = c.message;
    for (std::size_t at; (at = expected.find('@')) != std::string::npos;) expected.replace(at, 1, jaas);
    EXPECT_EQ(std::string{error->what()}, expected) << c.jaas_text;
    EXPECT_EQ(error->property(), "status.rest.jaas.config.file") << c.jaas_text;
  }
}

TEST_F(RestBasicAuth, TheOtherEntryIsJaassFallbackAsInLoginContext) {
  const std::string credentials = write("c.properties", "u=p\n");
  const std::string jaas = write("j.conf", "other { " + module + " optional file=\"" + credentials + "\"; };");
  const rest_settings settings = parse_rest_settings(enabled(), "-Djava.security.auth.login.config=" + jaas);
  ASSERT_TRUE(settings.basic_auth);
  EXPECT_EQ(settings.basic_auth->users.at("u"), "p");
}

TEST(RestKafkaOpts, TheLoginConfigOptionInItsForms) {
  const struct {
    std::string opts;
    std::optional<std::string> file;
  } cases[] = {
      {"", std::nullopt},
      {"-Xmx1G -Dx=y", std::nullopt},
      {"-Djava.security.auth.login.config=/etc/kafka/connect-jaas.conf", "/etc/kafka/connect-jaas.conf"},
      {"-Djava.security.auth.login.config==/etc/a.conf", "/etc/a.conf"},
      {"  -Djava.security.auth.login.config=\"/etc/with space.conf\"\t-Xmx1G", "/etc/with space.conf"},
      {"'-Djava.security.auth.login.config=/etc/q.conf'", "/etc/q.conf"},
      {"-Djava.security.auth.login.config=/a.conf -Djava.security.auth.login.config=/b.conf", "/b.conf"},
      {"-Djava.security.auth.login.config=file:///etc/u.conf", "/etc/u.conf"},
      {"-Djava.security.auth.login.config=file:/etc/v.conf", "/etc/v.conf"},
      {"-Djava.security.auth.login.config=", std::nullopt},
      {"-Djava.security.auth.login.configx=/a.conf", std::nullopt},
  };
  for (const auto& c : cases) EXPECT_EQ(login_config_from_kafka_opts(c.opts), c.file) << c.opts;
}

TEST(RestBasicAuthRequests, AcceptsOnlyAKnownUserWithItsPassword) {
  const rest_basic_auth auth{"j", "c", {{"alice", "alice-secret"}, {"bob", ""}, {"carol", "a:b"}}};
  EXPECT_TRUE(basic_auth_accepts(auth, "alice", "alice-secret"));
  EXPECT_TRUE(basic_auth_accepts(auth, "bob", ""));  // an empty password is a password, as in Connect
  EXPECT_TRUE(basic_auth_accepts(auth, "carol", "a:b"));
  EXPECT_FALSE(basic_auth_accepts(auth, "alice", "alice-secreT"));
  EXPECT_FALSE(basic_auth_accepts(auth, "alice", "alice-secret "));
  EXPECT_FALSE(basic_auth_accepts(auth, "alice", "alice"));
  EXPECT_FALSE(basic_auth_accepts(auth, "alice", ""));
  EXPECT_FALSE(basic_auth_accepts(auth, "bob", "x"));
  EXPECT_FALSE(basic_auth_accepts(auth, "dave", "alice-secret"));
  EXPECT_FALSE(basic_auth_accepts(auth, "", ""));
  EXPECT_FALSE(basic_auth_accepts(rest_basic_auth{}, "alice", "alice-secret"));
}

TEST(RestBasicAuthRequests, DecodesTheAuthorizationHeaderAsJaasBasicAuthFilter) {
  using credentials = std::optional<std::pair<std::string, std::string>>;
  const struct {
    std::string header;
    credentials expected;
  } cases[] = {
      {"Basic YWxpY2U6YWxpY2Utc2VjcmV0", std::pair{"alice", "alice-secret"}},  // alice:alice-secret
      {"basic YWxpY2U6YWxpY2Utc2VjcmV0", std::pair{"alice", "alice-secret"}},
      {"BASIC  YWxpY2U6YWxpY2Utc2VjcmV0 ", std::pair{"alice", "alice-secret"}},
      {"Basic Ym9iOg==", std::pair{"bob", ""}},   // bob: (empty password)
      {"Basic Ym9iOg", std::pair{"bob", ""}},     // padding is optional, as in Java's decoder
      {"Basic YTpiOmM=", std::pair{"a", "b:c"}},  // a:b:c, split at the first ':'
      {"Basic Om5vdXNlcg==", std::nullopt},       // :nouser
      {"Basic bm9jb2xvbg==", std::nullopt},       // nocolon
      {"Basic Ym9iOg=", std::nullopt},            // incomplete padding
      {"Basic Ym9iOg===", std::nullopt},          // too much padding
      {"Basic Y", std::nullopt},                  // one character left over
      {"Basic Ym9i*g==", std::nullopt},           // not in the alphabet
      {"Basic Ym9iOg==Ym9i", std::nullopt},       // data after the padding
      {"Basic Ym9i Og==", std::nullopt},          // whitespace inside
      {"Basic", std::nullopt},                    // no space
      {" Basic", std::nullopt},
      {"Bearer YWxpY2U6YWxpY2Utc2VjcmV0", std::nullopt},  // another scheme
      {"", std::nullopt},
  };
  for (const auto& c : cases) EXPECT_EQ(parse_basic_authorization(c.header), c.expected) << c.header;
}

TEST(RestBasicAuthRequests, ConnectsFailureBody) {
  EXPECT_EQ(basic_auth_failure_message, "User cannot access the resource.");
}

}  // namespace
}  // namespace status_store
