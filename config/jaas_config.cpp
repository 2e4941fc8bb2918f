#include "config/jaas_config.hpp"

#include "config/ascii.hpp"
#include "config/config_error.hpp"
#include "config/secret_masking.hpp"

#include <map>
#include <optional>
#include <vector>

namespace status_store {

namespace {

struct token {
  enum class kind { word, quoted, symbol } type;
  std::string text;  // the word, the unquoted string, or the one symbol character
};

bool is_word_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  // StreamTokenizer's defaults (letters, digits, '.', '-', bytes >= 160) plus JaasConfig's '_' and
  // '$'. Java reads a bare word starting with a digit as a number and then refuses it; this accepts
  // it, which only makes more files work.
  return is_ascii_alnum(c) || c == '.' || c == '-' || c == '_' || c == '$' || u >= 160;
}

class jaas_tokenizer {
 public:
  jaas_tokenizer(std::string_view property, std::string_view text) : property_{property}, text_{text} {}

  /// All tokens; throws on an unterminated string or comment.
  std::vector<token> tokens() {
    std::vector<token> result;
    while (skip_space_and_comments()) {
      const char c = text_[pos_];
      if (c == '"' || c == '\'') {
        result.push_back({token::kind::quoted, quoted_string(c)});
      } else if (is_word_char(c)) {
        const std::size_t begin = pos_;
        while (pos_ < text_.size() && is_word_char(text_[pos_])) ++pos_;
        result.push_back({token::kind::word, std::string{text_.substr(begin, pos_ - begin)}});
      } else {
        result.push_back({token::kind::symbol, std::string(1, c)});
        ++pos_;
      }
    }
    return result;
  }

 private:
  [[noreturn]] void fail(const std::string& rule) const {
    throw config_error(std::string{property_}, std::string{masked_value}, rule);
  }

  /// Skips whitespace and comments; false at the end of the text.
  bool skip_space_and_comments() {
    while (pos_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (c <= ' ') {
        ++pos_;
      } else if (text_.substr(pos_, 2) == "//") {
        while (pos_ < text_.size() && text_[pos_] != '\n' && text_[pos_] != '\r') ++pos_;
      } else if (text_.substr(pos_, 2) == "/*") {
        const std::size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) fail("JAAS config has an unterminated /* comment");
        pos_ = end + 2;
      } else {
        return true;
      }
    }
    return false;
  }

  /// A string in `quote`s with StreamTokenizer's escapes (\n, \t, \b, \f, \r, \\, \", \', other
  /// characters as themselves). The caller is at the opening quote.
  std::string quoted_string(char quote) {
    std::string value;
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != quote && text_[pos_] != '\n' && text_[pos_] != '\r') {
      char c = text_[pos_++];
      if (c == '\\' && pos_ < text_.size()) {
        c = text_[pos_++];
        switch (c) {
          case 'n':
            c = '\n';
            break;
          case 't':
            c = '\t';
            break;
          case 'b':
            c = '\b';
            break;
          case 'f':
            c = '\f';
            break;
          case 'r':
            c = '\r';
            break;
          default:
            break;
        }
      }
      value += c;
    }
    if (pos_ >= text_.size() || text_[pos_] != quote) fail("JAAS config has an unterminated quoted value");
    ++pos_;
    return value;
  }

  std::string_view property_;
  std::string_view text_;
  std::size_t pos_ = 0;
};

struct jaas_entry {
  std::string login_module;
  std::map<std::string, std::string> options;
};

bool is_control_flag(std::string_view word) {
  const std::string upper = ascii_uppercase(word);
  return upper == "REQUIRED" || upper == "REQUISITE" || upper == "SUFFICIENT" || upper == "OPTIONAL";
}

/// JaasConfig.parseAppConfigurationEntry for every entry, with its error wording. Option names are
/// safe to show; values never are.
std::vector<jaas_entry> parse_entries(std::string_view property, const std::vector<token>& tokens) {
  const auto fail = [&](const std::string& rule) -> void {
    throw config_error(std::string{property}, std::string{masked_value}, rule);
  };
  std::vector<jaas_entry> entries;
  std::size_t i = 0;
  while (i < tokens.size()) {
    jaas_entry entry;
    if (tokens[i].type != token::kind::word) fail("JAAS config must start each entry with a login module class name");
    entry.login_module = tokens[i++].text;
    if (i >= tokens.size()) fail("Login module control flag not specified in JAAS config");
    if (tokens[i].type != token::kind::word || !is_control_flag(tokens[i].text)) {
      fail("Invalid login module control flag in JAAS config (required, requisite, sufficient or optional)");
    }
    ++i;
    while (i < tokens.size() && !(tokens[i].type == token::kind::symbol && tokens[i].text == ";")) {
      if (tokens[i].type != token::kind::word) fail("JAAS config has a value where an option name was expected");
      const std::string key = tokens[i++].text;
      if (i >= tokens.size() || tokens[i].type != token::kind::symbol || tokens[i].text != "=" ||
          i + 1 >= tokens.size() || tokens[i + 1].type == token::kind::symbol) {
        fail("Value not specified for key '" + key + "' in JAAS config");
      }
      entry.options.insert_or_assign(key, tokens[i + 1].text);
      i += 2;
    }
    if (i >= tokens.size()) fail("JAAS config entry not terminated by semi-colon");
    ++i;  // the ';'
    entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace

jaas_credentials parse_jaas_credentials(std::string_view property, std::string_view value) {
  const auto fail = [&](const std::string& rule) -> void {
    throw config_error(std::string{property}, std::string{masked_value}, rule);
  };
  const std::vector<jaas_entry> entries = parse_entries(property, jaas_tokenizer{property, value}.tokens());
  if (entries.empty()) fail("Login module not specified in JAAS config");
  if (entries.size() != 1) {
    fail("JAAS config property contains " + std::to_string(entries.size()) + " login modules, should be 1 module");
  }
  const jaas_entry& entry = entries.front();
  if (entry.login_module != plain_login_module && entry.login_module != scram_login_module) {
    // A class name is no secret, and naming it is what makes the message useful; a word that does not
    // look like one may be a misplaced password, so it is not shown.
    const bool looks_like_class = entry.login_module.ends_with("LoginModule");
    fail("Login module " + (looks_like_class ? entry.login_module + " " : std::string{}) +
         "is not supported: status-store's Kafka client has no JAAS; " + "it translates " +
         std::string{plain_login_module} + " and " + std::string{scram_login_module} +
         " (username and password); for other mechanisms set the client's own sasl.* properties instead of " +
         "sasl.jaas.config");
  }
  const auto tokenauth = entry.options.find("tokenauth");
  if (tokenauth != entry.options.end() && tokenauth->second == "true") {
    fail("ScramLoginModule with tokenauth=true (delegation tokens) is not supported by status-store's Kafka client");
  }
  const auto username = entry.options.find("username");
  const auto password = entry.options.find("password");
  if (username == entry.options.end() || username->second.empty()) fail("JAAS config must set username");
  if (password == entry.options.end()) fail("JAAS config must set password");
  return {entry.login_module, username->second, password->second};
}

}  // namespace status_store
