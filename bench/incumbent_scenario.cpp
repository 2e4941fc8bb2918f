// The incumbent: Kafka Connect's own KafkaStatusBackingStore (connect-runtime of the broker's
// version), driven by tests/interop's Java driver in a JVM of its own, on the same broker, keys and
// sizes as status-store, in the same run. `bench-put` pushes U task statuses over K keys through
// put() and waits for flush(); `bench-replay` times start() until the view is complete.
#include "bench_support.hpp"

#include <cstdio>
#include <memory>
#include <stdexcept>

namespace status_store::bench {

nlohmann::json run_incumbent(const options& o, const std::string& args) {
  // Logs go to stderr; the figures are the last line of stdout.
  const std::string command = "java -jar '" + o.java_driver + "' " + args;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe{popen(command.c_str(), "r"), pclose};
  if (!pipe) throw std::runtime_error("cannot run " + command);
  std::string out;
  char buffer[4096];
  while (const size_t n = fread(buffer, 1, sizeof buffer, pipe.get())) out.append(buffer, n);
  const int status = pclose(pipe.release());
  if (status != 0) throw std::runtime_error(command + " failed (status " + std::to_string(status) + "): " + out);
  return last_json_line(out);
}

}  // namespace status_store::bench
