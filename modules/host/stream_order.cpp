#include "modules/host/stream_order.h"

#include <stdexcept>
#include <string>

namespace ohmvp {

StreamOrder::StreamId StreamOrder::create(Kind kind) {
  m_streams.insert(m_next_stream);
  if (kind == Kind::non_blocking) m_non_blocking.insert(m_next_stream);
  return m_next_stream++;
}

void StreamOrder::check(StreamId stream, const char* what) const {
  if (stream != default_stream && m_streams.count(stream) == 0)
    throw std::invalid_argument(std::string(what) + ": stream " + std::to_string(stream) +
                                " is not a stream (never created, or destroyed)");
}

void StreamOrder::destroy(StreamId stream) {
  if (stream == default_stream)
    throw std::invalid_argument("destroy stream: the default stream (0) cannot be destroyed");
  check(stream, "destroy stream");
  m_streams.erase(stream);
}

void StreamOrder::forget_streams() {
  if (!idle()) throw std::logic_error("stream order: streams forgotten while work is open");
  m_streams.clear();
  m_non_blocking.clear();
  m_last.clear();
}

bool StreamOrder::would_wait(StreamId stream) const {
  // m_last holds only work not done.
  if (stream == default_stream) {
    for (const auto& entry : m_last)
      if (blocking(entry.first)) return true;
    return false;
  }
  return m_last.count(stream) != 0 || (blocking(stream) && m_last.count(default_stream) != 0);
}

StreamOrder::WorkId StreamOrder::add(StreamId stream, std::optional<WorkId> also) {
  check(stream, "work on a stream");
  const WorkId work = m_next_work++;
  m_open.emplace(work, Work{});
  if (stream == default_stream) {
    for (const auto& [other, last] : m_last)
      if (blocking(other)) follow(work, last);
  } else {
    for (const StreamId before : {stream, default_stream}) {
      const auto last = m_last.find(before);
      if (last != m_last.end() && (before == stream || blocking(stream)))
        follow(work, last->second);
    }
  }
  follow(work, also);
  m_last[stream] = work;
  if (m_open.at(work).waiting_for == 0) m_ready.insert(work);
  return work;
}

void StreamOrder::follow(WorkId work, std::optional<WorkId> predecessor) {
  if (!predecessor || finished(*predecessor) || *predecessor == work) return;
  std::vector<WorkId>& followers = m_open.at(*predecessor).followers;
  if (!followers.empty() && followers.back() == work) return;  // already after it
  followers.push_back(work);
  ++m_open.at(work).waiting_for;
}

std::vector<StreamOrder::WorkId> StreamOrder::ready() {
  std::vector<WorkId> out(m_ready.begin(), m_ready.end());
  m_ready.clear();
  return out;
}

void StreamOrder::done(WorkId work) {
  const auto it = m_open.find(work);
  if (it == m_open.end() || it->second.waiting_for != 0 || m_ready.count(work) != 0)
    throw std::logic_error("stream order: work " + std::to_string(work) +
                           " is done before it was handed out");
  for (const WorkId follower : it->second.followers)
    if (--m_open.at(follower).waiting_for == 0) m_ready.insert(follower);
  m_open.erase(it);
  for (auto last = m_last.begin(); last != m_last.end();)
    last = last->second == work ? m_last.erase(last) : std::next(last);
}

bool StreamOrder::idle(StreamId stream) const {
  const auto last = m_last.find(stream);
  return last == m_last.end() || finished(last->second);
}

}  // namespace ohmvp
