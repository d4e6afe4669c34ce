#pragma once

// Time and stimulus helpers the memory benches share. A bench builds its modules once, the first
// time a test case asks for them, and the kernel then runs forward test case by test case.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "tests/bench/checking_initiator.h"
#include "tests/bench/stimulus_initiator.h"

namespace ohmvp::bench {

constexpr uint64_t ns = 1000;  // ps

inline uint64_t now_ps() {
  return sc_core::sc_time_stamp().value();
}

// A fresh origin for a test case's stimulus: the next whole nanosecond at least 10 ns ahead.
inline uint64_t next_origin_ps() {
  return (now_ps() / ns + 10) * ns;
}

// A bench's modules, elaborated on first use: SystemC elaborates once per process, so every test
// case of the executable shares them.
template <class Bench>
Bench& instance() {
  static Bench bench;
  return bench;
}

// A fresh origin for a test case of `Bench`, once it is elaborated.
template <class Bench>
uint64_t origin_of() {
  instance<Bench>();
  return next_origin_ps();
}

inline void run_to(uint64_t time_ps) {
  REQUIRE(time_ps > now_ps());
  sc_core::sc_start(sc_core::sc_time::from_value(time_ps - now_ps()));
}

// Distinct bytes for each seed.
inline std::vector<uint8_t> pattern(uint8_t seed, size_t n) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(seed * 31 + i * 7);
  return bytes;
}

// When request `id` was answered, in ns after `t0`; it must have been answered, successfully.
inline uint64_t response_ns(const StimulusInitiator& s, size_t id, uint64_t t0) {
  const auto& r = s.request(id);
  REQUIRE(r.response_ps.has_value());
  REQUIRE(r.status == tlm::TLM_OK_RESPONSE);
  return (*r.response_ps - t0) / ns;
}

// Reads, or with `write` writes, 64 bytes at `address` through `target`'s debug interface.
template <class Target>
std::vector<uint8_t> debug(Target& target, uint64_t address,
                           const std::vector<uint8_t>* write = nullptr) {
  std::vector<uint8_t> bytes = write ? *write : std::vector<uint8_t>(64, 0);
  tlm::tlm_generic_payload p;
  p.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p.set_address(address);
  p.set_data_ptr(bytes.data());
  p.set_data_length(64);
  p.set_streaming_width(64);
  REQUIRE(target.transport_dbg(p) == 64);
  return bytes;
}

// Runs until `traffic` has had all its answers and `idle()` holds, for at most one simulated
// second more; returns what the traffic reported (mismatches, errors), one line each.
template <class Idle>
std::string run_traffic(const CheckingInitiator& traffic, Idle idle) {
  const sc_core::sc_time limit = sc_core::sc_time_stamp() + sc_core::sc_time(1, sc_core::SC_SEC);
  while (!(traffic.done() && idle()) && sc_core::sc_time_stamp() < limit) {
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
  }
  std::string reports;
  for (const std::string& report : traffic.reports()) reports += report + '\n';
  return reports;
}

}  // namespace ohmvp::bench
