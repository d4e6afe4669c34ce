#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace ohmvp {

// What work of a host program's CUDA streams may start: the order CUDA promises, nothing more.
// Work on one stream runs in the order it was added. Stream 0 is the legacy default stream: its
// work waits for all work added before it on every blocking stream, and every blocking stream's
// work waits for the default stream's work added before it (cudaStreamLegacy). A non-blocking
// stream (cudaStreamNonBlocking) is ordered with no stream but itself. Work may also wait for one
// other piece of work (an event's: cudaStreamWaitEvent).
//
// Each piece of work gets a WorkId, in the order added; ready() hands out, in that order, the
// work whose predecessors are all done, once each; the caller starts it and calls done().
class StreamOrder {
 public:
  using StreamId = uint32_t;
  using WorkId = uint64_t;
  static constexpr StreamId default_stream = 0;

  // cudaStreamCreate (blocking) or cudaStreamCreateWithFlags(cudaStreamNonBlocking): a new
  // stream, numbered from 1 on.
  enum class Kind { blocking, non_blocking };
  StreamId create(Kind kind = Kind::blocking);
  // cudaStreamDestroy: its work still runs; the id names nothing from now on.
  // std::invalid_argument for the default stream or an id that names no stream.
  void destroy(StreamId stream);
  // Runtime::reset: every stream is gone (its work must be done); ids go on from where they
  // were, so that none from before names a stream made after.
  void forget_streams();
  // std::invalid_argument naming `what` unless `stream` names a stream.
  void check(StreamId stream, const char* what) const;

  // Work on `stream`, after what the stream order puts before it and, if given, after `also`.
  WorkId add(StreamId stream, std::optional<WorkId> also = std::nullopt);
  // The id the next work added gets.
  WorkId next_work() const { return m_next_work; }
  // Whether work added to `stream` now would have to wait.
  bool would_wait(StreamId stream) const;
  // The work whose predecessors are done and that was not handed out yet, oldest first.
  std::vector<WorkId> ready();
  void done(WorkId work);

  bool finished(WorkId work) const { return work < m_next_work && m_open.count(work) == 0; }
  // Whether every piece of work added to `stream` is done.
  bool idle(StreamId stream) const;
  bool idle() const { return m_open.empty(); }
  // Work added and not done, on every stream.
  size_t open_count() const { return m_open.size(); }

 private:
  struct Work {
    uint32_t waiting_for = 0;       // predecessors not done
    std::vector<WorkId> followers;  // work waiting for this
  };
  void follow(WorkId work, std::optional<WorkId> predecessor);

  StreamId m_next_stream = 1;
  WorkId m_next_work = 0;
  bool blocking(StreamId stream) const { return m_non_blocking.count(stream) == 0; }

  std::set<StreamId> m_streams;       // created and not destroyed (0 is not in it)
  std::set<StreamId> m_non_blocking;  // created so, destroyed or not (ids are not reused)
  std::map<StreamId, WorkId> m_last;  // the last work added to each stream, while open
  std::map<WorkId, Work> m_open;      // added and not done
  std::set<WorkId> m_ready;           // predecessors done, not handed out
};

}  // namespace ohmvp
