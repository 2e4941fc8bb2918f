#include "app/rest/event_stream_queue.hpp"

#include <utility>

namespace status_store {

bool event_stream_queue::push(frames f) {
  if (!f || f->empty()) return true;
  if (!queued_.empty() && bytes() + f->size() > max_bytes_) return false;
  queued_bytes_ += f->size();
  queued_.push_back(std::move(f));
  return true;
}

std::vector<event_stream_queue::frames> event_stream_queue::take() {
  writing_bytes_ += queued_bytes_;
  queued_bytes_ = 0;
  return std::exchange(queued_, {});
}

}  // namespace status_store
