#include "modules/gpu/copy_engine.h"

#include <algorithm>

#include "modules/common/errors.h"
#include "modules/common/sim_time.h"
#include "modules/gpu/sector_cache.h"

namespace ohmvp::gpu {

struct CopyEngine::Copy {
  bool write = false;
  uint64_t address = 0;
  std::vector<uint8_t> bytes;
  uint64_t first_line = 0;  // the address of the first line it covers
  uint64_t lines = 0;
  uint64_t next_line = 0;  // the next to send
  uint64_t answered = 0;
  std::function<void()> write_done;
  std::function<void(std::vector<uint8_t>&)> read_done;
};

struct CopyEngine::Line : tlm::tlm_generic_payload {
  explicit Line(uint32_t line_bytes) : data(line_bytes), enables(line_bytes) {
    set_extension(&extension);
  }
  ~Line() override { clear_extension(&extension); }
  GpuMemoryExtension extension;
  std::vector<uint8_t> data;
  std::vector<uint8_t> enables;  // a store's, when it writes part of its sectors
  Copy* copy = nullptr;
  uint64_t index = 0;  // the line's place in its copy
};

CopyEngine::CopyEngine(sc_core::sc_module_name name, uint32_t engine_id, uint32_t line_bytes,
                       uint32_t sector_bytes, StatsRegistry& stats)
    : sc_module(name),
      out("out"),
      m_engine_id(engine_id),
      m_line_bytes(line_bytes),
      m_sector_bytes(sector_bytes),
      m_bytes_read(stats.counter(this->name(), "bytes_read", "bytes",
                                 "bytes of the copies it read from device memory, completed")),
      m_bytes_written(stats.counter(this->name(), "bytes_written", "bytes",
                                    "bytes of the copies it wrote to device memory, completed")) {
  out.bind(*this);
  SC_METHOD(send);
  sensitive << m_send_event;
  dont_initialize();
  SC_METHOD(arrive);
  sensitive << m_arrival_event;
  dont_initialize();
}

CopyEngine::~CopyEngine() = default;

void CopyEngine::write(uint64_t address, std::vector<uint8_t> bytes, std::function<void()> done) {
  auto copy = std::make_unique<Copy>();
  copy->write = true;
  copy->write_done = std::move(done);
  copy->bytes = std::move(bytes);
  queue(std::move(copy), address);
}

void CopyEngine::read(uint64_t address, uint64_t length,
                      std::function<void(std::vector<uint8_t>&)> done) {
  auto copy = std::make_unique<Copy>();
  copy->read_done = std::move(done);
  copy->bytes.assign(length, 0);
  queue(std::move(copy), address);
}

void CopyEngine::queue(std::unique_ptr<Copy> copy, uint64_t address) {
  if (copy->bytes.empty())
    throw SimulationError(std::string(name()) + ": a copy of no bytes at device address " +
                          std::to_string(address));
  copy->address = address;
  copy->first_line = address - address % m_line_bytes;
  copy->lines = (address + copy->bytes.size() - copy->first_line + m_line_bytes - 1) / m_line_bytes;
  m_copies.push_back(std::move(copy));
  m_send_event.notify(sc_core::SC_ZERO_TIME);
}

CopyEngine::Span CopyEngine::span(const Copy& copy, uint64_t index) const {
  const uint64_t line = copy.first_line + index * m_line_bytes;
  const uint64_t from = std::max(line, copy.address);
  const uint64_t to = std::min(line + m_line_bytes, copy.address + copy.bytes.size());
  const uint32_t first_sector = static_cast<uint32_t>((from - line) / m_sector_bytes);
  const uint32_t end_sector =
      static_cast<uint32_t>((to - line + m_sector_bytes - 1) / m_sector_bytes);
  return Span{line, static_cast<uint32_t>(from - line), static_cast<uint32_t>(to - from),
              from - copy.address, sector_range(first_sector, end_sector)};
}

void CopyEngine::send() {
  while (!m_port_busy && m_in_flight < k_lines_in_flight) {
    Copy* copy = nullptr;
    for (const auto& c : m_copies)
      if (c->next_line < c->lines) {
        copy = c.get();
        break;
      }
    if (copy == nullptr) return;
    if (m_free_lines.empty()) {
      m_lines.push_back(std::make_unique<Line>(m_line_bytes));
      m_free_lines.push_back(m_lines.back().get());
    }
    Line& line = *m_free_lines.back();
    m_free_lines.pop_back();
    line.copy = copy;
    line.index = copy->next_line++;
    const Span part = span(*copy, line.index);
    start_line_request(line, line.extension,
                       copy->write ? GpuRequestKind::store : GpuRequestKind::load, m_engine_id,
                       part.line, line.data.data(), m_line_bytes, part.sectors);
    if (copy->write) {
      std::copy_n(copy->bytes.begin() + part.in_copy, part.bytes, line.data.begin() + part.in_line);
      if (part.in_line % m_sector_bytes != 0 || part.bytes % m_sector_bytes != 0) {
        std::fill(line.enables.begin(), line.enables.end(), TLM_BYTE_DISABLED);
        std::fill_n(line.enables.begin() + part.in_line, part.bytes, TLM_BYTE_ENABLED);
        line.set_byte_enable_ptr(line.enables.data());
        line.set_byte_enable_length(m_line_bytes);
      }
    }
    ++m_in_flight;
    m_port_busy = true;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum status = out->nb_transport_fw(line, phase, delay);
    if (status == tlm::TLM_COMPLETED || (status == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP)) {
      m_port_busy = false;
      m_arrivals.emplace(kernel_now_ps() + delay.value(), &line);
      m_arrival_event.notify(delay);
    } else if (status == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
      m_port_busy = false;
    }
  }
}

tlm::tlm_sync_enum CopyEngine::nb_transport_bw(tlm::tlm_generic_payload& payload,
                                               tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase == tlm::END_REQ) {
    m_port_busy = false;
    m_send_event.notify(delay);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    m_arrivals.emplace(kernel_now_ps() + delay.value(), static_cast<Line*>(&payload));
    m_arrival_event.notify(delay);
    return tlm::TLM_COMPLETED;
  }
  throw SimulationError(std::string(name()) + ": unexpected phase from the crossbar");
}

