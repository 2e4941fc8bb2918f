#include "config/properties.hpp"

#include "config/config_error.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace status_store {

namespace {

// java.util.Properties treats exactly these three as whitespace; '\v' and other control characters
// are ordinary key or value characters there, so they are here too.
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\f'; }
bool is_line_end(char c) { return c == '\n' || c == '\r'; }

/// Cuts the text into logical lines the way Properties' LineReader does: comment and blank lines are
/// dropped, a natural line ending in an odd number of backslashes is joined with the next one (that
/// backslash and the next line's leading whitespace removed). Escapes are left in place: the key
/// and value split must still see which separators were escaped.
class logical_line_reader {
 public:
  explicit logical_line_reader(std::string_view text) : text_{text} {}

  bool next(std::string& line) {
    line.clear();
    if (!skip_to_logical_line_start()) return false;
    for (;;) {
      const std::size_t begin = pos_;
      while (pos_ < text_.size() && !is_line_end(text_[pos_])) ++pos_;
      const std::string_view natural = text_.substr(begin, pos_ - begin);
      line.append(natural);
      const std::size_t line_end_length = consume_line_end();
      if (!ends_with_odd_backslashes(natural)) return true;
      line.pop_back();  // the continuation backslash itself is not content
      if (line.empty()) {
        // Java (9 and later, the versions Kafka runs on) treats a logical line that is still empty
        // as not begun: blank lines and comments are skipped again (a line holding only a
        // backslash, then "# c"). One quirk is kept for exactness: when that backslash is followed
        // by nothing or by a one-character line end and then the end of the text, Java returns the
        // empty line, which becomes an entry with an empty key and value.
        if (pos_ == text_.size() && line_end_length <= 1) return true;
        if (!skip_to_logical_line_start()) return false;
        continue;
      }
      while (pos_ < text_.size() && is_blank(text_[pos_])) ++pos_;
      // A continuation onto an empty (or whitespace-only) line or onto the end of the text simply
      // ends the logical line, as in Java.
      if (pos_ == text_.size() || is_line_end(text_[pos_])) return true;
      // Anything else, even a '#', is the continuation's content: comments exist only at the start
      // of a logical line.
    }
  }

 private:
  // Skips whitespace, line ends and comment lines; false at the end of the text. A comment line
  // never continues, even when it ends in a backslash.
  bool skip_to_logical_line_start() {
    for (;;) {
      while (pos_ < text_.size() && (is_blank(text_[pos_]) || is_line_end(text_[pos_]))) ++pos_;
      if (pos_ == text_.size()) return false;
      if (text_[pos_] != '#' && text_[pos_] != '!') return true;
      while (pos_ < text_.size() && !is_line_end(text_[pos_])) ++pos_;
    }
  }

  /// Consumes "\n", "\r" or "\r\n" and returns its length (0 at the end of the text).
  std::size_t consume_line_end() {
    if (pos_ == text_.size()) return 0;
    if (text_[pos_] == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') {
      pos_ += 2;
      return 2;
    }
    ++pos_;
    return 1;
  }

