#include "modules/memory/hetero_memory_manager.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "modules/common/errors.h"
#include "modules/common/sim_time.h"
#include "modules/memory/front_request_checks.h"

namespace ohmvp {

namespace {
uint64_t burst_ps(double ns) {
  return static_cast<uint64_t>(ns * 1000.0 + 0.5);
}
}  // namespace

struct HeteroMemoryManager::Stats {
  Counter& reads;
  Counter& writes;
  Counter& read_bytes;
  Counter& write_bytes;
  Counter& backpressure;
  Counter& burst_waits;
  Histogram& read_latency;
  Histogram& write_latency;
  Scalar& migration_channel_share;
  Scalar& peak_migrations;
  Stats(StatsRegistry& r, const std::string& g)
      : reads(r.counter(g, "reads", "requests", "read requests served")),
        writes(r.counter(g, "writes", "requests", "write requests served")),
        read_bytes(r.counter(g, "read_bytes", "bytes", "bytes read by front requests")),
        write_bytes(r.counter(g, "write_bytes", "bytes", "bytes written by front requests")),
        backpressure(r.counter(g, "backpressure", "requests",
                               "requests that waited for a free request slot")),
        burst_waits(r.counter(g, "burst_waits", "requests",
                              "requests that waited for an older request to their burst")),
        read_latency(r.histogram(g, "read_latency", "ps", "read BEGIN_REQ to BEGIN_RESP")),
        write_latency(r.histogram(g, "write_latency", "ps", "write BEGIN_REQ to BEGIN_RESP")),
        migration_channel_share(r.scalar(g, "migration_channel_share", "ratio",
                                         "share of the channel's data-bus time taken by "
                                         "migration traffic")),
        peak_migrations(r.scalar(g, "peak_migrations_in_flight", "migrations",
                                 "most swaps, faults or reverse writes in flight at once")) {}
};

HeteroMemoryManager::HeteroMemoryManager(sc_core::sc_module_name name, const HeteroConfig& config,
                                         uint64_t dram_bytes, const FarMemory& far, DataBus& bus,
                                         StatsRegistry& stats, VcdWriter* vcd)
    : sc_module(name),
      in("in"),
      m_config(config),
      m_layout(check_capacities(config, dram_bytes, far.bytes, this->name())),
      m_stats(std::make_unique<Stats>(stats, this->name())),
      m_usage(stats, this->name(), burst_ps(config.burst_ns)),
      m_requests(config.max_requests),
      m_bus(bus) {
  in.bind(*this);
  const auto done = [this](uint64_t token, const uint8_t* data) { back_end_done(token, data); };
  m_dram = std::make_unique<DramPort>("dram_port", config.dram_slots, m_usage,
                                      [this](uint64_t token, const uint8_t* data, bool crossed) {
                                        back_end_done(token, data, crossed);
                                      });
  HeteroBackEnds& back_ends = *this;
  if (config.mode == HeteroMode::paged) {
    if (far.host_link == nullptr) {
      throw std::logic_error(std::string(this->name()) + ": paged mode needs the host link");
    }
    m_host = std::make_unique<HostPort>("host_port", *far.host_link,
                                        [done](uint64_t token) { done(token, nullptr); });
    m_paged = std::make_unique<PagedMode>(config, m_layout, back_ends, stats, this->name());
  } else {
    m_xpoint = std::make_unique<DdrTPort>("ddr_t_port", config.ddr_t_tags, far.write_credits, bus,
                                          m_usage, stats, vcd, done);
  }
  if (config.mode == HeteroMode::planar) {
    m_planar = std::make_unique<PlanarMode>(config, m_layout, back_ends, stats, this->name());
  } else if (config.mode == HeteroMode::two_level) {
    m_two_level = std::make_unique<TwoLevelMode>(config, m_layout, back_ends, stats, this->name());
  }
  for (uint32_t i = config.max_requests; i-- > 0;) {
    m_requests[i].id = i;
    m_free.push_back(i);
  }
  m_active.reserve(config.max_requests);
  m_burst_waiting.reserve(config.max_requests);
  // Swaps, faults or fills in flight; named for the Ohm function where one moves them.
  const char* in_flight = config.swap_cmd        ? "swap_cmd_in_flight"
                          : config.reverse_write ? "reverse_write_in_flight"
                                                 : "migration_in_flight";
  m_trace_migrations.attach(vcd, this->name(), in_flight, 8);
  SC_METHOD(respond);
  sensitive << m_respond;
  dont_initialize();
  SC_METHOD(deliver_control_messages);
  sensitive << m_control_arrived;
  dont_initialize();
}

HeteroMemoryManager::~HeteroMemoryManager() = default;

DdrTInitiatorSocket<>& HeteroMemoryManager::xpoint() {
  if (!m_xpoint) throw std::logic_error(std::string(name()) + ": no XPoint in paged mode");
  return m_xpoint->out;
}

bool HeteroMemoryManager::idle() const {
  const bool mode_idle = m_planar      ? m_planar->idle()
                         : m_two_level ? m_two_level->idle()
                                       : m_paged->idle();
  return m_active.empty() && m_pending == nullptr && m_responses.empty() && !m_waiting_end_resp &&
         m_control_arrivals.empty() && mode_idle && m_dram->idle() &&
         (!m_xpoint || m_xpoint->idle()) && (!m_host || m_host->idle());
}

void HeteroMemoryManager::finish_stats() {
  if (m_two_level) m_two_level->finish_stats();
  const double regular = static_cast<double>(m_usage.time_ps[0]->value());
  const double migration = static_cast<double>(m_usage.time_ps[1]->value());
  m_stats->migration_channel_share.set(
      regular + migration == 0 ? 0.0 : migration / (regular + migration));
}

bool HeteroMemoryManager::validate(tlm::tlm_generic_payload& p) const {
  const uint64_t address = p.get_address();
  const uint32_t length = p.get_data_length();
  if (address >= m_layout.capacity_bytes || length > m_layout.capacity_bytes - address) {
    p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (length == 0 || length > 64 || address % 64 + length > 64 ||
      p.get_streaming_width() < length || p.get_data_ptr() == nullptr) {
    p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  if (!p.is_read() && !p.is_write()) {
    p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return false;
  }
  if (p.get_byte_enable_ptr() != nullptr && (p.is_read() || p.get_byte_enable_length() == 0)) {
    p.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  return true;
}

tlm::tlm_sync_enum HeteroMemoryManager::nb_transport_fw(tlm::tlm_generic_payload& payload,
                                                        tlm::tlm_phase& phase,
                                                        sc_core::sc_time& delay) {
  const uint64_t now = kernel_now_ps();
  if (phase == tlm::END_RESP) {
    m_waiting_end_resp = false;
    m_respond.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_COMPLETED;
  }
  if (phase != tlm::BEGIN_REQ) {
    SC_REPORT_ERROR(name(), "unexpected phase on the front socket");
    return tlm::TLM_COMPLETED;
  }
  check_front_request(*this, payload, delay, m_pending != nullptr);
  if (!validate(payload)) return tlm::TLM_COMPLETED;
  if (m_free.empty()) {
    m_pending = &payload;
    m_pending_ps = now;
    m_stats->backpressure.inc();
    return tlm::TLM_ACCEPTED;
  }
  accept(payload, now);
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void HeteroMemoryManager::b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time&) {
  payload.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  SC_REPORT_ERROR(name(), "b_transport is not supported; use nb_transport_fw");
}

void HeteroMemoryManager::accept(tlm::tlm_generic_payload& p, uint64_t arrival_ps) {
  HeteroRequest& r = m_requests[m_free.back()];
  m_free.pop_back();
  p.acquire();
  r.payload = &p;
  r.address = p.get_address();
  r.length = p.get_data_length();
  r.is_write = p.is_write();
  r.arrival_ps = arrival_ps;
  r.answered = false;
  r.masked = false;
  if (r.is_write) {
    std::memcpy(r.data, p.get_data_ptr(), r.length);
    const uint8_t* enable = p.get_byte_enable_ptr();
    std::memset(r.enable, 0xff, r.length);
    if (enable != nullptr) {
      const uint32_t pattern = p.get_byte_enable_length();
      for (uint32_t i = 0; i < r.length; ++i) {
        if (enable[i % pattern] != TLM_BYTE_ENABLED) {
          r.enable[i] = 0;
          r.masked = true;
        }
      }
    }
    m_stats->writes.inc();
    m_stats->write_bytes.inc(r.length);
  } else {
    m_stats->reads.inc();
    m_stats->read_bytes.inc(r.length);
  }
  const uint64_t burst = r.address / 64;
  const bool behind = std::any_of(m_active.begin(), m_active.end(),
                                  [&](const HeteroRequest* a) { return a->address / 64 == burst; });
  m_active.push_back(&r);
  if (behind) {
    m_stats->burst_waits.inc();
    m_burst_waiting.push_back(&r);
    return;
  }
  submit(r);
}

void HeteroMemoryManager::submit(HeteroRequest& r) {
  if (m_planar) {
    m_planar->submit(r);
  } else if (m_two_level) {
    m_two_level->submit(r);
  } else {
    m_paged->submit(r);
  }
}

void HeteroMemoryManager::back_end_done(uint64_t token, const uint8_t* data, bool crossed) {
  if ((token & migration_token) != 0) {
    if (m_planar) m_planar->migration_done(token, data, crossed);
    if (m_paged) m_paged->migration_done(token, data);
    return;  // two-level: a write-back, nothing waits for it
  }
  HeteroRequest& r = m_requests[static_cast<uint32_t>(token)];
  if (m_planar) {
    m_planar->request_done(r, data);
  } else if (m_two_level) {
    m_two_level->request_done(r, data, crossed);
  } else {
    m_paged->request_done(r, data);
  }
}

void HeteroMemoryManager::answer(HeteroRequest& r) {
  r.payload->set_response_status(tlm::TLM_OK_RESPONSE);
  m_responses.push_back(Response{r.payload, r.arrival_ps});
  m_respond.notify(sc_core::SC_ZERO_TIME);
}

void HeteroMemoryManager::retire(HeteroRequest& r) {
  m_active.erase(std::find(m_active.begin(), m_active.end(), &r));
  const uint64_t burst = r.address / 64;
  r.payload = nullptr;
  m_free.push_back(r.id);
  const auto next = std::find_if(m_burst_waiting.begin(), m_burst_waiting.end(),
                                 [&](const HeteroRequest* w) { return w->address / 64 == burst; });
  if (next != m_burst_waiting.end()) {
    HeteroRequest* w = *next;
    m_burst_waiting.erase(next);
    submit(*w);
  }
  if (m_pending != nullptr) m_respond.notify(sc_core::SC_ZERO_TIME);
}

void HeteroMemoryManager::respond() {
  const uint64_t now = kernel_now_ps();
  if (m_pending != nullptr && !m_free.empty()) {
    tlm::tlm_generic_payload& p = *m_pending;
    m_pending = nullptr;
    accept(p, m_pending_ps);
    tlm::tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    in->nb_transport_bw(p, phase, delay);
  }
  while (!m_waiting_end_resp && !m_responses.empty()) {
    const Response r = m_responses.front();
    m_responses.pop_front();
    (r.payload->is_read() ? m_stats->read_latency : m_stats->write_latency)
        .sample(now - r.arrival_ps);
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (in->nb_transport_bw(*r.payload, phase, delay) == tlm::TLM_ACCEPTED) {
      m_waiting_end_resp = true;
    }
    r.payload->release();
  }
}

void HeteroMemoryManager::dram_read(uint64_t address, uint32_t length, Traffic traffic,
                                    uint64_t token) {
  m_dram->read(address, length, traffic, token);
}

void HeteroMemoryManager::dram_write(uint64_t address, const uint8_t* data, const uint8_t* enable,
                                     uint32_t length, Traffic traffic, uint64_t token) {
  m_dram->write(address, data, enable, length, traffic, token);
}

void HeteroMemoryManager::xpoint_read(uint64_t address, uint32_t length, Traffic traffic,
                                      uint64_t token) {
  m_xpoint->read(address, length, traffic, token, traffic == Traffic::memory_route);
}

void HeteroMemoryManager::xpoint_write(uint64_t address, const uint8_t* data, uint32_t length,
                                       Traffic traffic, uint64_t token) {
  m_xpoint->write(address, data, length, traffic, token);
}

void HeteroMemoryManager::xpoint_snarfed_write(uint64_t address, const uint8_t* data,
                                               uint32_t length, uint64_t token) {
  m_xpoint->write(address, data, length, Traffic::migration, token, true);
}

void HeteroMemoryManager::dram_preset(uint64_t address, uint64_t token) {
  m_dram->preset(address, token);
}

void HeteroMemoryManager::dram_release(uint64_t address, uint64_t token) {
  m_dram->release(address, token);
}

void HeteroMemoryManager::control_message(const uint8_t* data, uint32_t bytes, uint64_t token) {
  const uint64_t now = kernel_now_ps();
  const uint64_t duration = (m_usage.burst_ps * bytes + 63) / 64;
  const uint64_t start = m_bus.earliest_free(now, duration);
  m_bus.occupy(start, start + duration, bytes);
  m_usage.bytes[static_cast<int>(Traffic::migration)]->inc(bytes);
  m_usage.time_ps[static_cast<int>(Traffic::migration)]->inc(duration);
  const uint64_t arrival = start + duration + m_bus.arrival_latency_ps();
  m_control_arrivals.emplace(
      arrival, ControlMessage{token, data ? std::vector<uint8_t>(data, data + bytes)
                                          : std::vector<uint8_t>{}});
  m_control_arrived.notify(kernel_delay_of_ps(m_control_arrivals.begin()->first - now));
}

void HeteroMemoryManager::deliver_control_messages() {
  const uint64_t now = kernel_now_ps();
  while (!m_control_arrivals.empty() && m_control_arrivals.begin()->first <= now) {
    const ControlMessage message = std::move(m_control_arrivals.begin()->second);
    m_control_arrivals.erase(m_control_arrivals.begin());
    back_end_done(message.token, message.bytes.empty() ? nullptr : message.bytes.data());
  }
  if (!m_control_arrivals.empty()) {
    m_control_arrived.notify(kernel_delay_of_ps(m_control_arrivals.begin()->first - now));
  }
}

void HeteroMemoryManager::host_transfer(bool to_device, uint32_t bytes, uint64_t not_before_ps,
                                        uint64_t token) {
  m_host->transfer(
      to_device ? PcieLink::Direction::host_to_device : PcieLink::Direction::device_to_host, bytes,
      not_before_ps, token);
}

void HeteroMemoryManager::migration_in_flight(uint32_t count) {
  if (count > m_stats->peak_migrations.value()) m_stats->peak_migrations.set(count);
  m_trace_migrations.set(count, kernel_now_ps());
}

unsigned int HeteroMemoryManager::transport_dbg(tlm::tlm_generic_payload& payload) {
  const uint64_t start = payload.get_address();
  const uint32_t length = payload.get_data_length();
  if (length == 0 || start >= m_layout.capacity_bytes || length > m_layout.capacity_bytes - start) {
    return 0;
  }
  // One 64-byte burst at a time: consecutive bursts may live in different devices.
  uint32_t done = 0;
  while (done < length) {
    const uint64_t address = start + done;
    const uint32_t piece =
        static_cast<uint32_t>(std::min<uint64_t>(length - done, 64 - address % 64));
    const unsigned int moved =
        debug_burst(payload.get_command(), address, payload.get_data_ptr() + done, piece);
    done += moved;
    if (moved < piece) break;
  }
  return done;
}

unsigned int HeteroMemoryManager::debug_burst(tlm::tlm_command command, uint64_t address,
                                              uint8_t* data, uint32_t length) {
  tlm::tlm_generic_payload p;
  p.set_command(command);
  p.set_data_ptr(data);
  p.set_data_length(length);
  p.set_streaming_width(length);
  if (m_paged) {
    uint64_t dram_address = 0;
    const bool in_dram = m_paged->locate(address, dram_address);
    if (command == tlm::TLM_READ_COMMAND) {
      if (!in_dram) m_paged->host().read(address, data, length);
    } else {
      // A write goes to host memory too, so a page in DRAM stays as clean or dirty as it was: a
      // clean page given up later is not written back, and host memory must hold its bytes.
      m_paged->host().write(address, data, length);
    }
    if (!in_dram) return length;
    p.set_address(dram_address);
    return m_dram->out->transport_dbg(p);
  }
  if (m_planar) {
    uint64_t device_address = 0;
    const bool in_dram = m_planar->locate(address, device_address);
    p.set_address(device_address);
    return in_dram ? m_dram->out->transport_dbg(p) : m_xpoint->out->transport_dbg(p);
  }
  const uint64_t line = address / 64;
  const DirectMapping& map = m_two_level->mapping();
  const DramCacheMetadata md = m_two_level->metadata().read(map.set_of(line));
  const bool cached = md.valid && md.tag == map.tag_of(line);
  const uint64_t dram_address = map.set_of(line) * 64 + address % 64;
  if (command == tlm::TLM_READ_COMMAND) {
    p.set_address(cached ? dram_address : address);
    return cached ? m_dram->out->transport_dbg(p) : m_xpoint->out->transport_dbg(p);
  }
  // A write goes to both copies, so the line stays as clean or dirty as it was.
  p.set_address(address);
  const unsigned int written = m_xpoint->out->transport_dbg(p);
  if (cached) {
    p.set_address(dram_address);
    m_dram->out->transport_dbg(p);
  }
  return written;
}

}  // namespace ohmvp
