#include "actors/kafka/client_threads.hpp"

#include "actors/threads/thread_priority.hpp"

#include <algorithm>

namespace status_store {

namespace {
constexpr const char* interceptor_name = "status-store.client-threads";
}  // namespace

void client_threads::install(rd_kafka_conf_t* conf) {
  rd_kafka_conf_interceptor_add_on_new(conf, interceptor_name, &client_threads::on_new, this);
}

rd_kafka_resp_err_t client_threads::on_new(rd_kafka_t* rk, const rd_kafka_conf_t*, void* opaque, char*, size_t) {
  rd_kafka_interceptor_add_on_thread_start(rk, interceptor_name, &client_threads::on_thread_start, opaque);
  rd_kafka_interceptor_add_on_thread_exit(rk, interceptor_name, &client_threads::on_thread_exit, opaque);
  return RD_KAFKA_RESP_ERR_NO_ERROR;
}

rd_kafka_resp_err_t client_threads::on_thread_start(rd_kafka_t*, rd_kafka_thread_type_t, const char*, void* opaque) {
  auto& self = *static_cast<client_threads*>(opaque);
  const int id = this_thread_id();
  std::lock_guard<std::mutex> guard{self.mutex_};
  self.ids_.push_back(id);
  if (self.lowered_by_ > 0) lower_this_thread_priority(self.lowered_by_);  // started after the call
  return RD_KAFKA_RESP_ERR_NO_ERROR;
}

rd_kafka_resp_err_t client_threads::on_thread_exit(rd_kafka_t*, rd_kafka_thread_type_t, const char*, void* opaque) {
  auto& self = *static_cast<client_threads*>(opaque);
  const int id = this_thread_id();
  std::lock_guard<std::mutex> guard{self.mutex_};
  self.ids_.erase(std::remove(self.ids_.begin(), self.ids_.end(), id), self.ids_.end());
  return RD_KAFKA_RESP_ERR_NO_ERROR;
}

std::string client_threads::lower_priority(int increment) {
  std::lock_guard<std::mutex> guard{mutex_};
  if (lowered_by_ > 0 || increment <= 0) return {};
  lowered_by_ = increment;
  std::string first_refusal;
  for (const int id : ids_)
    if (auto refused = lower_thread_priority(id, increment); !refused.empty() && first_refusal.empty())
      first_refusal = std::move(refused);
  return first_refusal;
}

std::vector<int> client_threads::ids() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return ids_;
}

}  // namespace status_store
