#pragma once
// Everything written to file descriptor 2 while it lives — spdlog's stderr loggers and anything
// librdkafka or CAF print — goes to a temporary file, then to text(). The security tests grep it for
// passwords: a secret must not reach any log line, whoever wrote it.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace status_store::system_test {

class stderr_capture {
 public:
  stderr_capture() {
    std::fflush(stderr);
    file_ = std::tmpfile();
    saved_ = ::dup(2);
    if (file_ == nullptr || saved_ < 0 || ::dup2(::fileno(file_), 2) < 0) ADD_FAILURE() << "cannot capture stderr";
  }
  ~stderr_capture() { release(); }
  stderr_capture(const stderr_capture&) = delete;
  stderr_capture& operator=(const stderr_capture&) = delete;

  /// Restores stderr and returns what was written meanwhile (also echoed to the real stderr, so a
  /// failing test still shows its log).
  std::string text() {
    release();
    return text_;
  }

 private:
  void release() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    ::dup2(saved_, 2);
    ::close(saved_);
    saved_ = -1;
    std::rewind(file_);
    std::ostringstream out;
    for (int c; (c = std::fgetc(file_)) != EOF;) out.put(static_cast<char>(c));
    std::fclose(file_);
    text_ = out.str();
    std::fputs(text_.c_str(), stderr);
  }

  std::FILE* file_ = nullptr;
  int saved_ = -1;
  std::string text_;
};

}  // namespace status_store::system_test
