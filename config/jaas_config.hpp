#pragma once
// Java's sasl.jaas.config, as far as the client library can use it: the username and password of a
// PlainLoginModule or ScramLoginModule entry. The client library has no JAAS; it takes sasl.username and
// sasl.password instead, so a Connect worker's file would otherwise be refused.
//
// The grammar is Kafka's JaasConfig (a StreamTokenizer): `<LoginModuleClass> <ControlFlag>
// (<option>=<value>)* ;` with values bare words or "quoted strings", // and /* */ comments. A client
// takes exactly one entry. Errors are config_error naming the property; they never contain the
// value or any part of it, since it holds a password.
//
// Also a JAAS login configuration file (java.security.auth.login.config) as Java's ConfigFile reads
// it: named entries `Name { <LoginModuleClass> <ControlFlag> (<option>=<value>)* ; ... };`, with the
// same tokens and comments. Connect's Basic auth reads its KafkaConnect entry.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace status_store {

inline constexpr std::string_view plain_login_module = "org.apache.kafka.common.security.plain.PlainLoginModule";
inline constexpr std::string_view scram_login_module = "org.apache.kafka.common.security.scram.ScramLoginModule";

/// One login module of a JAAS entry.
struct jaas_login_module {
  std::string class_name;
  std::string control_flag;  // as written: required, requisite, sufficient or optional, in any case
  std::map<std::string, std::string> options;
};

/// A JAAS file's entries by name (case-sensitive, as in Java); an entry may have no login module.
using jaas_file_entries = std::map<std::string, std::vector<jaas_login_module>>;

struct jaas_credentials {
  std::string login_module;  // plain_login_module or scram_login_module
  std::string username;
  std::string password;
};

/// The credentials in `value`, the value of the property `property` (sasl.jaas.config, possibly
/// with a client prefix). Throws config_error for a malformed entry, more than one entry, another
/// login module, a missing username or password, or ScramLoginModule's tokenauth (delegation
/// tokens, which the client library cannot send: 2.0.2 to 2.8.0 checked).
jaas_credentials parse_jaas_credentials(std::string_view property, std::string_view value);

/// The entries of the JAAS file `file` whose text is `text`; `property` is the setting that named
/// the file (e.g. "status.rest.jaas.config.file"). Throws config_error (what(): "JAAS file FILE
/// (PROPERTY), line N: rule"; value(): the file) for a malformed file or an entry name given twice.
/// No message shows an option value.
jaas_file_entries parse_jaas_file(std::string_view property, std::string_view file, std::string_view text);

}  // namespace status_store
