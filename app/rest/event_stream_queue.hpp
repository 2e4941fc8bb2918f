#pragma once
// What one event stream has yet to write: the frames the event hub offered, oldest first, bounded in
// bytes, so a client that reads slower than the topic changes cannot grow the service's memory. Pure:
// no I/O, no lock; a stream uses it on its own I/O strand only (app/rest/event_stream_session.hpp).
//
// The bound counts what is queued and what is being written. A push that would pass it is refused
// (the stream is then closed and counted), except when nothing is queued: then one batch of any size
// is taken, so a client that keeps up is never dropped for one large burst. What a stream holds is so
// at most twice the larger of the bound and one batch.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace status_store {

class event_stream_queue {
 public:
  using frames = std::shared_ptr<const std::string>;

  explicit event_stream_queue(std::size_t max_bytes) : max_bytes_{max_bytes} {}

  /// Queues `f`; false, queuing nothing, when that would pass the bound (see above).
  bool push(frames f);
  /// Everything queued, oldest first, to be written in one go; counted until written().
  std::vector<frames> take();
  /// What the last take() returned has been written.
  void written() { writing_bytes_ = 0; }

  bool empty() const { return queued_.empty(); }
  /// Queued and being written.
  std::size_t bytes() const { return queued_bytes_ + writing_bytes_; }

 private:
  std::size_t max_bytes_;
  std::vector<frames> queued_;
  std::size_t queued_bytes_ = 0;
  std::size_t writing_bytes_ = 0;
};

}  // namespace status_store
