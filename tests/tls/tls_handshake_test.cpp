// Real handshakes in process: an Asio SSL server stream with make_server_tls_context's context on
// 127.0.0.1 (port 0) and an OpenSSL client through Asio, on one io_context run for at most 20 s. The
// client verifies the server's chain against ca.pem and its certificate against 127.0.0.1 (SAN). A
// connection counts as made when both handshakes succeed and the client reads the server's "ok";
// as refused when the server's handshake fails and the client reads nothing (under TLS 1.3 the client
// finishes its handshake before the server has checked the client's certificate, so the client's own
// handshake result says little).
#include "tls_test_support.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <chrono>

using namespace status_store;
using namespace status_store::tls_test;
namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using boost::system::error_code;

namespace {

enum class client_certificate { none, ca_signed, untrusted };

struct outcome {
  std::optional<error_code> server_handshake;
  std::optional<error_code> client_done;  // the handshake's error, else the read's
  std::string client_read;
  std::string peer_common_name;  // the client certificate the server saw
  std::string cipher;            // IANA name, as the client sees it
  std::string version;

  bool made() const {
    return server_handshake && !*server_handshake && client_done && !*client_done && client_read == "ok";
  }
  bool refused() const { return server_handshake && *server_handshake && client_read.empty(); }
  std::string why() const {
    return "server: " + (server_handshake ? server_handshake->message() : "no result") +
           "; client: " + (client_done ? client_done->message() : "no result");
  }
};

std::unique_ptr<ssl::context> client_context(client_certificate certificate) {
  auto context = std::make_unique<ssl::context>(ssl::context::tls_client);
  context->load_verify_file(fixture("ca.pem"));
  context->set_verify_mode(ssl::verify_peer);
  if (certificate != client_certificate::none) {
    const std::string name = certificate == client_certificate::ca_signed ? "client" : "untrusted-client";
    context->use_certificate_chain_file(fixture(name + ".pem"));
    context->use_private_key_file(fixture(name + ".key"), ssl::context::pem);
  }
  return context;
}

std::string peer_common_name(SSL* ssl) {
  X509* peer = SSL_get0_peer_certificate(ssl);
  if (peer == nullptr) return {};
  char name[256] = {};
  X509_NAME_get_text_by_NID(X509_get_subject_name(peer), NID_commonName, name, sizeof name);
  return name;
}

outcome connect(ssl::context& server_context, ssl::context& client_context) {
  asio::io_context io;
  asio::ip::tcp::acceptor acceptor(io, {asio::ip::address_v4::loopback(), 0});
  ssl::stream<asio::ip::tcp::socket> server(io, server_context);
  ssl::stream<asio::ip::tcp::socket> client(io, client_context);
  X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(client.native_handle()), "127.0.0.1");
  outcome result;
  static const std::string ok = "ok";
  acceptor.async_accept(server.next_layer(), [&](error_code accepted) {
    if (accepted) return void(result.server_handshake = accepted);
    server.async_handshake(ssl::stream_base::server, [&](error_code handshake) {
      result.server_handshake = handshake;
      if (handshake) return void(server.next_layer().close());  // the client reads end of file, if nothing else
      result.peer_common_name = peer_common_name(server.native_handle());
      asio::async_write(server, asio::buffer(ok), [](error_code, std::size_t) {});
    });
  });
  char buffer[2] = {};
  client.next_layer().async_connect(acceptor.local_endpoint(), [&](error_code connected) {
    if (connected) return void(result.client_done = connected);
    client.async_handshake(ssl::stream_base::client, [&](error_code handshake) {
      if (handshake) return void(result.client_done = handshake);
      result.cipher = SSL_CIPHER_standard_name(SSL_get_current_cipher(client.native_handle()));
      result.version = SSL_get_version(client.native_handle());
      asio::async_read(client, asio::buffer(buffer), [&](error_code read, std::size_t bytes) {
        result.client_done = read;
        result.client_read.assign(buffer, bytes);
      });
    });
  });
  io.run_for(std::chrono::seconds(20));
  EXPECT_TRUE(result.server_handshake && result.client_done) << "the handshake did not end within 20 s";
  return result;
}

