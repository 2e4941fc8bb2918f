// `status-store run`: the store as a long-running worker service. It serves what the status topic
// says over HTTP in the shapes of Kafka Connect's REST API, the metrics in the Prometheus text
// format, and a health check; SIGINT or SIGTERM stop it gracefully, draining within
// status.storage.shutdown.drain.timeout.ms.
#include "app/commands.hpp"
#include "app/connection_config.hpp"
#include "app/prometheus_text.hpp"
#include "app/status_json.hpp"
#include "app/status_store.hpp"
#include "config/config_error.hpp"
#include "config/logging.hpp"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <iostream>
#include <pthread.h>
#include <thread>

namespace status_store::cli {

namespace {

std::pair<std::string, int> split_listen(const std::string& listen) {
  const auto colon = listen.rfind(':');
  int port = -1;
  if (colon != std::string::npos) {
    try {
      port = std::stoi(listen.substr(colon + 1));
    } catch (const std::exception&) {
      port = -1;
    }
  }
  if (colon == std::string::npos || colon == 0 || port < 0 || port > 65535)
    throw config_error("--listen", listen, "must be HOST:PORT with a port from 0 to 65535");
  return {listen.substr(0, colon), port};
}

std::string error_json(int code, const std::string& message) {
  return nlohmann::json{{"error_code", code}, {"message", message}}.dump();
}

void routes(httplib::Server& http, store& s) {
  http.Get("/connectors", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(connectors_json(s.connectors()), "application/json");
  });
  http.Get(R"(/connectors/([^/]+)/status)", [&](const httplib::Request& req, httplib::Response& res) {
    const auto view = s.describe(req.matches[1]);
    if (!view.found) {
      res.status = 404;  // as Connect: the connector's own status is required
      res.set_content(error_json(404, "No status found for connector " + view.name), "application/json");
      return;
    }
    res.set_content(connector_status_json(view), "application/json");
  });
  http.Get(R"(/connectors/([^/]+)/topics)", [&](const httplib::Request& req, httplib::Response& res) {
    res.set_content(connector_topics_json(s.describe(req.matches[1])), "application/json");
  });
  http.Get("/metrics", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(prometheus_text(s.metrics()), "text/plain; version=0.0.4; charset=utf-8");
  });
  http.Get("/healthz", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(nlohmann::json{{"status", "ok"},
                                   {"topic", s.config().status_topic},
                                   {"bootstrap_servers", s.bootstrap_servers()}}
                        .dump(),
                    "application/json");
  });
  // A query the view cannot answer in time is a 503, never a hung connection.
  http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "internal error";
    try {
      if (ep) std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    }
    res.status = 503;
    res.set_content(error_json(503, what), "application/json");
  });
}

}  // namespace

int run(const run_options& options) {
  const auto [host, port] = split_listen(options.listen);
  worker_config config = resolve_connection_config(options.connection, {});
  auto log = component_logger("service");

  // Block SIGINT/SIGTERM before any thread exists, so every thread inherits the mask and only
  // sigwait() below sees them: shutdown happens on this thread, in order.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  store s{config};
  httplib::Server http;
  routes(http, s);
  const int bound = port == 0 ? http.bind_to_any_port(host) : (http.bind_to_port(host, port) ? port : -1);
  if (bound < 0) {
    s.stop();
    throw std::runtime_error("cannot listen on " + options.listen);
  }
  std::thread server{[&] { http.listen_after_bind(); }};
  std::cout << "status-store running: topic '" << config.status_topic << "' on " << s.bootstrap_servers()
            << "; HTTP on http://" << host << ":" << bound << std::endl;

  int signal = 0;
  sigwait(&stop_signals, &signal);
  log->info("received {}: stopping (draining for at most {} ms)", signal == SIGINT ? "SIGINT" : "SIGTERM",
            config.shutdown_drain_timeout_ms);
  http.stop();
  server.join();
  const auto report = s.stop();
  std::cout << "status-store stopped: " << report.failed << " update(s) failed at shutdown" << std::endl;
  return report.failed == 0 ? exit_ok : exit_failed;
}

}  // namespace status_store::cli
