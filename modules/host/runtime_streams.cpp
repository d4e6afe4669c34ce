// The runtime's streams, events and asynchronous copies (runtime.h).
#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "modules/common/hex_text.h"
#include "modules/common/scoped_value.h"
#include "modules/common/sim_time.h"
#include "modules/host/gpu_element_type.h"
#include "modules/host/runtime.h"

namespace ohmvp {

// An asynchronous copy, memset or prefetch on its way: the device side of a copy or memset moves
// in parts of async_copy_part_bytes through the copy engine; the UVM driver moves a prefetch's
// pages.
struct Runtime::AsyncCopy {
  // prefetch: managed pages to the GPU (the UVM driver moves them; `device` is their address).
  enum class Kind { to_device, to_host, memset, on_device, prefetch };
  AsyncCopy(Kind what, uint64_t address, uint64_t length)
      : kind(what), device(address), bytes(length) {}
  // How many copy-engine parts of a copy on the device or a memset are outstanding at once: two
  // keep the engine's window of lines full while one is answered. A copy to the host keeps one
  // more, so that while one part crosses the link the next waits on it and a third is read: the
  // link never waits for the engine, and the copy moves at the link's rate.
  uint64_t parts_outstanding() const { return kind == Kind::to_host ? 3 : 2; }
  Kind kind;
  StreamOrder::WorkId work = 0;
  uint64_t device = 0;              // on_device: the destination
  uint64_t device_source = 0;       // on_device
  const uint8_t* source = nullptr;  // to_device
  uint8_t* destination = nullptr;   // to_host
  uint32_t value = 0;               // memset: each element's bytes, little-endian
  unsigned element_bytes = 1;       // memset
  std::vector<uint8_t> pattern;     // memset of a whole pattern (fill): its bytes, not `value`
  uint64_t bytes = 0;
  uint64_t issued = 0;   // bytes handed to the copy engine (to_host, memset)
  uint64_t landed = 0;   // bytes where they go
  bool on_link = false;  // to_host: a part has crossed PCIe (the copy's latency is paid)
  bool abandoned = false;  // a launch faulted meanwhile: the parts still on their way do nothing
};

StreamOrder::WorkId Runtime::add_work(StreamId stream, StreamWork work,
                                      std::optional<StreamOrder::WorkId> also) {
  const StreamOrder::WorkId id = m_streams.add(stream, also);
  m_stream_work.emplace(id, std::move(work));
  const ScopedValue adding(m_adding_work, true);
  start_ready_work();
  return id;
}

void Runtime::start_ready_work() {
  if (m_starting_work) return;  // the loop below takes what became ready
  const ScopedValue starting(m_starting_work, true);
  for (std::vector<StreamOrder::WorkId> ready = m_streams.ready(); !ready.empty();
       ready = m_streams.ready()) {
    for (const StreamOrder::WorkId id : ready) {
      const auto it = m_stream_work.find(id);
      const StreamWork work = std::move(it->second);
      m_stream_work.erase(it);
      const auto& action = m_context_faulted ? work.skip : work.start;
      if (action) action(id);
    }
  }
}

void Runtime::work_done(StreamOrder::WorkId work) {
  m_streams.done(work);
  start_ready_work();
  if (!m_adding_work) wake();
}

Runtime::StreamId Runtime::create_stream(StreamKind kind, int priority) {
  raise_fault();
  const StreamId stream = m_streams.create(kind);
  priority = clamp_priority(priority);
  if (priority != stream_priority_range().least) m_stream_priorities.emplace(stream, priority);
  return stream;
}

int Runtime::clamp_priority(int priority) const {
  const StreamPriorityRange range = stream_priority_range();
  return std::clamp(priority, range.greatest, range.least);
}

Runtime::StreamPriorityRange Runtime::stream_priority_range() const {
  return {0, m_gpu.config().greatest_stream_priority};
}

int Runtime::stream_priority(StreamId stream) const {
  m_streams.check(stream, "stream priority");
  const auto found = m_stream_priorities.find(stream);
  return found == m_stream_priorities.end() ? 0 : found->second;
}

void Runtime::destroy_stream(StreamId stream) {
  raise_fault();
  m_streams.destroy(stream);
}

void Runtime::stream_synchronize(StreamId stream) {
  ensure_started();
  raise_fault();
  m_streams.check(stream, "stream synchronize");
  if (!m_streams.idle(stream))
    run_until([this, stream] { return m_streams.idle(stream); }, "waiting for a stream");
  raise_fault();
}

bool Runtime::stream_query(StreamId stream) {
  raise_fault();
  m_streams.check(stream, "stream query");
  return m_streams.idle(stream);
}

void Runtime::copy_to_device_async(uint64_t destination, const void* source, uint64_t bytes,
                                   StreamId stream) {
  before_async_work(stream, "copy to device");
  check_host_pointer(source, bytes, "copy to device");
  check_range(destination, bytes, "copy to device");
  if (bytes == 0) return;
  if (managed(destination)) return copy_to_device(destination, source, bytes);
  auto copy = std::make_shared<AsyncCopy>(AsyncCopy::Kind::to_device, destination, bytes);
  copy->source = static_cast<const uint8_t*>(source);
  queue_copy(stream, copy);
}

void Runtime::copy_to_host_async(void* destination, uint64_t source, uint64_t bytes,
                                 StreamId stream) {
  before_async_work(stream, "copy to host");
  check_host_pointer(destination, bytes, "copy to host");
  check_range(source, bytes, "copy to host");
  if (bytes == 0) return;
  if (managed(source)) return copy_to_host(destination, source, bytes);
  auto copy = std::make_shared<AsyncCopy>(AsyncCopy::Kind::to_host, source, bytes);
  copy->destination = static_cast<uint8_t*>(destination);
  queue_copy(stream, copy);
}

void Runtime::memset_async(uint64_t destination, uint8_t value, uint64_t bytes, StreamId stream) {
  memset_elements_async(destination, value, 1, bytes, stream);
}

void Runtime::memset_elements_async(uint64_t destination, uint32_t value, unsigned element_bytes,
                                    uint64_t count, StreamId stream) {
  before_async_work(stream, "memset");
  if (element_bytes != 1 && element_bytes != 2 && element_bytes != 4)
    throw std::invalid_argument("memset: elements of " + std::to_string(element_bytes) +
                                " bytes; expected 1, 2 or 4 (cuMemsetD8, D16, D32)");
  if (destination % element_bytes != 0)
    throw std::invalid_argument("memset of " + std::to_string(element_bytes) +
                                "-byte elements: the destination " + hex_text(destination) +
                                " is not aligned to them");
  if (count > std::numeric_limits<uint64_t>::max() / element_bytes)
    throw std::invalid_argument("memset: " + std::to_string(count) + " elements of " +
                                std::to_string(element_bytes) + " bytes are too many");
  const uint64_t bytes = count * element_bytes;
  check_range(destination, bytes, "memset");
  if (bytes == 0) return;
  if (managed(destination)) {
    const std::vector<uint8_t> pattern = repeated_element(value, element_bytes, bytes);
    return fill(destination, pattern.data(), bytes);
  }
  auto copy = std::make_shared<AsyncCopy>(AsyncCopy::Kind::memset, destination, bytes);
  copy->value = value;
  copy->element_bytes = element_bytes;
  queue_copy(stream, copy);
}

void Runtime::fill_on_default_stream(uint64_t destination, const void* pattern, uint64_t bytes) {
  before_async_work(default_stream, "fill");
  auto copy = std::make_shared<AsyncCopy>(AsyncCopy::Kind::memset, destination, bytes);
  const auto* from = static_cast<const uint8_t*>(pattern);
  copy->pattern.assign(from, from + bytes);
  queue_copy(default_stream, copy);
  stream_synchronize(default_stream);
}

void Runtime::copy_on_device_async(uint64_t destination, uint64_t source, uint64_t bytes,
                                   StreamId stream) {
  before_async_work(stream, "device copy");
  check_device_copy(destination, source, bytes);
  if (bytes == 0) return;
  if (managed(source) || managed(destination)) return copy_on_device(destination, source, bytes);
  auto copy = std::make_shared<AsyncCopy>(AsyncCopy::Kind::on_device, destination, bytes);
  copy->device_source = source;
  queue_copy(stream, copy);
}

void Runtime::prefetch_managed_async(uint64_t address, uint64_t bytes, bool to_host,
                                     StreamId stream) {
  before_async_work(stream, "prefetch");
  check_managed_range(address, bytes, "prefetch");
  if (to_host) return prefetch_managed(address, bytes, true);
  queue_copy(stream, std::make_shared<AsyncCopy>(AsyncCopy::Kind::prefetch, address, bytes));
}

void Runtime::start_prefetch(const std::shared_ptr<AsyncCopy>& prefetch) {
  m_uvm->when_settled([this, prefetch] {
    if (prefetch->abandoned) return;
    // Another waiter may have opened a batch first: the next settling is this one's turn.
    if (!m_uvm->settled()) return start_prefetch(prefetch);
    m_uvm->prefetch(prefetch->device, prefetch->bytes, [this, prefetch] {
      if (!prefetch->abandoned) copy_done(*prefetch);
    });
  });
}

void Runtime::before_async_work(StreamId stream, const char* what) {
  ensure_started();
  raise_fault();
  m_streams.check(stream, what);
  wait_for_stream_room();
}

void Runtime::wait_for_stream_room() {
  // Full queues make the host wait, as a full launch queue does: a host's loop of copies may
  // not run ahead of the device for good.
  if (m_streams.open_count() < max_queued_launches) return;
  run_until([this] { return m_streams.open_count() < max_queued_launches; },
            "waiting for room in the stream queues");
  raise_fault();
}

void Runtime::queue_copy(StreamId stream, const std::shared_ptr<AsyncCopy>& copy) {
  const auto start = [this, copy](StreamOrder::WorkId work) {
    copy->work = work;
    m_async_copies.emplace(work, copy);
    switch (copy->kind) {
      case AsyncCopy::Kind::to_device:
        return start_copy_to_device(copy);
      case AsyncCopy::Kind::to_host:
        m_d2h_bytes.inc(copy->bytes);
        count_copies(PcieLink::Direction::device_to_host, +1);
        return issue_device_parts(copy);
      case AsyncCopy::Kind::memset:
      case AsyncCopy::Kind::on_device:
        return issue_device_parts(copy);
      case AsyncCopy::Kind::prefetch:
        return start_prefetch(copy);
    }
  };
  add_work(stream, StreamWork{start, [this](StreamOrder::WorkId work) { work_done(work); }});
}

void Runtime::start_copy_to_device(const std::shared_ptr<AsyncCopy>& copy) {
  // One DMA copy on the link; the copy engine writes each part into memory once it is across.
  const auto direction = PcieLink::Direction::host_to_device;
  const uint64_t busy = m_pcie.busy_ps(direction);
  const std::vector<uint64_t> arrivals =
      m_pcie.transfer_parts(direction, kernel_now_ps(), copy->bytes, async_copy_part_bytes);
  m_pcie_busy_ps.inc(m_pcie.busy_ps(direction) - busy);
  m_h2d_bytes.inc(copy->bytes);
  count_copies(direction, +1);
  for (uint64_t part = 0; part < arrivals.size(); ++part) {
    const uint64_t offset = part * async_copy_part_bytes;
    const uint64_t bytes = std::min(async_copy_part_bytes, copy->bytes - offset);
    m_timed.at(arrivals[part], [this, copy, offset, bytes] {
      if (copy->abandoned) return;  // the host buffer may be gone
      const uint8_t* from = copy->source + offset;
      write_part(copy, offset, std::vector<uint8_t>(from, from + bytes));
    });
  }
}

void Runtime::issue_device_parts(const std::shared_ptr<AsyncCopy>& copy) {
  while (!copy->abandoned && copy->issued < copy->bytes &&
         copy->issued - copy->landed < copy->parts_outstanding() * async_copy_part_bytes) {
    const uint64_t offset = copy->issued;
    const uint64_t bytes = std::min(async_copy_part_bytes, copy->bytes - offset);
    copy->issued += bytes;
    if (copy->kind == AsyncCopy::Kind::memset) {
      // A part starts at a multiple of the element size.
      const auto from = copy->pattern.begin() + static_cast<std::ptrdiff_t>(offset);
      write_part(copy, offset,
                 copy->pattern.empty()
                     ? repeated_element(copy->value, copy->element_bytes, bytes)
                     : std::vector<uint8_t>(from, from + static_cast<std::ptrdiff_t>(bytes)));
      continue;
    }
    ++m_parts_in_engine;  // the part's read
    if (copy->kind == AsyncCopy::Kind::on_device) {
      // Read, then written to the destination: the part stays in the engine throughout.
      m_gpu.copy_engine().read(copy->device_source + offset, bytes,
                               [this, copy, offset](std::vector<uint8_t>& data) {
                                 if (!copy->abandoned) write_part(copy, offset, std::move(data));
                                 part_left_engine();
                               });
      continue;
    }
    m_gpu.copy_engine().read(
        copy->device + offset, bytes, [this, copy, offset](std::vector<uint8_t>& data) {
          part_left_engine();
          if (copy->abandoned) return;
          // The part crosses the link behind the copy's earlier ones; the first pays its latency.
          const uint64_t now = kernel_now_ps();
          const auto direction = PcieLink::Direction::device_to_host;
          const uint64_t busy = m_pcie.busy_ps(direction);
          const uint64_t arrival = copy->on_link ? m_pcie.append(direction, now, data.size())
                                                 : m_pcie.transfer(direction, now, data.size());
          copy->on_link = true;
          m_pcie_busy_ps.inc(m_pcie.busy_ps(direction) - busy);
          auto kept = std::make_shared<std::vector<uint8_t>>(std::move(data));
          m_timed.at(arrival, [this, copy, offset, kept] {
            if (copy->abandoned) return;  // the host buffer may be gone
            std::memcpy(copy->destination + offset, kept->data(), kept->size());
            part_landed(copy, kept->size());
          });
        });
  }
}

void Runtime::write_part(const std::shared_ptr<AsyncCopy>& copy, uint64_t offset,
                         std::vector<uint8_t> data) {
  const uint64_t bytes = data.size();
  ++m_parts_in_engine;
  m_gpu.copy_engine().write(copy->device + offset, std::move(data), [this, copy, bytes] {
    part_left_engine();
    part_landed(copy, bytes);
  });
}

void Runtime::part_left_engine() {
  if (--m_parts_in_engine == 0) wake();  // a reset may wait for it
}

void Runtime::part_landed(const std::shared_ptr<AsyncCopy>& copy, uint64_t bytes) {
  if (copy->abandoned) return;
  copy->landed += bytes;
  if (copy->landed == copy->bytes) return copy_done(*copy);
  if (copy->kind != AsyncCopy::Kind::to_device) issue_device_parts(copy);
}

void Runtime::copy_done(AsyncCopy& copy) {
  m_async_copies.erase(copy.work);
  if (copy.kind == AsyncCopy::Kind::to_device || copy.kind == AsyncCopy::Kind::to_host)
    count_copies(copy.kind == AsyncCopy::Kind::to_device ? PcieLink::Direction::host_to_device
                                                         : PcieLink::Direction::device_to_host,
                 -1);
  work_done(copy.work);
}

void Runtime::abandon_copies() {
  const auto copies = std::move(m_async_copies);
  m_async_copies.clear();
  for (const auto& [work, copy] : copies) {
    copy->abandoned = true;
    copy_done(*copy);
  }
}

Runtime::EventId Runtime::create_event() {
  raise_fault();
  m_events.emplace(m_next_event, Event{});
  return m_next_event++;
}

Runtime::Event& Runtime::event(EventId id, const char* what) {
  const auto it = m_events.find(id);
  if (it == m_events.end())
    throw std::invalid_argument(std::string(what) + ": event " + std::to_string(id) +
                                " is not an event (never created, or destroyed)");
  return it->second;
}

void Runtime::destroy_event(EventId id) {
  raise_fault();
  event(id, "destroy event");
  m_events.erase(id);
}

void Runtime::record_event(EventId id, StreamId stream) {
  before_async_work(stream, "record event");
  const auto reached = [this, id](StreamOrder::WorkId work) {
    const auto it = m_events.find(id);
    if (it != m_events.end() && it->second.recorded == work) it->second.time_ps = kernel_now_ps();
    work_done(work);
  };
  // The record's place is known only once it is added; it may be reached as it is.
  Event& recorded = event(id, "record event");
  recorded.recorded = m_streams.next_work();
  add_work(stream, StreamWork{reached, reached});
}

void Runtime::stream_wait_event(StreamId stream, EventId id) {
  before_async_work(stream, "stream wait event");
  const Event& waited = event(id, "stream wait event");
  const auto passed = [this](StreamOrder::WorkId work) { work_done(work); };
  add_work(stream, StreamWork{passed, passed}, waited.recorded);
}

void Runtime::event_synchronize(EventId id) {
  ensure_started();
  raise_fault();
  const Event& waited = event(id, "event synchronize");
  if (waited.recorded && !m_streams.finished(*waited.recorded)) {
    const StreamOrder::WorkId work = *waited.recorded;
    run_until([this, work] { return m_streams.finished(work); }, "waiting for an event");
  }
  raise_fault();
}

bool Runtime::event_query(EventId id) {
  raise_fault();
  const Event& queried = event(id, "event query");
  return !queried.recorded || m_streams.finished(*queried.recorded);
}

std::optional<uint64_t> Runtime::event_time_ps(EventId id) {
  const Event& e = event(id, "event time");
  if (!e.recorded || !m_streams.finished(*e.recorded)) return std::nullopt;
  return e.time_ps;
}

double Runtime::event_elapsed_ms(EventId start, EventId end) {
  raise_fault();
  const auto time_of = [this](EventId id) {
    const Event& e = event(id, "event elapsed time");
    if (!e.recorded)
      throw std::invalid_argument("event elapsed time: event " + std::to_string(id) +
                                  " was never recorded");
    if (!m_streams.finished(*e.recorded))
      throw std::invalid_argument("event elapsed time: event " + std::to_string(id) +
                                  " has not completed (synchronise with it first)");
    return static_cast<double>(e.time_ps);
  };
  const double from = time_of(start);
  return (time_of(end) - from) / 1e9;  // ps to ms
}

}  // namespace ohmvp
