// The HTTPS listener's keystore: every format it reads, and each way it can be wrong, reported as a
// config_error naming the (prefixed) property and the fix, with no password or key in the message.
#include "tls_test_support.hpp"

#include <boost/asio/ssl/context.hpp>

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <algorithm>

using namespace status_store;
using namespace status_store::tls_test;

namespace {

const std::string keytool_line =
    "keytool -importkeystore -srckeystore FILE -destkeystore keystore.p12 -deststoretype PKCS12";

std::string common_name(X509* certificate) {
  char name[256] = {};
  X509_NAME_get_text_by_NID(X509_get_subject_name(certificate), NID_commonName, name, sizeof name);
  return name;
}

// The context serves the server's certificate and the CA behind it.
void expect_server_chain(const rest_tls_settings& settings) {
  std::shared_ptr<boost::asio::ssl::context> context;
  ASSERT_NO_THROW(context = make_server_tls_context(settings));
  ASSERT_TRUE(context);
  SSL_CTX* ctx = context->native_handle();
  X509* leaf = SSL_CTX_get0_certificate(ctx);
  ASSERT_NE(leaf, nullptr);
  EXPECT_EQ(common_name(leaf), "localhost");
  STACK_OF(X509)* chain = nullptr;
  ASSERT_EQ(SSL_CTX_get0_chain_certs(ctx, &chain), 1);
  ASSERT_EQ(sk_X509_num(chain), 1);
  EXPECT_EQ(common_name(sk_X509_value(chain, 0)), "status-store test CA");
  EXPECT_EQ(SSL_CTX_get_min_proto_version(ctx), TLS1_2_VERSION);
}

rest_tls_settings pem_file_settings(const std::string& file, const std::string& password) {
  rest_tls_settings settings;
  settings.keystore_type = "PEM";
  settings.keystore_location = fixture(file);
  settings.key_password = password;
  return settings;
}

rest_tls_settings inline_pem_settings() {
  rest_tls_settings settings;
  settings.keystore_type = "PEM";
  settings.keystore_key = fixture_text("server-encrypted.key");
  settings.keystore_certificate_chain = fixture_text("server-chain.pem");
  settings.key_password = key_password;
  return settings;
}

// What a backslash-continued value of a properties file gives: one line, the line breaks gone.
std::string on_one_line(std::string pem) {
  std::replace(pem.begin(), pem.end(), '\n', ' ');
  return pem;
}

}  // namespace

TEST(TlsKeystore, Pkcs12Loads) { expect_server_chain(pkcs12_settings()); }

TEST(TlsKeystore, Pkcs12LoadsUnderJavasDefaultTypeJksAsJavaReadsIt) {
  auto settings = pkcs12_settings();
  settings.keystore_type = "JKS";  // Java 9+ reads a PKCS12 file as a JKS keystore (keystore.type.compat)
  expect_server_chain(settings);
  settings.keystore_type = "pkcs12";  // Java's KeyStore.getInstance ignores case
  expect_server_chain(settings);
}

TEST(TlsKeystore, PemFileWithEncryptedKeyLoads) { expect_server_chain(pem_file_settings("server.pem", key_password)); }

TEST(TlsKeystore, PemFileWithPlainKeyLoads) { expect_server_chain(pem_file_settings("server-plain.pem", "")); }

TEST(TlsKeystore, InlinePemLoads) {
  expect_server_chain(inline_pem_settings());
  auto one_line = inline_pem_settings();
  one_line.keystore_key = on_one_line(one_line.keystore_key);
  one_line.keystore_certificate_chain = on_one_line(one_line.keystore_certificate_chain);
  expect_server_chain(one_line);
}

TEST(TlsKeystore, EncryptedKeyWithoutKeyPasswordIsRefused) {
  expect_refused(pem_file_settings("server.pem", ""), "ssl.key.password",
                 {"[hidden]", "The private key in ssl.keystore.location is encrypted; set ssl.key.password"});
  auto settings = inline_pem_settings();
  settings.key_password.clear();
  expect_refused(settings, "ssl.key.password", {"The private key in ssl.keystore.key is encrypted"});
}

TEST(TlsKeystore, EncryptedKeyWithWrongKeyPasswordIsRefused) {
  expect_refused(pem_file_settings("server.pem", "not-the-key-password"), "ssl.key.password",
                 {"[hidden]", "It does not decrypt the private key in ssl.keystore.location (wrong password?"});
  auto settings = inline_pem_settings();
  settings.key_password = "not-the-key-password";
  expect_refused(settings, "ssl.key.password", {"It does not decrypt the private key in ssl.keystore.key"});
}

TEST(TlsKeystore, WrongOrMissingKeystorePasswordIsRefused) {
  auto settings = pkcs12_settings();
  settings.keystore_password = "not-the-store-password";
  expect_refused(settings, "ssl.keystore.password",
                 {"Invalid value [hidden]", "(its integrity check fails: wrong password)"});
  settings.keystore_password.clear();
  expect_refused(settings, "ssl.keystore.password",
                 {"ssl.keystore.location is set: set ssl.keystore.password to the keystore's password"});
}

TEST(TlsKeystore, UnreadableOrMissingKeystoreIsRefused) {
  auto settings = pkcs12_settings();
  settings.keystore_location = fixture("no-such.p12");
  expect_refused(settings, "ssl.keystore.location", {"Cannot read the file: No such file or directory"});
  settings.keystore_location = fixture("");  // the directory
  expect_refused(settings, "ssl.keystore.location", {"Cannot read the file: Is a directory"});
  settings.keystore_location.clear();
  expect_refused(settings, "ssl.keystore.location",
                 {"An HTTPS listener needs a keystore: set ssl.keystore.location (a PKCS12 or PEM file), or "
                  "ssl.keystore.key and ssl.keystore.certificate.chain"});
}

