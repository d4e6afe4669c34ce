// The memory path's modules against base-protocol models that use what TLM-2.0 allows and the
// project's own models do not: an initiator that holds one response open and reuses a payload
// as soon as it releases it, and targets that answer BEGIN_REQ with TLM_UPDATED and BEGIN_RESP.
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <catch2/catch.hpp>
#include <deque>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/common/stats.h"
#include "modules/host/traffic_initiator.h"
#include "modules/interconnect/channel_interleaver.h"
#include "modules/memory/channel_usage.h"
#include "modules/memory/dram_port.h"

using namespace ohmvp;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

// Pooled payloads whose last release scrambles the address, so that a use after it shows.
struct ScramblingPool : tlm::tlm_mm_interface {
  std::vector<tlm::tlm_generic_payload*> free_list;
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> owned;
  tlm::tlm_generic_payload* get() {
    if (free_list.empty()) {
      owned.push_back(std::make_unique<tlm::tlm_generic_payload>(this));
      free_list.push_back(owned.back().get());
    }
    tlm::tlm_generic_payload* p = free_list.back();
    free_list.pop_back();
    p->acquire();
    return p;
  }
  void free(tlm::tlm_generic_payload* p) override {
    p->set_address(0xdead0000);
    free_list.push_back(p);
  }
};

// END_REQ at once and BEGIN_RESP `latency` later, one response open at a time; or, with
// `at_once`, TLM_UPDATED with BEGIN_RESP from BEGIN_REQ. Counts the END_RESPs it gets.
struct Target : sc_core::sc_module {
  tlm_utils::simple_target_socket<Target> socket{"socket"};
  sc_time latency;
  bool at_once;
  std::deque<std::pair<sc_time, tlm::tlm_generic_payload*>> due;
  tlm::tlm_generic_payload* open = nullptr;
  std::vector<uint64_t> addresses;  // of the BEGIN_REQs, as the target saw them
  int end_resps = 0;
  std::vector<tlm::tlm_phase> returned;  // the phases its BEGIN_RESPs came back with
  sc_core::sc_event wake;
  SC_HAS_PROCESS(Target);
  Target(sc_core::sc_module_name name, sc_time latency_, bool at_once_)
      : sc_module(name), latency(latency_), at_once(at_once_) {
    socket.register_nb_transport_fw(this, &Target::fw);
    SC_METHOD(respond);
    sensitive << wake;
    dont_initialize();
  }
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_time&) {
    if (phase == tlm::END_RESP) {
      ++end_resps;
      open = nullptr;
      wake.notify(sc_core::SC_ZERO_TIME);
      return tlm::TLM_COMPLETED;
    }
    addresses.push_back(p.get_address());
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    if (at_once) {
      phase = tlm::BEGIN_RESP;
      return tlm::TLM_UPDATED;
    }
    due.emplace_back(sc_core::sc_time_stamp() + latency, &p);
    wake.notify(latency);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  void respond() {
    while (open == nullptr && !due.empty() && due.front().first <= sc_core::sc_time_stamp()) {
      tlm::tlm_generic_payload* p = due.front().second;
      due.pop_front();
      tlm::tlm_phase phase = tlm::BEGIN_RESP;
      sc_time delay = sc_core::SC_ZERO_TIME;
      const tlm::tlm_sync_enum status = socket->nb_transport_bw(*p, phase, delay);
      returned.push_back(status == tlm::TLM_ACCEPTED ? tlm::BEGIN_RESP : phase);
      if (status == tlm::TLM_ACCEPTED) open = p;
    }
    if (open == nullptr && !due.empty()) wake.notify(due.front().first - sc_core::sc_time_stamp());
  }
};

