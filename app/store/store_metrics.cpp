// The store's metrics: one snapshot on request (the final values after stop()), and the periodic
// reporter, the KIP's setMetrics.
#include "app/store/labelled_samples.hpp"
#include "app/store/periodic_reporter.hpp"
#include "app/store/request_or_throw.hpp"
#include "app/store/store.hpp"

#include "actors/ingest/ingest_table.hpp"
#include "config/logging.hpp"

#include <iterator>

namespace status_store {

void store::set_metrics_reporter(metrics_reporter reporter, std::chrono::milliseconds interval) {
  reporter_thread_.reset();  // joins the old reporter's thread: reporter_ is the new one's alone
  reporter_ = nullptr;
  if (!reporter) return;
  if (stopped_) throw store_error{store_error_kind::stopped, "set_metrics_reporter failed: the store is stopped"};
  reporter_ = std::move(reporter);
  reporter_thread_ = std::make_unique<periodic_reporter>(interval, [this] { report_metrics(std::nullopt, false); });
}

void store::report_metrics(std::optional<metrics_snapshot> snapshot, bool final) {
  if (!reporter_) return;
  try {
    if (!snapshot) snapshot = metrics();
    metrics_report report{metric_group,
                          {{"topic", config_.status_topic}, {"client-id", config_.status_client_id()}},
                          metric_samples(*snapshot),
                          final,
                          {},
                          histogram_samples(*snapshot)};
    try {  // the view answers apart from the metrics actor: without it, the rest is still reported
      report.labelled = state_samples(describe_all());
      auto history = history_samples(counts_by_connector());
      report.labelled.insert(report.labelled.end(), std::make_move_iterator(history.begin()),
                             std::make_move_iterator(history.end()));
    } catch (const std::exception& e) {
      report.labelled.clear();  // all the view's families or none, never a part of them
      component_logger("store")->warn("metrics report without the status view's per-state and history series: {}",
                                      e.what());
    }
    reporter_(report);
  } catch (const std::exception& e) {  // a reporter must not take the store down, nor a slow metrics actor
    component_logger("store")->warn("metrics report skipped: {}", e.what());
  }
}

metrics_snapshot store::metrics(std::chrono::milliseconds timeout) {
  metrics_actor target;
  {
    std::lock_guard lock{handles_mutex_};
    if (final_metrics_) {  // stopped (or stopping): the values after the drain, and the puts refused since
      metrics_snapshot final_values = *final_metrics_;
      final_values.updates_after_stop = ingest_->refused();
      return final_values;
    }
    target = metrics_;
  }
  auto result =
      request_or_throw<metrics_snapshot>(*system_, target, request_timeout(timeout), "metrics", get_atom::value);
  result.updates_after_stop = ingest_->refused();
  return result;
}

}  // namespace status_store
