// The truststore (PEM, inline PEM, PKCS12 as keytool writes it; JKS refused), ssl.client.auth,
// ssl.enabled.protocols and ssl.cipher.suites, as the context ends up holding them.
#include "tls_test_support.hpp"

#include <boost/asio/ssl/context.hpp>

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>
#include <set>

using namespace status_store;
using namespace status_store::tls_test;

namespace {

const std::string truststore_keytool_line =
    "keytool -importkeystore -srckeystore FILE -destkeystore truststore.p12 -deststoretype PKCS12";

std::shared_ptr<boost::asio::ssl::context> context_for(const rest_tls_settings& settings) {
  std::shared_ptr<boost::asio::ssl::context> context;
  EXPECT_NO_THROW(context = make_server_tls_context(settings));
  return context;
}

rest_tls_settings with_truststore(const std::string& type, const std::string& file, const std::string& password) {
  auto settings = pkcs12_settings();
  settings.truststore_type = type;
  settings.truststore_location = fixture(file);
  settings.truststore_password = password;
  settings.client_auth = "required";
  return settings;
}

// The CA names the server sends in its certificate request.
std::vector<std::string> client_ca_names(SSL_CTX* ctx) {
  std::vector<std::string> names;
  const STACK_OF(X509_NAME)* list = SSL_CTX_get_client_CA_list(ctx);
  for (int i = 0; i < sk_X509_NAME_num(list); ++i) {
    char text[256] = {};
    X509_NAME_oneline(sk_X509_NAME_value(list, i), text, sizeof text);
    names.emplace_back(text);
  }
  return names;
}

void expect_trusts_the_ca(const rest_tls_settings& settings) {
  const auto context = context_for(settings);
  ASSERT_TRUE(context);
  EXPECT_EQ(client_ca_names(context->native_handle()), std::vector<std::string>{"/CN=status-store test CA"});
}

using version_range = std::pair<long, long>;  // min, max

std::set<std::string> cipher_names(SSL_CTX* ctx) {
  std::set<std::string> names;
  const STACK_OF(SSL_CIPHER)* ciphers = SSL_CTX_get_ciphers(ctx);
  for (int i = 0; i < sk_SSL_CIPHER_num(ciphers); ++i)
    names.insert(SSL_CIPHER_get_name(sk_SSL_CIPHER_value(ciphers, i)));
  return names;
}

rest_tls_settings with_suites(std::vector<std::string> suites,
                              std::vector<std::string> protocols = {"TLSv1.2", "TLSv1.3"}) {
  auto settings = pkcs12_settings();
  settings.cipher_suites = std::move(suites);
  settings.enabled_protocols = std::move(protocols);
  return settings;
}

}  // namespace

TEST(TlsTruststore, PemFileLoads) { expect_trusts_the_ca(with_truststore("PEM", "ca.pem", "")); }

TEST(TlsTruststore, KeytoolPkcs12Loads) {
  // tests/app/make_tls_fixtures.sh makes it with keytool -importcert -storetype PKCS12: a trusted-cert bag.
  expect_trusts_the_ca(with_truststore("PKCS12", "truststore.p12", trust_password));
  expect_trusts_the_ca(with_truststore("JKS", "truststore.p12", trust_password));  // as Java reads it
}

TEST(TlsTruststore, InlinePemLoads) {
  auto settings = with_truststore("PEM", "ca.pem", "");
  settings.truststore_location.clear();
  settings.truststore_certificates = fixture_text("ca.pem");
  expect_trusts_the_ca(settings);
  std::replace(settings.truststore_certificates.begin(), settings.truststore_certificates.end(), '\n', ' ');
  expect_trusts_the_ca(settings);
  settings.truststore_type = "JKS";
  expect_refused(settings, "ssl.truststore.type",
                 {"ssl.truststore.certificates holds PEM text: set ssl.truststore.type=PEM"});
}

