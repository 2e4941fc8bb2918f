// `status-store run`: the store as a long-running worker service. It serves what the status topic
// says over HTTP in the shapes of Kafka Connect's REST API, the metrics in the Prometheus text
// format, and a health check; SIGINT or SIGTERM stop it gracefully, draining within
// status.storage.shutdown.drain.timeout.ms.
#include "app/commands.hpp"
#include "app/connection_config.hpp"
#include "app/http_routes.hpp"
#include "app/http_service.hpp"
#include "app/prometheus_text.hpp"
#include "app/status_json.hpp"
#include "app/store/store.hpp"
#include "app/topic_tracking_gate.hpp"
#include "config/config_error.hpp"
#include "config/logging.hpp"

#include <nlohmann/json.hpp>

#include <pthread.h>
#include <algorithm>
#include <csignal>
#include <iostream>
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

void reply_json(httplib::Response& res, int status, std::string body) {
  res.status = status;
  res.set_content(std::move(body), "application/json");
}

/// Every request goes through route_http_request (app/http_routes.hpp): decoded, UTF-8-checked
/// path segments, and Connect's error bodies for what it refuses.
void routes(http_service& http, store& s) {
  http.set_pre_routing_handler([&](const httplib::Request& req, httplib::Response& res) {
    const http_route route = route_http_request(req.method, req.target);
    // topic.tracking.enable and topic.tracking.allow.reset: Connect's 403 before anything is looked up.
    if (const auto refusal = topic_tracking_refusal(route.endpoint, s.config().topic_tracking_enable,
                                                    s.config().topic_tracking_allow_reset)) {
      reply_json(res, 403, http_error_json(403, *refusal));
      return httplib::Server::HandlerResponse::Handled;
    }
    switch (route.endpoint) {
      case http_endpoint::error:
        reply_json(res, route.status, http_error_json(route.status, route.message));
        break;
      case http_endpoint::connectors:
        // Connect ignores an expansion type it does not know; "info" (connector configurations, which
        // a status store does not have) is ignored the same way rather than invented.
        if (route.expand_status)
          reply_json(res, 200, connectors_with_status_json(s.describe_all()));
        else if (route.expand)
          reply_json(res, 200, connectors_without_expansions_json(s.connectors()));
        else
          reply_json(res, 200, connectors_json(s.connectors()));
        break;
      case http_endpoint::task_status: {
        // One task from the view, not the whole connector described and searched.
        const auto task = s.get(route.connector, route.task);
        if (!task)  // Connect's words for a task without a status
          reply_json(
              res, 404,
              http_error_json(404, "No status found for task " + route.connector + "-" + std::to_string(route.task)));
        else
          reply_json(res, 200, task_status_json(*task));
        break;
      }
      case http_endpoint::connector_status: {
        const auto view = s.describe(route.connector);
        if (!view.found)  // as Connect: the connector's own status is required
          reply_json(res, 404, http_error_json(404, "No status found for connector " + view.name));
        else
          reply_json(res, 200, connector_status_json(view));
        break;
      }
      case http_endpoint::connector_topics:
        reply_json(res, 200, connector_topics_json(s.describe(route.connector)));
        break;
      case http_endpoint::reset_connector_topics: {
        // As AbstractHerder: a tombstone per topic the view knows, through the store (retried and
        // counted like any delete_topic); 202 with no body, also for a connector without topics.
        const auto topics = s.get_all_topics(route.connector);
        for (const auto& topic : topics) s.delete_topic(route.connector, topic.topic);
        component_logger("http")->info("topics reset for connector '{}': {} topic status(es) deleted", route.connector,
                                       topics.size());
        res.status = 202;
        break;
      }
      case http_endpoint::metrics:
        res.set_content(prometheus_text(s.metrics()), "text/plain; version=0.0.4; charset=utf-8");
        break;
      case http_endpoint::healthz:
        reply_json(
            res, 200,
            nlohmann::json{
                {"status", "ok"}, {"topic", s.config().status_topic}, {"bootstrap_servers", s.bootstrap_servers()}}
                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        break;
    }
    return httplib::Server::HandlerResponse::Handled;
  });
  // A query the view cannot answer in time is a 503, never a hung connection. The exception's text
  // goes to the log, not to the client.
  http.set_exception_handler([](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "unknown exception";
    try {
      if (ep) std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    component_logger("http")->warn("{} {}: answered 503: {}", req.method, req.path, what);
    reply_json(res, 503, http_error_json(503, "The status view did not answer in time; try again"));
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
  http_limits limits;
  limits.max_connections = static_cast<size_t>(options.max_connections);
  http_service http{limits};
  routes(http, s);
  const int bound = http.bind(host, port);
  if (bound < 0) {
    s.stop();
    throw std::runtime_error("cannot listen on " + options.listen);
  }
  log->info(
      "HTTP: at most {} open connections (then an immediate 503), idle timeout {} ms, request timeout {} ms, "
      "write timeout {} ms, listen backlog {}",
      limits.max_connections, limits.idle_timeout.count(), limits.request_timeout.count(), limits.write_timeout.count(),
      limits.listen_backlog);
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
