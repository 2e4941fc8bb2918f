#include "rest_parity.hpp"

#include <chrono>
#include <cstdio>
#include <map>
#include <thread>

namespace status_store::interop {

using namespace std::chrono_literals;

ordered parse(const std::string& body) { return body.empty() ? ordered{} : ordered::parse(body); }

ordered sorted_object(const ordered& object) {
  std::map<std::string, ordered> by_name;
  for (auto it = object.begin(); it != object.end(); ++it) by_name.emplace(it.key(), it.value());
  ordered out = ordered::object();
  for (auto& [name, value] : by_name) out[name] = value;
  return out;
}

compared ask_both(int connect_port, int store_port, const std::string& method, const std::string& path,
                  const std::function<void(ordered&)>& normalise_connect,
                  const std::function<void(ordered&)>& normalise_store) {
  compared c;
  const auto deadline = std::chrono::steady_clock::now() + 15s;
  do {
    c.connect = rest_call(connect_port, method, path);
    c.store = rest_call(store_port, method, path);
    try {
      ordered a = parse(c.connect.body), b = parse(c.store.body);
      if (normalise_connect) normalise_connect(a);
      if (normalise_store) normalise_store(b);
      c.connect_json = a.dump();
      c.store_json = b.dump();
    } catch (const std::exception& e) {
      std::printf("[parity] %s %s: %s\n", method.c_str(), path.c_str(), e.what());
      c.connect_json = "unparsable: " + c.connect.body;
      c.store_json = "unparsable: " + c.store.body;
    }
    if (c.connect.status == c.store.status && c.connect_json == c.store_json) break;
    std::this_thread::sleep_for(250ms);
  } while (std::chrono::steady_clock::now() < deadline);
  std::printf("[parity] %s %s: Connect %d, status-store %d, %zu bytes\n", method.c_str(), path.c_str(),
              c.connect.status, c.store.status, c.store.body.size());
  return c;
}

}  // namespace status_store::interop