  // Only the backslashes of this natural line count: a joined line starts a fresh run in Java.
  static bool ends_with_odd_backslashes(std::string_view natural) {
    std::size_t count = 0;
    while (count < natural.size() && natural[natural.size() - 1 - count] == '\\') ++count;
    return count % 2 == 1;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

void append_utf8(std::string& out, char32_t code_point) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// The UTF-16 code unit of a well-formed "\uXXXX" at `text[pos]`, or -1.
int32_t unicode_escape_at(std::string_view text, std::size_t pos) {
  if (pos + 6 > text.size() || text[pos] != '\\' || text[pos + 1] != 'u') return -1;
  int32_t unit = 0;
  for (std::size_t i = pos + 2; i < pos + 6; ++i) {
    const int digit = hex_digit_value(text[i]);
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

bool is_high_surrogate(int32_t unit) { return unit >= 0xD800 && unit <= 0xDBFF; }
bool is_low_surrogate(int32_t unit) { return unit >= 0xDC00 && unit <= 0xDFFF; }

/// Properties' loadConvert: resolves the escapes of a key or value.
std::string unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    const char c = text[pos];
    if (c != '\\') {
      // Bytes are taken as they are, so a UTF-8 file reads as UTF-8. (Java's load(InputStream), which
      // Kafka uses, would read each byte as ISO-8859-1; load(Reader) with UTF-8 is what we match.)
      out += c;
      ++pos;
      continue;
    }
    if (pos + 1 == text.size()) {
      // Unreachable through parse_properties: a logical line never ends in an unescaped backslash.
      ++pos;
      continue;
    }
    const int32_t unit = unicode_escape_at(text, pos);
    if (unit >= 0) {
      pos += 6;
      if (is_high_surrogate(unit)) {
        const int32_t next_unit = unicode_escape_at(text, pos);
        if (is_low_surrogate(next_unit)) {
          pos += 6;
          append_utf8(out, 0x10000 + ((static_cast<char32_t>(unit) - 0xD800) << 10) +
                               (static_cast<char32_t>(next_unit) - 0xDC00));
          continue;
        }
      }
      if (is_high_surrogate(unit) || is_low_surrogate(unit)) {
        // A lone surrogate has no UTF-8 form; Java's UTF-8 encoder writes '?' for it, and so do we.
        out += '?';
      } else {
        append_utf8(out, static_cast<char32_t>(unit));
      }
      continue;
    }
    // Java throws IllegalArgumentException("Malformed \uxxxx encoding.") for a '\u' without four hex
    // digits. parse_properties promises not to throw, so such a 'u' falls under the general rule
    // below ("\c" means "c") and the text after it is read as written.
    const char escaped = text[pos + 1];
    pos += 2;
    switch (escaped) {
      case 't':
        out += '\t';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 'f':
        out += '\f';
        break;
      default:
        out += escaped;
        break;
    }
  }
  return out;
}

}  // namespace

properties parse_properties(std::string_view text) {
  properties result;
  logical_line_reader reader{text};
  std::string line;
  while (reader.next(line)) {
    // The key ends at the first unescaped '=', ':' or whitespace.
    std::size_t key_end = 0;
    bool preceded_by_backslash = false;
    while (key_end < line.size()) {
      const char c = line[key_end];
      if (!preceded_by_backslash && (c == '=' || c == ':' || is_blank(c))) break;
      preceded_by_backslash = c == '\\' && !preceded_by_backslash;
      ++key_end;
    }
    // Then whitespace, at most one '=' or ':', and whitespace again separate it from the value:
    // "k = = v" has the value "= v".
    std::size_t value_begin = key_end;
    bool separator_seen = false;
    while (value_begin < line.size()) {
      const char c = line[value_begin];
      if (is_blank(c)) {
        ++value_begin;
      } else if (!separator_seen && (c == '=' || c == ':')) {
        separator_seen = true;
        ++value_begin;
      } else {
        break;
      }
    }
    // Trailing whitespace of the value is deliberately kept: java.util.Properties keeps it
    // ("k=v  " has the value "v  "). parse_worker_config trims values, as Kafka's ConfigDef does.
    std::string key = unescape(std::string_view{line}.substr(0, key_end));
    result.insert_or_assign(std::move(key), unescape(std::string_view{line}.substr(value_begin)));
  }
  return result;
}

std::string read_config_file(const std::string& path, std::string_view property) {
  const auto fail = [&path, property](int error_number) {
    return config_error(std::string{property}, path, std::string{"cannot read file: "} + std::strerror(error_number));
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw fail(errno);
  std::string text;
  char buffer[8192];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      const int error_number = errno;  // EISDIR for a directory, EIO, ...
      ::close(fd);
      throw fail(error_number);
    }
  }
  ::close(fd);
  return text;
}

properties load_properties_file(const std::string& path) { return parse_properties(read_config_file(path)); }

}  // namespace status_store
