#pragma once
// Reading Java-style .properties files exactly as java.util.Properties#load does: `key=value`,
// `key: value`, `key value`, `#` and `!` comments, backslash line continuations, the escapes
// \t \n \r \f \uXXXX (written out as UTF-8), other `\c` meaning `c`, whitespace around the
// separator skipped. A key given twice keeps the last value, as in Java.
//
// Matched against Java 17 and 25 by differential testing. Worth knowing:
// - Trailing whitespace of a value is KEPT, exactly as Java keeps it ("k=v  " gives "v  ");
//   parse_worker_config trims values afterwards, as Kafka's ConfigDef does.
// Where this differs from Java, on purpose:
// - Bytes are taken as they are (a UTF-8 file reads as UTF-8), like Properties#load(Reader) with a
//   UTF-8 reader; Kafka's load(InputStream) would read each byte as ISO-8859-1.
// - A malformed \uXXXX (fewer than four hex digits) reads as "u" plus the text as written, where
//   Java throws IllegalArgumentException("Malformed \uxxxx encoding.").
// - A lone UTF-16 surrogate written as \uXXXX becomes '?', as Java's UTF-8 encoder writes it.
#include <map>
#include <string>
#include <string_view>

namespace status_store {

using properties = std::map<std::string, std::string>;

/// Parses the text of a .properties file. Never throws on content: every input has a meaning.
properties parse_properties(std::string_view text);

/// Reads and parses a file; throws config_error (property "--config") if it cannot be read.
properties load_properties_file(const std::string& path);

/// The whole text of a file; throws config_error(property, path, "cannot read file: <reason>") if it
/// cannot be read.
std::string read_config_file(const std::string& path, std::string_view property = "--config");

}  // namespace status_store
