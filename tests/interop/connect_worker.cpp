#include "connect_worker.hpp"

#include <httplib.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace status_store::interop {

rest_answer rest_call(int port, const std::string& method, const std::string& path, const std::string& body) {
  httplib::Client client{"127.0.0.1", port};
  client.set_url_encode(false);  // paths are percent-encoded by the caller, exactly as a client sends them
  client.set_connection_timeout(std::chrono::seconds{5});
  client.set_read_timeout(std::chrono::seconds{30});
  httplib::Result result = method == "GET"      ? client.Get(path.c_str())
                           : method == "PUT"    ? client.Put(path.c_str(), body, "application/json")
                           : method == "POST"   ? client.Post(path.c_str(), body, "application/json")
                           : method == "DELETE" ? client.Delete(path.c_str())
                                                : throw std::invalid_argument("method " + method);
  if (!result) return {};
  return {result->status, result->body};
}

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
    throw std::runtime_error("cannot find a free port");
  ::close(fd);
  return ntohs(address.sin_port);
}

connect_worker::connect_worker(const std::string& bootstrap, const std::string& prefix, const std::string& driver_jar,
                               std::chrono::seconds start_timeout, const std::vector<std::string>& extra_properties)
    : prefix_{prefix}, port_{free_port()} {
  const auto dir = std::filesystem::temp_directory_path() / prefix;
  std::filesystem::create_directories(dir);
  dir_ = dir.string();
  const auto properties = (dir / "worker.properties").string();
  std::ofstream{properties} << "bootstrap.servers=" << bootstrap << "\n"
                            << "group.id=" << prefix << "\n"
                            << "key.converter=org.apache.kafka.connect.json.JsonConverter\n"
                            << "value.converter=org.apache.kafka.connect.json.JsonConverter\n"
                            << "config.storage.topic=" << prefix << "-configs\n"
                            << "offset.storage.topic=" << prefix << "-offsets\n"
                            << "status.storage.topic=" << prefix
                            << "-status\n"
                            // one broker (Connect's default is 3); few offset partitions start faster
                            << "config.storage.replication.factor=1\n"
                            << "offset.storage.replication.factor=1\n"
                            << "status.storage.replication.factor=1\n"
                            << "offset.storage.partitions=1\n"
                            << "listeners=http://127.0.0.1:" << port_ << "\n"
                            << "rest.advertised.host.name=127.0.0.1\n"
                            // only plugins with a service manifest: no scan of every jar (seconds on 2 cores)
                            << "plugin.discovery=service_load\n";
  {
    std::ofstream extra{properties, std::ios::app};
    for (const auto& line : extra_properties) extra << line << "\n";
  }
  const auto lib = std::filesystem::path{driver_jar}.parent_path() / "lib";
  const auto started = std::chrono::steady_clock::now();
  // C1 only and the serial collector, as the driver's short JVMs: the worker starts faster on 2 cores.
  process_ = std::make_unique<child_process>(
      std::vector<std::string>{"java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx384m", "-cp",
                               driver_jar + ":" + lib.string() + "/*",
                               "org.apache.kafka.connect.cli.ConnectDistributed", properties},
      (dir / "connect.log").string());
  while (std::chrono::steady_clock::now() - started < start_timeout) {
    if (!process_->running()) break;
    if (rest_call(port_, "GET", "/connectors").status == 200) {
      start_time_ = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds{200});
  }
  const std::string log = process_->log();
  throw std::runtime_error("the Connect worker did not answer GET /connectors within " +
                           std::to_string(start_timeout.count()) + " s; its log ends:\n" +
                           log.substr(log.size() > 4000 ? log.size() - 4000 : 0));
}

void connect_worker::create_connector(const std::string& method, const std::string& path, const std::string& body,
                                      const std::string& name) const {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds{60};
  for (;;) {
    const auto answer = rest_call(port_, method, path, body);
    if (answer.status == 201) return;
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("Connect did not create " + name + ": " + std::to_string(answer.status) + " " +
                               answer.body);
    std::this_thread::sleep_for(std::chrono::milliseconds{250});
  }
}

}  // namespace status_store::interop
