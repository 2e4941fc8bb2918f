// What the keystore and the truststore share: naming a setting in an error, reading a store file and
// checking it is what its type says, PEM certificates.
#include "app/rest/tls_detail.hpp"

#include "config/ascii.hpp"
#include "config/config_error.hpp"
#include "config/secret_masking.hpp"

#include <openssl/err.h>
#include <openssl/pem.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace status_store::tls_detail {

namespace {

// Keystores are a few kilobytes; this only stops a wrong path (a device, a log) from being read whole.
constexpr std::size_t max_store_bytes = 16 * 1024 * 1024;

// Never prompts on the terminal (OpenSSL's default when no callback is given).
int no_password(char*, int, int, void*) { return 0; }

// What a store file is, by its first bytes (the declared type can be wrong).
enum class file_format { pem, pkcs12, jks, jceks, other };

file_format sniff(std::string_view bytes) {
  const auto starts_with = [&](std::array<unsigned char, 4> magic) {
    return bytes.size() >= 4 && std::memcmp(bytes.data(), magic.data(), 4) == 0;
  };
  if (starts_with({0xFE, 0xED, 0xFE, 0xED})) return file_format::jks;
  if (starts_with({0xCE, 0xCE, 0xCE, 0xCE})) return file_format::jceks;
  if (!bytes.empty() && static_cast<unsigned char>(bytes.front()) == 0x30) return file_format::pkcs12;  // DER SEQUENCE
  if (bytes.find("-----BEGIN ") != std::string_view::npos) return file_format::pem;
  return file_format::other;
}

std::string read_whole_file(const setting_errors& errors, std::string_view key, const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) errors.fail(key, path, std::string{"Cannot read the file: "} + std::strerror(errno));
  std::string bytes;
  std::array<char, 8192> buffer{};
  std::size_t got = 0;
  while ((got = std::fread(buffer.data(), 1, buffer.size(), file)) > 0 && bytes.size() <= max_store_bytes) {
    bytes.append(buffer.data(), got);
  }
  const int error_number = std::ferror(file) ? errno : 0;
  std::fclose(file);
  if (error_number != 0) errors.fail(key, path, std::string{"Cannot read the file: "} + std::strerror(error_number));
  if (bytes.empty()) errors.fail(key, path, "The file is empty");
  if (bytes.size() > max_store_bytes)
    errors.fail(key, path, "The file is larger than 16 MiB: not a key or trust store");
  return bytes;
}

void check_declared_type(const setting_errors& errors, const store_keys& keys, const std::string& path,
                         const std::string& type, file_format format) {
  if (format == file_format::jks || format == file_format::jceks) {
    const std::string found = format == file_format::jks ? "JKS" : "JCEKS";
    if (type == found) {
      errors.fail(keys.type, type,
                  "status-store reads PKCS12 and PEM " + std::string{keys.noun} + "s, not " + found + "; " +
                      conversion_advice(errors, keys, found));
    }
    errors.fail(keys.location, path,
                "The file is a " + found + " " + std::string{keys.noun} + " (its magic number is " +
                    (format == file_format::jks ? "0xFEEDFEED" : "0xCECECECE") + "), not " + type +
                    ". status-store reads PKCS12 and PEM " + std::string{keys.noun} + "s only; " +
                    conversion_advice(errors, keys, found));
  }
  const std::string type_setting = errors.name(keys.type);
  if (type == "PEM" && format != file_format::pem) {
    errors.fail(keys.location, path,
                format == file_format::pkcs12 ? "The file holds binary (DER) data, not PEM text; if it is a PKCS12 " +
                                                    std::string{keys.noun} + ", set " + type_setting + "=PKCS12"
                                              : std::string{"The file holds no PEM block (-----BEGIN ...-----)"});
  }
  if (type != "PEM" && format == file_format::pem) {
    errors.fail(
        keys.location, path,
        "The file holds PEM text, not a " + type + " " + std::string{keys.noun} + "; set " + type_setting + "=PEM");
  }
  if (type != "PEM" && format == file_format::other) {
    errors.fail(keys.location, path, "The file is not a PKCS12 " + std::string{keys.noun} + " (nor JKS, nor PEM)");
  }
}

}  // namespace

