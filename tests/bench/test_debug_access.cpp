#include <catch2/catch.hpp>
#include <systemc>
#include <tlm>
#include <vector>

#include "modules/common/stats.h"
#include "platforms/memory_system.h"

using namespace ohmvp;

namespace {

// An initiator that only makes loosely-timed and debug calls.
struct DebugInitiator : sc_core::sc_module, tlm::tlm_bw_transport_if<> {
  tlm::tlm_initiator_socket<> out{"out"};
  explicit DebugInitiator(sc_core::sc_module_name name) : sc_module(name) { out.bind(*this); }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                     sc_core::sc_time&) override {
    return tlm::TLM_COMPLETED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

  tlm::tlm_response_status access(tlm::tlm_command command, uint64_t address,
                                  std::vector<uint8_t>& data,
                                  const std::vector<uint8_t>& enables = {},
                                  sc_core::sc_time* delay = nullptr) {
    tlm::tlm_generic_payload p;
    p.set_command(command);
    p.set_address(address);
    p.set_data_ptr(data.data());
    p.set_data_length(uint32_t(data.size()));
    p.set_streaming_width(uint32_t(data.size()));
    p.set_byte_enable_ptr(enables.empty() ? nullptr : const_cast<uint8_t*>(enables.data()));
    p.set_byte_enable_length(uint32_t(enables.size()));
    if (delay == nullptr) {
      const unsigned moved = out->transport_dbg(p);
      return moved == data.size() ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE;
    }
    out->b_transport(p, *delay);
    return p.get_response_status();
  }
};

MemorySystemConfig two_channels() {
  MemorySystemConfig config;
  config.channels = 2;
  return config;
}

// Built on first use, inside sc_main (after the time resolution is set), and elaborated once.
struct Bench {
  StatsRegistry stats;
  MemorySystem memory{"memory", two_channels(), stats, nullptr};
  DebugInitiator initiator{"initiator"};
  Bench() {
    memory.bind(initiator.out);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
};

Bench& bench() {
  static Bench instance;
  return instance;
}

std::vector<uint8_t> pattern(size_t length, uint8_t seed) {
  std::vector<uint8_t> data(length);
  for (size_t i = 0; i < length; ++i) data[i] = uint8_t(seed + 7 * i);
  return data;
}

}  // namespace

TEST_CASE("debug access: data spans bursts and channels, byte enables are honoured") {
  DebugInitiator& initiator = bench().initiator;
  const uint64_t base = 1000;  // not burst-aligned; 600 bytes cross three interleave blocks
  std::vector<uint8_t> written = pattern(600, 3);
  REQUIRE(initiator.access(tlm::TLM_WRITE_COMMAND, base, written) == tlm::TLM_OK_RESPONSE);

  // Every third byte enabled, as a pattern shorter than the data.
  std::vector<uint8_t> masked = pattern(600, 101);
  const std::vector<uint8_t> enables = {0xff, 0x00, 0x00};
  REQUIRE(initiator.access(tlm::TLM_WRITE_COMMAND, base, masked, enables) == tlm::TLM_OK_RESPONSE);

  std::vector<uint8_t> read(600, 0);
  REQUIRE(initiator.access(tlm::TLM_READ_COMMAND, base, read) == tlm::TLM_OK_RESPONSE);
  for (size_t i = 0; i < read.size(); ++i) {
    INFO("byte " << i);
    CHECK(read[i] == (i % 3 == 0 ? masked[i] : written[i]));
  }
}

TEST_CASE("debug access: b_transport moves the data and annotates a closed-bank access") {
  DebugInitiator& initiator = bench().initiator;
  const MemorySystem& memory = bench().memory;
  std::vector<uint8_t> data = pattern(64, 42);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  REQUIRE(initiator.access(tlm::TLM_WRITE_COMMAND, 1 << 20, data, {}, &delay) ==
          tlm::TLM_OK_RESPONSE);
  // tRCD + tCL + burst of the default DDR4-2400 timing: 16 + 16 + 4 cycles of 833 ps.
  CHECK(delay == sc_core::sc_time::from_value(36 * 833));
  std::vector<uint8_t> back(64, 0);
  delay = sc_core::SC_ZERO_TIME;
  REQUIRE(initiator.access(tlm::TLM_READ_COMMAND, 1 << 20, back, {}, &delay) ==
          tlm::TLM_OK_RESPONSE);
  CHECK(back == data);

  std::vector<uint8_t> nothing(8, 0);
  delay = sc_core::SC_ZERO_TIME;
  CHECK(initiator.access(tlm::TLM_IGNORE_COMMAND, 0, nothing, {}, &delay) ==
        tlm::TLM_COMMAND_ERROR_RESPONSE);
  // A debug access that ignores its bytes moves none (the initiator maps 0 to an error).
  CHECK(initiator.access(tlm::TLM_IGNORE_COMMAND, 0, nothing) == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  CHECK(initiator.access(tlm::TLM_READ_COMMAND, memory.capacity_bytes(), nothing, {}, &delay) ==
        tlm::TLM_ADDRESS_ERROR_RESPONSE);
}
