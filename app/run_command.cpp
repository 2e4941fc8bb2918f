// `status-store run`: the store as a long-running worker service. It serves what the status topic
// says over HTTP in the shapes of Kafka Connect's REST API (app/rest/rest_api.hpp), the metrics in
// the Prometheus text format, and health checks, on the listeners Connect's settings name; SIGINT or
// SIGTERM stop it gracefully, draining within status.storage.shutdown.drain.timeout.ms.
#include "actors/event_hub_actor.hpp"
#include "app/commands.hpp"
#include "app/connection_config.hpp"
#include "app/rest/http_listener.hpp"
#include "app/rest/listener_plan.hpp"
#include "app/rest/rest_api.hpp"
#include "app/rest/tls_context.hpp"
#include "app/store/store.hpp"
#include "app/webhook/webhook_transport.hpp"
#include "config/logging.hpp"

#include "caf/send.hpp"

#include <pthread.h>
#include <csignal>
#include <iostream>

namespace status_store::cli {

namespace {

http_limits limits_of(const run_options& options) {
  http_limits limits;
  limits.max_connections = static_cast<size_t>(options.max_connections);
  limits.max_connections_per_client = static_cast<size_t>(options.max_connections_per_client);
  limits.event_streams.max_open = static_cast<size_t>(options.max_event_streams);
  return limits;
}

/// Binds every listener before the store starts, so a port in use fails at once (exit 1), and
/// /health can say "starting" while the topic is replayed. Returns the URLs as bound.
std::vector<std::string> bind_listeners(http_listener& http, const std::vector<rest_listener>& listeners,
                                        const rest_settings& rest) {
  std::shared_ptr<boost::asio::ssl::context> tls;
  std::vector<std::string> urls;
  for (const auto& l : listeners) {
    if (l.scheme == "https" && !tls) tls = make_server_tls_context(*rest.tls);  // config_error: exit 2
    const int port = http.listen(l.host, l.port, l.scheme == "https" ? tls : nullptr);
    urls.push_back(l.scheme + "://" + display_host(l.host) + ":" + std::to_string(port));
  }
  return urls;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

}  // namespace

int run(const run_options& options) {
  const properties props = resolve_properties(options.connection, {});
  worker_config config = resolve_connection_config(props);
  const rest_settings rest = resolve_rest_settings(props);  // its notes logged
  const std::vector<rest_listener> listeners = listeners_to_open(options.listen, rest);
  auto log = component_logger("service");
  for (const auto& warning : exposure_warnings(listeners, rest)) log->warn("{}", warning);

  // Block SIGINT/SIGTERM before any thread exists, so every thread inherits the mask and only
  // sigwait() below sees them: shutdown happens on this thread, in order.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  const http_limits limits = limits_of(options);
  rest_api api{config, rest, {STATUS_STORE_VERSION, STATUS_STORE_COMMIT}};
  http_listener http{limits, api.handlers()};
  api.set_listener_counts([&http] { return http.counts(); });
  const std::vector<std::string> urls = bind_listeners(http, listeners, rest);
  http.start();
  log->info(
      "listening on {}: at most {} open connections ({} per client; then the health lane, then an immediate 503), "
      "idle timeout {} ms, request timeout {} ms, write timeout {} ms; starting: replaying the status topic",
      joined(urls), limits.max_connections, limits.per_client_bound(), limits.idle_timeout.count(),
      limits.request_timeout.count(), limits.write_timeout.count());

  store_options store_opts;
  if (config.alert.enabled()) store_opts.alerts = make_webhook_transport(config.alert);  // its own thread
  store s{config, store_opts};  // on failure the listener stops with it (its destructor)
  // The event streams' source: subscribed to the view, in the store's actor system.
  const event_hub_actor hub = spawn_event_hub(s.view().home_system(), s.view());
  api.attach(s, hub);
  std::cout << "status-store running: topic '" << config.status_topic << "' on " << s.bootstrap_servers()
            << "; HTTP on " << joined(urls) << std::endl;

  int signal = 0;
  sigwait(&stop_signals, &signal);
  log->info("received {}: stopping (draining for at most {} ms)", signal == SIGINT ? "SIGINT" : "SIGTERM",
            config.shutdown_drain_timeout_ms);
  http.stop();
  api.detach();
  caf::anon_send_exit(hub, caf::exit_reason::user_shutdown);
  const auto report = s.stop();
  std::cout << "status-store stopped: " << report.failed << " update(s) failed at shutdown" << std::endl;
  return report.failed == 0 ? exit_ok : exit_failed;
}

}  // namespace status_store::cli
