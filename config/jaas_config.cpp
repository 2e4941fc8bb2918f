#include "config/jaas_config.hpp"

#include "config/ascii.hpp"
#include "config/config_error.hpp"
#include "config/secret_masking.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

namespace status_store {

namespace {

struct token {
  enum class kind { word, quoted, symbol } type;
  std::string text;  // the word, the unquoted string, or the one symbol character
  int line = 1;      // where it starts, for the messages about a JAAS file
};

/// Where the text came from, and how its errors read: a property's value (shown masked), or a JAAS
/// file (named with the line). Never any part of an option value.
struct jaas_source {
  std::string_view property;
  std::string_view file;  // empty: the text is the value of `property`

  [[noreturn]] void fail(const std::string& rule, int line) const {
    if (file.empty()) throw config_error(std::string{property}, std::string{masked_value}, rule);
    throw config_error::with_message(std::string{property}, std::string{file},
                                     "JAAS file " + std::string{file} + " (" + std::string{property} + "), line " +
                                         std::to_string(line) + ": " + rule);
  }
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
  jaas_tokenizer(const jaas_source& source, std::string_view text) : source_{source}, text_{text} {}

  /// All tokens; throws on an unterminated string or comment.
  std::vector<token> tokens() {
    std::vector<token> result;
    while (skip_space_and_comments()) {
      const char c = text_[pos_];
      const int line = line_at(pos_);
      if (c == '"' || c == '\'') {
        result.push_back({token::kind::quoted, quoted_string(c), line});
      } else if (is_word_char(c)) {
        const std::size_t begin = pos_;
        while (pos_ < text_.size() && is_word_char(text_[pos_])) ++pos_;
        result.push_back({token::kind::word, std::string{text_.substr(begin, pos_ - begin)}, line});
      } else {
        result.push_back({token::kind::symbol, std::string(1, c), line});
        ++pos_;
      }
    }
    return result;
  }

 private:
  [[noreturn]] void fail(const std::string& rule) { source_.fail(rule, line_at(pos_)); }

  /// The line of `pos`; positions are asked for in increasing order.
  int line_at(std::size_t pos) {
    for (; counted_ < pos && counted_ < text_.size(); ++counted_) {
      if (text_[counted_] == '\n') ++line_;
    }
    return line_;
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

  const jaas_source& source_;
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t counted_ = 0;  // line_ counts the line ends before this position
  int line_ = 1;
};

bool is_control_flag(std::string_view word) {
  const std::string upper = ascii_uppercase(word);
  return upper == "REQUIRED" || upper == "REQUISITE" || upper == "SUFFICIENT" || upper == "OPTIONAL";
}

/// Reads login modules (JaasConfig.parseAppConfigurationEntry, with its error wording) from `tokens`
/// at `i` until the end or a '}'. Option names are safe to show; values never are.
class module_parser {
 public:
  module_parser(const jaas_source& source, const std::vector<token>& tokens, std::size_t& i)
      : source_{source}, tokens_{tokens}, i_{i} {}

  std::vector<jaas_login_module> modules() {
    std::vector<jaas_login_module> result;
    while (i_ < tokens_.size() && !is_symbol(i_, "}")) result.push_back(module());
    return result;
  }

 private:
  bool is_symbol(std::size_t at, std::string_view symbol) const {
    return tokens_[at].type == token::kind::symbol && tokens_[at].text == symbol;
  }

  [[noreturn]] void fail(const std::string& rule) const {
    source_.fail(rule, tokens_.empty() ? 1 : tokens_[std::min(i_, tokens_.size() - 1)].line);
  }

