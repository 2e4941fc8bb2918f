// Basic auth as Connect's BasicAuthSecurityRestExtension does it: rest.extension.classes names the
// extension, the JVM's JAAS configuration (-Djava.security.auth.login.config in KAFKA_OPTS, or
// status-store's status.rest.jaas.config.file) has a KafkaConnect entry with a PropertyFileLoginModule,
// whose file option names a properties file of user=password lines. JaasBasicAuthFilter decodes the
// Authorization header. Where Connect fails only at the first request (no file option, an unreadable
// credentials file), status-store fails at start-up; an empty credentials file, which Connect takes as
// "let every request through", is refused.
#include "config/ascii.hpp"
#include "config/config_error.hpp"
#include "config/jaas_config.hpp"
#include "config/kafka_value_parsing.hpp"
#include "config/rest_settings_parts.hpp"

#include <algorithm>
#include <array>

namespace status_store {

namespace {

constexpr std::string_view extension_classes_key = "rest.extension.classes";
constexpr std::string_view jaas_file_key = "status.rest.jaas.config.file";
constexpr std::string_view login_config_option = "-Djava.security.auth.login.config=";
constexpr std::string_view property_file_login_module =
    "org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule";

/// KAFKA_OPTS split into words as a shell splits them: whitespace separates, '...' and "..." group
/// (and are removed), a backslash outside '...' takes the next character as it is.
std::vector<std::string> shell_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0 && c == quote) {
      quote = 0;
    } else if (quote != '\'' && c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_word = true;
    } else if (quote != 0) {
      word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

/// Where the JAAS file came from, as messages name it.
struct jaas_location {
  std::string file;
  std::string property;  // "status.rest.jaas.config.file" or the KAFKA_OPTS option
};

[[noreturn]] void fail(const jaas_location& where, const std::string& what) {
  throw config_error::with_message(where.property, where.file,
                                   "JAAS file " + where.file + " (" + where.property + "): " + what);
}

std::string reason_of(const config_error& error) {
  const std::string& rule = error.rule();  // "cannot read file: No such file or directory"
  const std::size_t colon = rule.find(": ");
  return colon == std::string::npos ? rule : rule.substr(colon + 2);
}

std::optional<jaas_location> find_jaas_file(const properties& props, std::string_view kafka_opts) {
  if (const auto file = rest_parts::value_of(props, jaas_file_key); file && !file->empty()) {
    return jaas_location{std::string{*file}, std::string{jaas_file_key}};
  }
  if (auto file = login_config_from_kafka_opts(kafka_opts)) {
    return jaas_location{std::move(*file), "-Djava.security.auth.login.config in KAFKA_OPTS"};
  }
  return std::nullopt;
}

/// The KafkaConnect entry's one PropertyFileLoginModule; JAAS's LoginContext falls back to the
/// entry "other" when there is no entry of the application's name.
const jaas_login_module& connect_login_module(const jaas_location& where, const jaas_file_entries& entries) {
  auto entry = entries.find("KafkaConnect");
  if (entry == entries.end()) entry = entries.find("other");
  if (entry == entries.end()) {
    std::string names;
    for (const auto& [name, modules] : entries) names += (names.empty() ? "" : ", ") + name;
    fail(where, "no KafkaConnect entry, which " + std::string{basic_auth_extension_class} +
                    " reads (entries: " + (names.empty() ? "none" : names) + ")");
  }
  const std::vector<jaas_login_module>& modules = entry->second;
  if (modules.size() != 1) {
    fail(where, "the " + entry->first + " entry must have exactly one login module, " +
                    std::string{property_file_login_module} + "; it has " + std::to_string(modules.size()));
  }
  if (modules.front().class_name != property_file_login_module) {
    fail(where, "login module " + modules.front().class_name +
                    " is not supported: status-store cannot load Java classes; it implements " +
                    std::string{property_file_login_module} + " only");
  }
  return modules.front();
}

std::string credentials_file_of(const jaas_location& where, const jaas_login_module& module) {
  const auto file = module.options.find("file");
  if (file == module.options.end() || java_trim(file->second).empty()) {
    fail(where, "Property Credentials file must be specified: give " + std::string{property_file_login_module} +
                    " the option file=\"/path/to/credentials.properties\"");
  }
  if (file->second.find("${") != std::string::npos) {
    fail(where, "file=\"" + file->second + "\": status-store does not expand ${...} Java system properties; " +
                    "write the path out");
  }
  return file->second;
}

std::map<std::string, std::string> load_users(const jaas_location& where, const std::string& file) {
  const std::string described = "the credentials file " + file + " named by the JAAS file " + where.file;
  properties users;
  try {
    users = parse_properties(read_config_file(file));
  } catch (const config_error& error) {
    throw config_error::with_message(where.property, file, "Cannot read " + described + ": " + reason_of(error));
  }
  if (users.empty()) {
    throw config_error::with_message(
        where.property, file,
        "No user in " + described +
            " (user=password lines): Kafka Connect would let every request through, status-store refuses to "
            "start; add users, or remove " +
            std::string{basic_auth_extension_class} + " from " + std::string{extension_classes_key});
  }
  return users;
}

rest_basic_auth read_basic_auth(const jaas_location& where) {
  std::string text;
  try {
    text = read_config_file(where.file, where.property);
  } catch (const config_error& error) {
    throw config_error::with_message(
        where.property, where.file,
        "Cannot read the JAAS file " + where.file + " (" + where.property + "): " + reason_of(error));
  }
  const jaas_file_entries entries = parse_jaas_file(where.property, where.file, text);
  const jaas_login_module& module = connect_login_module(where, entries);
  rest_basic_auth auth;
  auth.jaas_file = where.file;
  auth.credentials_file = credentials_file_of(where, module);
  auth.users = load_users(where, auth.credentials_file);
  return auth;
}

/// Equality whose time depends on the lengths only, never on where the texts differ.
bool equal_in_constant_time(std::string_view a, std::string_view b) {
  const std::size_t n = std::max(a.size(), b.size());
  volatile unsigned char difference = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = static_cast<unsigned char>(i < a.size() ? a[i] : 0);
    const auto y = static_cast<unsigned char>(i < b.size() ? b[i] : 0);
    difference = difference | static_cast<unsigned char>(x ^ y);
  }
  return difference == 0;
}

int base64_digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/// Java's Base64.getDecoder(): the basic alphabet, no whitespace, padding optional but complete when
/// given, nothing after it.
std::optional<std::string> decode_base64(std::string_view text) {
  std::size_t padding = 0;
  while (padding < 2 && !text.empty() && text.back() == '=') {
    text.remove_suffix(1);
    ++padding;
  }
  if (text.size() % 4 == 1 || (padding > 0 && (text.size() + padding) % 4 != 0)) return std::nullopt;
  std::string decoded;
  unsigned bits = 0;
  int bit_count = 0;
  for (const char c : text) {
    const int digit = base64_digit(c);
    if (digit < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<unsigned>(digit);
    bit_count += 6;
    if (bit_count >= 8) {
      bit_count -= 8;
      decoded += static_cast<char>((bits >> bit_count) & 0xFF);
    }
  }
  return decoded;
}

}  // namespace

std::optional<std::string> login_config_from_kafka_opts(std::string_view kafka_opts) {
  std::optional<std::string> file;
  for (const std::string& word : shell_words(kafka_opts)) {
    if (!word.starts_with(login_config_option)) continue;
    std::string_view value = std::string_view{word}.substr(login_config_option.size());
    if (value.starts_with("=")) value.remove_prefix(1);  // ==FILE: this file only, a difference Java alone has
    if (value.starts_with("file://")) {
      value.remove_prefix(7);
    } else if (value.starts_with("file:")) {
      value.remove_prefix(5);
    }
    file =
        value.empty() ? std::nullopt : std::optional<std::string>{std::string{value}};  // the last one wins, as in Java
  }
  return file;
}

bool basic_auth_accepts(const rest_basic_auth& auth, std::string_view user, std::string_view password) {
  bool accepted = false;
  for (const auto& [known_user, known_password] : auth.users) {
    // `&` and `|`, not `&&` and `||`: every comparison runs.
    accepted = accepted | (equal_in_constant_time(known_user, user) & equal_in_constant_time(known_password, password));
  }
  return accepted;
}

std::optional<std::pair<std::string, std::string>> parse_basic_authorization(std::string_view header_value) {
  const std::string_view value = java_trim(header_value);
  const std::size_t space = value.find(' ');
  if (space == std::string_view::npos || space == 0) return std::nullopt;
  if (ascii_lowercase(value.substr(0, space)) != "basic") return std::nullopt;
  std::string_view encoded = value.substr(space + 1);
  while (encoded.starts_with(' ')) encoded.remove_prefix(1);
  const std::optional<std::string> decoded = decode_base64(encoded);
  if (!decoded) return std::nullopt;
  const std::size_t colon = decoded->find(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;  // no user: Connect's "malformed"
  return std::pair{decoded->substr(0, colon), decoded->substr(colon + 1)};
}

namespace rest_parts {

std::optional<rest_basic_auth> parse_basic_auth(const properties& props, std::string_view kafka_opts,
                                                std::vector<std::string>& notes) {
  bool enabled = false;
  const std::optional<std::string_view> classes = value_of(props, extension_classes_key);
  for (const std::string& name : parse_list(classes.value_or(""))) {
    if (name == basic_auth_extension_class) {
      enabled = true;
      continue;
    }
    throw invalid(extension_classes_key, *classes,
                  (name.empty() ? std::string{"Empty class name in the list"} : "Cannot load " + name) +
                      ": status-store cannot load Java classes; of Connect's REST extensions it implements " +
                      std::string{basic_auth_extension_class} + " only (Basic auth against a credentials file)");
  }
  if (!enabled) {
    if (value_of(props, jaas_file_key)) {
      notes.push_back(std::string{jaas_file_key} + " is not used: " + std::string{extension_classes_key} +
                      " does not name " + std::string{basic_auth_extension_class});
    }
    return std::nullopt;
  }
  const std::optional<jaas_location> where = find_jaas_file(props, kafka_opts);
  if (!where) {
    throw config_error::with_message(
        std::string{extension_classes_key}, std::string{*classes},
        std::string{basic_auth_extension_class} + " needs a JAAS file with a KafkaConnect entry: set " +
            std::string{jaas_file_key} +
            "=FILE, or start status-store with KAFKA_OPTS=-Djava.security.auth.login.config=FILE as a Connect "
            "worker is started");
  }
  return read_basic_auth(*where);
}

}  // namespace rest_parts

}  // namespace status_store