void setting_errors::fail(std::string_view key, std::string_view value, const std::string& rule) const {
  const std::string property = name(key);
  const bool secret = is_secret_property(key) || is_secret_property(property);
  throw config_error(property, secret ? std::string{masked_value} : std::string{value}, rule);
}

std::string openssl_reason(std::string_view fallback) {
  const unsigned long code = ERR_peek_last_error();
  const char* reason = code != 0 ? ERR_reason_error_string(code) : nullptr;
  std::string text = reason != nullptr ? std::string{reason} : std::string{fallback};
  ERR_clear_error();
  return text;
}

std::string store_type(const setting_errors& errors, std::string_view key, std::string_view type) {
  const std::string upper = ascii_uppercase(java_trim(type));
  if (upper == "JKS" || upper == "PKCS12" || upper == "PEM") return upper;
  errors.fail(key, type, "Must be PKCS12 or PEM (JKS and JCEKS stores are converted to PKCS12 with keytool first)");
}

store_file read_store_file(const setting_errors& errors, const store_keys& keys, const std::string& path,
                           const std::string& type) {
  store_file file{read_whole_file(errors, keys.location, path)};
  const file_format format = sniff(file.bytes);
  check_declared_type(errors, keys, path, type, format);
  file.pem = format == file_format::pem;
  return file;
}

std::string conversion_advice(const setting_errors& errors, const store_keys& keys, std::string_view source_type) {
  const std::string source = source_type == "JKS" ? "" : " -srcstoretype " + std::string{source_type};
  return "convert it with: keytool -importkeystore -srckeystore FILE" + source + " -destkeystore " +
         std::string{keys.converted_file} + " -deststoretype PKCS12, then set " + errors.name(keys.type) +
         "=PKCS12 and " + errors.name(keys.location) + "=" + std::string{keys.converted_file};
}

std::vector<x509_ptr> pem_certificates(std::string_view pem, const setting_errors& errors, std::string_view key,
                                       std::string_view value) {
  ERR_clear_error();
  const bio_ptr bio{BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()))};
  std::vector<x509_ptr> certificates;
  while (X509* certificate = PEM_read_bio_X509(bio.get(), nullptr, no_password, nullptr)) {
    certificates.emplace_back(certificate);
  }
  const unsigned long code = ERR_peek_last_error();
  if (ERR_GET_LIB(code) == ERR_LIB_PEM && ERR_GET_REASON(code) == PEM_R_NO_START_LINE) {
    ERR_clear_error();  // the end of the text
  } else if (code != 0) {
    errors.fail(key, value, "A certificate in it cannot be read (OpenSSL: " + openssl_reason() + ")");
  }
  return certificates;
}

std::string normalize_pem(std::string_view text) {
  static constexpr std::string_view begin_marker = "-----BEGIN ";
  std::string out;
  std::size_t pos = 0;
  for (std::size_t begin; (begin = text.find(begin_marker, pos)) != std::string_view::npos;) {
    const std::size_t label_end = text.find("-----", begin + begin_marker.size());
    if (label_end == std::string_view::npos) break;
    const std::string label{text.substr(begin + begin_marker.size(), label_end - begin - begin_marker.size())};
    const std::string end_marker = "-----END " + label + "-----";
    const std::size_t end = text.find(end_marker, label_end + 5);
    if (end == std::string_view::npos) break;
    out.append(text.substr(pos, begin - pos));
    if (!out.empty() && out.back() != '\n') out += '\n';  // OpenSSL finds -----BEGIN at the start of a line only
    const std::string_view body = text.substr(label_end + 5, end - label_end - 5);
    if (body.find(':') != std::string_view::npos) {  // RFC 1421 headers (Proc-Type): must be left as written
      out.append(text.substr(begin, end + end_marker.size() - begin));
    } else {
      std::string base64;
      for (const char c : body) {
        if (static_cast<unsigned char>(c) > ' ') base64 += c;
      }
      out += "-----BEGIN " + label + "-----\n";
      for (std::size_t line = 0; line < base64.size(); line += 64) out += base64.substr(line, 64) + "\n";
      out += end_marker;
    }
    out += '\n';
    pos = end + end_marker.size();
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace status_store::tls_detail