TEST(TlsKeystore, JksIsRefusedByTypeWithTheKeytoolLine) {
  auto settings = pkcs12_settings();
  settings.keystore_type = "JKS";
  settings.keystore_location = fixture("server.jks");
  expect_refused(settings, "ssl.keystore.type",
                 {"Invalid value JKS for configuration ssl.keystore.type" /* a type is no secret */,
                  "status-store reads PKCS12 and PEM keystores, not JKS", keytool_line,
                  "then set ssl.keystore.type=PKCS12 and ssl.keystore.location=keystore.p12"});
}

TEST(TlsKeystore, JksFileGivenAsPkcs12IsRefusedByItsMagicNumber) {
  auto settings = pkcs12_settings();
  settings.keystore_location = fixture("server.jks");
  expect_refused(settings, "ssl.keystore.location",
                 {"The file is a JKS keystore (its magic number is 0xFEEDFEED), not PKCS12", keytool_line});
  settings.keystore_type = "PEM";
  expect_refused(settings, "ssl.keystore.location", {"0xFEEDFEED", keytool_line});
}

TEST(TlsKeystore, FileOfTheOtherFormatNamesTheRightType) {
  auto settings = pkcs12_settings();
  settings.keystore_location = fixture("server.pem");
  expect_refused(settings, "ssl.keystore.location",
                 {"The file holds PEM text, not a PKCS12 keystore; set ssl.keystore.type=PEM"});
  settings = pem_file_settings("server.p12", "");
  expect_refused(settings, "ssl.keystore.location",
                 {"holds binary (DER) data, not PEM text; if it is a PKCS12 keystore, set ssl.keystore.type=PKCS12"});
  settings.keystore_type = "BCFKS";
  expect_refused(settings, "ssl.keystore.type", {"Must be PKCS12 or PEM"});
}

TEST(TlsKeystore, LegacyEncryptedPkcs12IsRefusedWithTheWayOut) {
  auto settings = pkcs12_settings();
  settings.keystore_location = fixture("server-legacy.p12");  // openssl pkcs12 -export -legacy: RC2 and 3DES
  expect_refused(settings, "ssl.keystore.location",
                 {"Its contents cannot be decrypted (OpenSSL: unsupported)", "RC2 or 3DES",
                  "keytool -importkeystore -srckeystore FILE -srcstoretype PKCS12 -destkeystore keystore.p12"});
}

TEST(TlsKeystore, KeyNotMatchingTheCertificateIsRefused) {
  auto settings = inline_pem_settings();
  settings.keystore_key = fixture_text("client.key");  // plain, so ssl.key.password is simply unused
  expect_refused(settings, "ssl.keystore.key",
                 {"Invalid value [hidden]", "The private key does not belong to the first certificate"});
  settings = pem_file_settings("server-plain.pem", "");
  settings.keystore_location = fixture("client.key");
  expect_refused(settings, "ssl.keystore.location", {"It holds no certificate (-----BEGIN CERTIFICATE-----)"});
}

TEST(TlsKeystore, KeystoreWithoutKeyIsRefused) {
  auto settings = pkcs12_settings();
  settings.keystore_location = fixture("truststore.p12");
  settings.keystore_password = trust_password;
  expect_refused(settings, "ssl.keystore.location", {"The keystore holds no private key (a truststore?)"});
  settings = pem_file_settings("ca.pem", "");
  expect_refused(settings, "ssl.keystore.location", {"It holds no private key (-----BEGIN PRIVATE KEY-----"});
}

TEST(TlsKeystore, InlinePemFollowsKafkasRules) {
  auto settings = inline_pem_settings();
  settings.keystore_type = "JKS";
  expect_refused(settings, "ssl.keystore.type",
                 {"ssl.keystore.key and ssl.keystore.certificate.chain hold PEM text: set ssl.keystore.type=PEM"});
  settings = inline_pem_settings();
  settings.keystore_location = fixture("server.pem");
  expect_refused(settings, "ssl.keystore.location", {"Set either ssl.keystore.location or ssl.keystore.key"});
  settings = inline_pem_settings();
  settings.keystore_certificate_chain.clear();
  expect_refused(settings, "ssl.keystore.certificate.chain", {"ssl.keystore.key is set"});
  settings = inline_pem_settings();
  settings.keystore_key.clear();
  expect_refused(settings, "ssl.keystore.key", {"ssl.keystore.certificate.chain is set"});
}

TEST(TlsKeystore, PrefixedSettingsAreNamedAsWrittenAndStayHidden) {
  const std::string prefix = "listeners.https.";
  auto settings = pkcs12_settings(prefix);
  settings.keystore_password = "not-the-store-password";
  expect_refused(settings, "ssl.keystore.password",
                 {"Invalid value [hidden]", "listeners.https.ssl.keystore.location"});
  settings = inline_pem_settings();
  settings.prefix = prefix;
  settings.keystore_key = fixture_text("client.key");
  // is_secret_property does not know the listeners.https. prefix; the key is hidden all the same.
  expect_refused(settings, "ssl.keystore.key", {"Invalid value [hidden]"});
  settings = inline_pem_settings();
  settings.prefix = prefix;
  settings.key_password.clear();
  expect_refused(settings, "ssl.key.password", {"set listeners.https.ssl.key.password to its password"});
  settings = pkcs12_settings(prefix);
  settings.keystore_location = fixture("server.jks");
  expect_refused(settings, "ssl.keystore.location",
                 {keytool_line,
                  "set listeners.https.ssl.keystore.type=PKCS12 and "
                  "listeners.https.ssl.keystore.location=keystore.p12"});
}