void CopyEngine::arrive() {
  const uint64_t now = kernel_now_ps();
  while (!m_arrivals.empty() && m_arrivals.begin()->first <= now) {
    Line* line = m_arrivals.begin()->second;
    m_arrivals.erase(m_arrivals.begin());
    answered(*line);
  }
  if (!m_arrivals.empty())
    m_arrival_event.notify(kernel_delay_of_ps(m_arrivals.begin()->first - now));
  m_send_event.notify(sc_core::SC_ZERO_TIME);
}

void CopyEngine::answered(Line& line) {
  Copy& copy = *line.copy;
  if (line.get_response_status() != tlm::TLM_OK_RESPONSE)
    throw SimulationError(std::string(name()) +
                          ": the L2 refused a copy's line at device address " +
                          std::to_string(line.get_address()) + ": " + line.get_response_string());
  if (!copy.write) {
    const Span part = span(copy, line.index);
    std::copy_n(line.data.begin() + part.in_line, part.bytes, copy.bytes.begin() + part.in_copy);
  }
  --m_in_flight;
  m_free_lines.push_back(&line);
  if (++copy.answered < copy.lines) return;
  // Copies complete in any order; take this one out before its callback queues others.
  std::unique_ptr<Copy> done;
  for (auto it = m_copies.begin(); it != m_copies.end(); ++it)
    if (it->get() == &copy) {
      done = std::move(*it);
      m_copies.erase(it);
      break;
    }
  (done->write ? m_bytes_written : m_bytes_read).inc(done->bytes.size());
  if (done->write)
    done->write_done();
  else
    done->read_done(done->bytes);
}

}  // namespace ohmvp::gpu