// Reads global 0x000 (channel 0) at 0 and 0x100 (channel 1) at 1 ns; keeps the first response
// open until 50 ns; completes the second at once, releasing it, and sends a read of 0x300 in
// the same call, which gets the payload just released.
struct HoldingInitiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<HoldingInitiator> socket{"socket"};
  ScramblingPool pool;
  uint8_t buffers[3][64] = {};
  tlm::tlm_generic_payload* first = nullptr;
  std::vector<uint64_t> response_addresses;
  SC_HAS_PROCESS(HoldingInitiator);
  explicit HoldingInitiator(sc_core::sc_module_name name) : sc_module(name) {
    socket.register_nb_transport_bw(this, &HoldingInitiator::bw);
    SC_THREAD(run);
  }
  void read(uint64_t address, int buffer) {
    tlm::tlm_generic_payload* p = pool.get();
    p->set_command(tlm::TLM_READ_COMMAND);
    p->set_address(address);
    p->set_data_ptr(buffers[buffer]);
    p->set_data_length(64);
    p->set_streaming_width(64);
    p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->nb_transport_fw(*p, phase, delay);
  }
  void run() {
    read(0x000, 0);
    wait(1, SC_NS);
    read(0x100, 1);
    wait(49, SC_NS);
    tlm::tlm_phase phase = tlm::END_RESP;
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->nb_transport_fw(*first, phase, delay);
    first->release();
  }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_time&) {
    if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
    response_addresses.push_back(p.get_address());
    if (response_addresses.size() == 1) {
      first = &p;
      return tlm::TLM_ACCEPTED;
    }
    p.release();
    if (response_addresses.size() == 2) {
      read(0x300, 2);
      return tlm::TLM_COMPLETED;
    }
    phase = tlm::END_RESP;
    return tlm::TLM_UPDATED;
  }
};

struct TwoReads : RequestSource {
  int sent = 0;
  bool next(MemoryRequest& request) override {
    if (sent == 2) return false;
    request = MemoryRequest{};
    request.address = 64 * uint64_t(sent++);
    return true;
  }
  uint64_t total() const override { return 2; }
};

// Built on first use, inside sc_main, and elaborated once.
struct Bench {
  StatsRegistry stats;
  ChannelInterleaver interleaver{"interleaver", 2, 256};
  Target channel0{"channel0", sc_time(10, SC_NS), false};
  Target channel1{"channel1", sc_time(19, SC_NS), false};
  HoldingInitiator holding{"holding"};
  ChannelUsage usage{stats, "usage", 1000};
  int port_reads = 0;
  DramPort port{"port", 2, usage, [this](uint64_t, const uint8_t*, bool) { ++port_reads; }};
  Target port_target{"port_target", sc_time(5, SC_NS), true};
  TwoReads source;
  TrafficInitiator traffic{"traffic", source, 4, 1, stats, nullptr};
  Target traffic_target{"traffic_target", sc_time(5, SC_NS), true};
  Bench() {
    holding.socket.bind(interleaver.in);
    interleaver.out[0]->bind(channel0.socket);
    interleaver.out[1]->bind(channel1.socket);
    port.out.bind(port_target.socket);
    traffic.out.bind(traffic_target.socket);
    sc_core::sc_start(100, SC_NS);
  }
};

Bench& the_bench() {
  static Bench bench;
  return bench;
}

}  // namespace

TEST_CASE("base protocol: a response held back by the interleaver keeps its payload") {
  Bench& b = the_bench();
  // Channel 1's response (19 ns after 1 ns) waited for the first to end at 50 ns; the read the
  // initiator sent from it got the same object back and its own address, global and local.
  REQUIRE(b.holding.response_addresses.size() == 3);
  CHECK(b.holding.response_addresses == std::vector<uint64_t>{0x000, 0x100, 0x300});
  CHECK(b.channel1.addresses == std::vector<uint64_t>{0x000, 0x100});
  // The held response was accepted and ended later by the interleaver's END_RESP; the one
  // passed on at once came back to the channel with the initiator's own TLM_UPDATED END_RESP.
  CHECK(b.channel1.returned == std::vector<tlm::tlm_phase>{tlm::BEGIN_RESP, tlm::END_RESP});
  CHECK(b.channel1.end_resps == 1);
}

TEST_CASE("base protocol: a read answered with TLM_UPDATED and BEGIN_RESP gets its END_RESP") {
  Bench& b = the_bench();
  b.port.read(0, 64, Traffic::regular, 1);
  sc_core::sc_start(10, SC_NS);
  CHECK(b.port_reads == 1);
  CHECK(b.port_target.end_resps == 1);
  CHECK(b.traffic.completed() == 2);
  CHECK(b.traffic_target.end_resps == 2);
}
