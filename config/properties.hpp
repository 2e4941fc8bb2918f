#pragma once
// Reading Java-style .properties files exactly as java.util.Properties#load does: `key=value`,
// `key: value`, `key value`, `#` and `!` comments, backslash line continuations, the escapes
// \t \n \r \f \uXXXX (written out as UTF-8), other `\c` meaning `c`, surrounding whitespace trimmed.
// A key given twice keeps the last value, as in Java.
#include <map>
#include <string>
#include <string_view>

namespace status_store {

using properties = std::map<std::string, std::string>;

/// Parses the text of a .properties file. Never throws on content: Java accepts every input.
properties parse_properties(std::string_view text);

/// Reads and parses a file; throws config_error (property "--config") if it cannot be read.
properties load_properties_file(const std::string& path);

}  // namespace status_store