TEST(TlsTruststore, WrongOrMissingPasswordIsRefused) {
  expect_refused(with_truststore("PKCS12", "truststore.p12", "not-the-trust-password"), "ssl.truststore.password",
                 {"Invalid value [hidden]", "It does not open the PKCS12 truststore in ssl.truststore.location",
                  "wrong password"});
  expect_refused(with_truststore("PKCS12", "truststore.p12", ""), "ssl.truststore.password",
                 {"has a password: set ssl.truststore.password"});
}

TEST(TlsTruststore, JksIsRefusedWithTheKeytoolLine) {
  expect_refused(with_truststore("JKS", "server.jks", trust_password), "ssl.truststore.type",
                 {"status-store reads PKCS12 and PEM truststores, not JKS", truststore_keytool_line});
  expect_refused(with_truststore("PKCS12", "server.jks", trust_password), "ssl.truststore.location",
                 {"0xFEEDFEED", truststore_keytool_line, "ssl.truststore.location=truststore.p12"});
}

TEST(TlsTruststore, UnreadableOrEmptyTruststoreIsRefused) {
  expect_refused(with_truststore("PEM", "no-such.pem", ""), "ssl.truststore.location",
                 {"Invalid value " + fixture("no-such.pem"), "Cannot read the file: No such file or directory"});
  expect_refused(with_truststore("PEM", "server-encrypted.key", ""), "ssl.truststore.location",
                 {"The truststore holds no certificate"});
}

TEST(TlsClientAuth, ModesSetOpenSslsVerifyFlags) {
  auto settings = with_truststore("PEM", "ca.pem", "");
  settings.client_auth = "none";
  EXPECT_EQ(SSL_CTX_get_verify_mode(context_for(settings)->native_handle()), SSL_VERIFY_NONE);
  settings.client_auth = "requested";
  EXPECT_EQ(SSL_CTX_get_verify_mode(context_for(settings)->native_handle()), SSL_VERIFY_PEER);
  settings.client_auth = "REQUIRED";
  EXPECT_EQ(SSL_CTX_get_verify_mode(context_for(settings)->native_handle()),
            SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT);
  settings.client_auth = "sometimes";
  expect_refused(settings, "ssl.client.auth", {"Invalid value sometimes", "Must be one of none, requested, required"});
}

TEST(TlsClientAuth, VerifyingClientsNeedsATruststore) {
  for (const std::string mode : {"requested", "required"}) {
    auto settings = pkcs12_settings("listeners.https.");
    settings.client_auth = mode;
    expect_refused(settings, "ssl.truststore.location",
                   {"listeners.https.ssl.client.auth=" + mode + " verifies client certificates",
                    "set listeners.https.ssl.truststore.location (a PEM or PKCS12 file) or "
                    "listeners.https.ssl.truststore.certificates"});
  }
  auto settings = pkcs12_settings();
  settings.client_auth = "none";
  EXPECT_TRUE(context_for(settings));
}

TEST(TlsProtocols, TheRangeSpansTheNamedVersions) {
  auto settings = pkcs12_settings();
  const auto range = [&](std::vector<std::string> protocols) {
    settings.enabled_protocols = std::move(protocols);
    SSL_CTX* ctx = context_for(settings)->native_handle();
    return version_range(SSL_CTX_get_min_proto_version(ctx), SSL_CTX_get_max_proto_version(ctx));
  };
  EXPECT_EQ(range({"TLSv1.2", "TLSv1.3"}), version_range(TLS1_2_VERSION, TLS1_3_VERSION));
  EXPECT_EQ(range({"TLSv1.3", "TLSv1.2"}), version_range(TLS1_2_VERSION, TLS1_3_VERSION));
  EXPECT_EQ(range({"TLSv1.2"}), version_range(TLS1_2_VERSION, TLS1_2_VERSION));
  EXPECT_EQ(range({"TLSv1.3"}), version_range(TLS1_3_VERSION, TLS1_3_VERSION));
}