outcome connect(const rest_tls_settings& settings, client_certificate certificate) {
  const auto server_context = make_server_tls_context(settings);
  const auto client = client_context(certificate);
  return connect(*server_context, *client);
}

rest_tls_settings client_auth(const std::string& mode, const std::string& truststore = "ca.pem") {
  auto settings = pkcs12_settings();
  settings.client_auth = mode;
  settings.truststore_type = truststore == "ca.pem" ? "PEM" : "PKCS12";
  settings.truststore_location = fixture(truststore);
  settings.truststore_password = truststore == "ca.pem" ? "" : trust_password;
  return settings;
}

}  // namespace

TEST(TlsHandshake, WithoutClientAuthAnyClientConnects) {
  const auto result = connect(pkcs12_settings(), client_certificate::none);
  EXPECT_TRUE(result.made()) << result.why();
  EXPECT_EQ(result.version, "TLSv1.3");
  EXPECT_TRUE(connect(pkcs12_settings(), client_certificate::untrusted).made());  // not asked for, not looked at
}

TEST(TlsHandshake, RequiredRefusesAClientWithoutCertificate) {
  const auto result = connect(client_auth("required"), client_certificate::none);
  EXPECT_TRUE(result.refused());
}

TEST(TlsHandshake, RequiredAcceptsTheCaSignedClientWithAPemOrKeytoolTruststore) {
  for (const std::string truststore : {"ca.pem", "truststore.p12"}) {
    const auto result = connect(client_auth("required", truststore), client_certificate::ca_signed);
    EXPECT_TRUE(result.made()) << truststore << ": " << result.why();
    EXPECT_EQ(result.peer_common_name, "client") << truststore;
  }
}

TEST(TlsHandshake, RequiredRefusesTheUntrustedClient) {
  for (const std::string truststore : {"ca.pem", "truststore.p12"}) {
    const auto result = connect(client_auth("required", truststore), client_certificate::untrusted);
    EXPECT_TRUE(result.refused()) << truststore;
  }
}

TEST(TlsHandshake, RequestedAcceptsNoCertificateButRefusesAnUntrustedOne) {
  EXPECT_TRUE(connect(client_auth("requested"), client_certificate::none).made());
  const auto trusted = connect(client_auth("requested"), client_certificate::ca_signed);
  EXPECT_TRUE(trusted.made());
  EXPECT_EQ(trusted.peer_common_name, "client");
  EXPECT_TRUE(connect(client_auth("requested"), client_certificate::untrusted).refused());
}

TEST(TlsHandshake, PemKeystoresServeTheSameChain) {
  rest_tls_settings settings;
  settings.keystore_type = "PEM";
  settings.keystore_location = fixture("server.pem");
  settings.key_password = key_password;
  EXPECT_TRUE(connect(settings, client_certificate::none).made());
}

TEST(TlsHandshake, TheNamedTls12SuiteIsNegotiated) {
  auto settings = pkcs12_settings();
  settings.enabled_protocols = {"TLSv1.2"};
  settings.cipher_suites = {"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"};
  const auto result = connect(settings, client_certificate::none);
  EXPECT_TRUE(result.made());
  EXPECT_EQ(result.version, "TLSv1.2");
  EXPECT_EQ(result.cipher, "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
}

TEST(TlsHandshake, AClientOfferingOnlyTls11IsRefused) {
  const auto server_context = make_server_tls_context(pkcs12_settings());
  auto client = client_context(client_certificate::none);
  SSL_CTX_set_security_level(client->native_handle(), 0);  // OpenSSL 3 allows TLS 1.1 at level 0 only
  SSL_CTX_set_min_proto_version(client->native_handle(), TLS1_1_VERSION);
  SSL_CTX_set_max_proto_version(client->native_handle(), TLS1_1_VERSION);
  EXPECT_TRUE(connect(*server_context, *client).refused());
}