  jaas_login_module module() {
    jaas_login_module entry;
    if (tokens_[i_].type != token::kind::word) fail("JAAS config must start each entry with a login module class name");
    entry.class_name = tokens_[i_++].text;
    if (i_ >= tokens_.size()) fail("Login module control flag not specified in JAAS config");
    if (tokens_[i_].type != token::kind::word || !is_control_flag(tokens_[i_].text)) {
      fail("Invalid login module control flag in JAAS config (required, requisite, sufficient or optional)");
    }
    entry.control_flag = tokens_[i_++].text;
    while (i_ < tokens_.size() && !is_symbol(i_, ";")) {
      if (is_symbol(i_, "}")) fail("JAAS config entry not terminated by semi-colon");
      if (tokens_[i_].type != token::kind::word) fail("JAAS config has a value where an option name was expected");
      const std::string key = tokens_[i_++].text;
      if (i_ >= tokens_.size() || !is_symbol(i_, "=") || i_ + 1 >= tokens_.size() ||
          tokens_[i_ + 1].type == token::kind::symbol) {
        fail("Value not specified for key '" + key + "' in JAAS config");
      }
      entry.options.insert_or_assign(key, tokens_[i_ + 1].text);
      i_ += 2;
    }
    if (i_ >= tokens_.size()) fail("JAAS config entry not terminated by semi-colon");
    ++i_;  // the ';'
    return entry;
  }

  const jaas_source& source_;
  const std::vector<token>& tokens_;
  std::size_t& i_;
};

/// A property's value: login modules only, no named entries.
std::vector<jaas_login_module> parse_modules(const jaas_source& source, std::string_view text) {
  const std::vector<token> tokens = jaas_tokenizer{source, text}.tokens();
  std::size_t i = 0;
  std::vector<jaas_login_module> modules = module_parser{source, tokens, i}.modules();
  if (i < tokens.size())
    source.fail("JAAS config must start each entry with a login module class name", tokens[i].line);
  return modules;
}

}  // namespace

jaas_credentials parse_jaas_credentials(std::string_view property, std::string_view value) {
  const auto fail = [&](const std::string& rule) -> void {
    throw config_error(std::string{property}, std::string{masked_value}, rule);
  };
  const std::vector<jaas_login_module> entries = parse_modules(jaas_source{property, {}}, value);
  if (entries.empty()) fail("Login module not specified in JAAS config");
  if (entries.size() != 1) {
    fail("JAAS config property contains " + std::to_string(entries.size()) + " login modules, should be 1 module");
  }
  const jaas_login_module& entry = entries.front();
  if (entry.class_name != plain_login_module && entry.class_name != scram_login_module) {
    // A class name is no secret, and naming it is what makes the message useful; a word that does not
    // look like one may be a misplaced password, so it is not shown.
    const bool looks_like_class = entry.class_name.ends_with("LoginModule");
    fail("Login module " + (looks_like_class ? entry.class_name + " " : std::string{}) +
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
  return {entry.class_name, username->second, password->second};
}

jaas_file_entries parse_jaas_file(std::string_view property, std::string_view file, std::string_view text) {
  // Java's ConfigFile: `Name { Module Flag key=value ...; ... };` per entry, names case-sensitive.
  const jaas_source source{property, file};
  const std::vector<token> tokens = jaas_tokenizer{source, text}.tokens();
  const auto expect = [&](std::size_t at, std::string_view symbol, const std::string& after) {
    if (at >= tokens.size())
      source.fail("expected '" + std::string{symbol} + "' " + after + ", read end of file", tokens.back().line);
    if (tokens[at].type != token::kind::symbol || tokens[at].text != symbol) {
      source.fail("expected '" + std::string{symbol} + "' " + after, tokens[at].line);
    }
  };
  jaas_file_entries entries;
  std::size_t i = 0;
  while (i < tokens.size()) {
    if (tokens[i].type == token::kind::symbol) source.fail("expected the name of an entry", tokens[i].line);
    const token& name = tokens[i++];
    expect(i++, "{", "after the entry name " + name.text);
    std::vector<jaas_login_module> modules = module_parser{source, tokens, i}.modules();
    expect(i++, "}", "at the end of the entry " + name.text);
    expect(i++, ";", "after the '}' of the entry " + name.text);
    if (!entries.emplace(name.text, std::move(modules)).second) {
      source.fail("Can not specify multiple entries for " + name.text, name.line);
    }
  }
  return entries;
}

}  // namespace status_store