TEST(TlsProtocols, OlderThanTls12AndUnknownNamesAreRefused) {
  auto settings = pkcs12_settings("listeners.https.");
  for (const std::string old : {"TLSv1", "TLSv1.1", "SSLv3", "SSLv2Hello"}) {
    settings.enabled_protocols = {"TLSv1.2", old};
    expect_refused(settings, "ssl.enabled.protocols",
                   {"Invalid value TLSv1.2," + old, old + " is older than TLS 1.2", "enable TLSv1.2 and/or TLSv1.3"});
  }
  settings.enabled_protocols = {"tlsv1.3"};
  expect_refused(settings, "ssl.enabled.protocols", {"Unknown protocol tlsv1.3", "TLSv1.2 and TLSv1.3 (Java's names)"});
  settings.enabled_protocols = {};
  expect_refused(settings, "ssl.enabled.protocols", {"It enables no protocol"});
}

TEST(TlsCipherSuites, IanaNamesMapToOpenSslsAndTls13SuitesToItsCiphersuites) {
  const auto context = context_for(
      with_suites({"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384",
                   "SSL_RSA_WITH_AES_128_CBC_SHA" /* Java's alias */, "TLS_EMPTY_RENEGOTIATION_INFO_SCSV"}));
  ASSERT_TRUE(context);
  EXPECT_EQ(cipher_names(context->native_handle()),
            (std::set<std::string>{"ECDHE-RSA-AES256-GCM-SHA384", "TLS_AES_256_GCM_SHA384", "AES128-SHA"}));
  EXPECT_EQ(SSL_CTX_get_options(context->native_handle()) & SSL_OP_CIPHER_SERVER_PREFERENCE,
            static_cast<uint64_t>(SSL_OP_CIPHER_SERVER_PREFERENCE));
}

TEST(TlsCipherSuites, SuitesOfOneVersionOnlyNarrowTheRange) {
  SSL_CTX* ctx = context_for(with_suites({"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"}))->native_handle();
  EXPECT_EQ(SSL_CTX_get_max_proto_version(ctx), TLS1_2_VERSION);
  ctx = context_for(with_suites({"TLS_CHACHA20_POLY1305_SHA256"}))->native_handle();
  EXPECT_EQ(SSL_CTX_get_min_proto_version(ctx), TLS1_3_VERSION);
  expect_refused(with_suites({"TLS_AES_128_GCM_SHA256"}, {"TLSv1.2"}), "ssl.cipher.suites",
                 {"It names no cipher suite of the protocols that ssl.enabled.protocols enables"});
}

TEST(TlsCipherSuites, UnknownAndUnsafeNamesAreRefusedByName) {
  const std::string prefix = "listeners.https.";
  auto settings = with_suites({"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_FAKE_WITH_ROT13_SHA"});
  settings.prefix = prefix;
  expect_refused(settings, "ssl.cipher.suites",
                 {"Invalid value TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,TLS_FAKE_WITH_ROT13_SHA",
                  "Unknown cipher suite TLS_FAKE_WITH_ROT13_SHA"});
  settings.cipher_suites = {"ECDHE-RSA-AES256-GCM-SHA384"};
  expect_refused(settings, "ssl.cipher.suites",
                 {"ECDHE-RSA-AES256-GCM-SHA384 is OpenSSL's name; listeners.https.ssl.cipher.suites takes the IANA "
                  "(Java) name: TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"});
  settings.cipher_suites = {"TLS_RSA_WITH_NULL_SHA256"};
  expect_refused(settings, "ssl.cipher.suites", {"TLS_RSA_WITH_NULL_SHA256 is refused: it encrypts nothing"});
  settings.cipher_suites = {"TLS_ECDH_anon_WITH_AES_128_CBC_SHA"};
  expect_refused(settings, "ssl.cipher.suites", {"is refused: it is anonymous"});
  settings.cipher_suites = {"TLS_PSK_WITH_AES_128_GCM_SHA256"};
  expect_refused(settings, "ssl.cipher.suites", {"is refused: it needs a pre-shared key"});
}
