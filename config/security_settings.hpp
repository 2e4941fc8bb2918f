#pragma once
// A Connect worker's security settings in the names the client library understands. Java and the client library
// share security.protocol, sasl.mechanism, sasl.username/password (the client library only),
// ssl.keystore.location/password (PKCS#12 in both) and ssl.key.password; the rest differs:
//
//   Java (Connect worker)                         client library
//   sasl.jaas.config = PlainLoginModule /          sasl.username + sasl.password
//                      ScramLoginModule ...
//   ssl.truststore.type=PEM + .location           ssl.ca.location
//   ssl.truststore.certificates (PEM text)        ssl.ca.pem
//   ssl.truststore.type=JKS|PKCS12 (+ .location)  refused: the client library cannot read them; use PEM
//   ssl.keystore.type=PKCS12                      dropped (the client library's keystore is PKCS#12)
//   ssl.keystore.type=JKS|PEM                     refused, naming what to use instead
//   ssl.keystore.certificate.chain / .key (PEM)   ssl.certificate.pem / ssl.key.pem
//   ssl.endpoint.identification.algorithm=""      none   ("https" stays https, the default of both)
//   sasl.login.class and other Java classes        refused: the client library cannot load a Java class
//   JVM-only tuning (ssl.protocol, ssl.enabled.protocols, ssl.keymanager.algorithm, ...,
//   sasl.login.refresh.*)                         dropped with a warning
//
// Every refusal is a config_error naming the property (with its client prefix) and the rule, so
// check-config exits 2 instead of a client failing at start-up. Secret values never appear in an
// error or a warning.
#include "config/worker_config.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace status_store {

using settings_map = std::map<std::string, std::string>;

/// One layer of client settings (the common security settings, or a producer./consumer./admin.
/// override map with the prefix stripped) with its security names translated; other keys are left
/// as they are. `prefix` is put in front of names in errors and warnings. `inherited` is the common
/// layer as written, consulted for sasl.mechanism and ssl.truststore.type when `settings` is an
/// override layer that does not set them (nullptr for the common layer itself).
settings_map client_security_settings(const settings_map& settings, std::string_view prefix,
                                      const settings_map* inherited, std::vector<std::string>* warnings);

/// Translates the security settings of every client layer of `config` in place.
void translate_security_settings(worker_config& config, std::vector<std::string>* warnings);

}  // namespace status_store
