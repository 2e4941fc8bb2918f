#include "java_driver.hpp"

#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace status_store::interop {

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// A file under the temp dir that removes itself; names and ops travel in files, because the JVM
/// decodes its arguments with the locale's charset (ASCII when none is set).
class temp_file {
 public:
  explicit temp_file(const std::string& content) {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("status-store-interop-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) + ".txt");
    std::ofstream{path_, std::ios::binary} << content;
  }
  ~temp_file() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace

java_driver::java_driver() {
  jar_ = env("STATUS_STORE_INTEROP_DRIVER");
  if (jar_.empty()) jar_ = STATUS_STORE_INTEROP_DRIVER_JAR;
}

std::string java_driver::problem() const {
  const std::string build = "tests/interop/build-java-driver.sh " STATUS_STORE_BINARY_DIR;
  if (!std::filesystem::exists(jar_))
    return "the Java interop driver " + jar_ + " is missing; build it with\n  " + build;
  if (std::system("java -version >/dev/null 2>&1") != 0)
    return "no 'java' on PATH (scripts/install-deps.sh installs openjdk-17-jdk-headless)";
  return "";
}

driver_result java_driver::version() const { return run({"version"}); }

driver_result java_driver::write(const std::string& bootstrap, const std::string& topic, const std::string& ops) const {
  temp_file file{ops};
  return run({"write", bootstrap, topic, file.path()});
}

driver_result java_driver::read(const std::string& bootstrap, const std::string& topic,
                                const std::vector<std::string>& names) const {
  std::string lines;
  for (const auto& name : names) lines += name + "\n";
  temp_file file{lines};
  return run({"read", bootstrap, topic, file.path()});
}

driver_result java_driver::records(const std::string& bootstrap, const std::string& topic) const {
  return run({"records", bootstrap, topic});
}

driver_result java_driver::run(const std::vector<std::string>& args) const {
  // C1 only and the serial collector: a short-lived JVM on a busy 2-core machine starts faster and
  // leaves the cores to the broker.
  std::string command = "java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar " + shell_quoted(jar_);
  for (const auto& arg : args) command += " " + shell_quoted(arg);
  const auto started = std::chrono::steady_clock::now();
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run: " + command);
  driver_result result;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  std::printf("[java driver] %s: exit %d after %lld ms\n", args.front().c_str(), result.exit_code,
              static_cast<long long>(ms));
  std::fflush(stdout);
  return result;
}

nlohmann::json parse_json(const std::string& out) {
  try {
    return nlohmann::json::parse(out);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("the Java driver's output is not JSON (") + e.what() + "):\n" + out);
  }
}

std::vector<nlohmann::json> parse_json_lines(const std::string& out) {
  std::vector<nlohmann::json> lines;
  std::istringstream in{out};
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) lines.push_back(parse_json(line));
  return lines;
}

}  // namespace status_store::interop
