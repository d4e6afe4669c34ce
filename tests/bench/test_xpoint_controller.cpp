// Exact DDR-T message instants and data of the XPoint controller, driven by a scripted DDR-T
// initiator. The configuration gives round numbers: a 1 ns controller clock, a 2-cycle clock
// crossing each way, a 1-cycle buffer access, 190 ns media reads and 763 ns media writes on 8
// partitions; with Start-Gap off, line L (256 bytes) is on partition L % 8.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <systemc>
#include <vector>

#include "modules/common/errors.h"
#include "modules/common/random.h"
#include "modules/common/stats.h"
#include "modules/common/vcd_writer.h"
#include "modules/xpoint/xpoint_controller.h"
#include "tests/bench/bench_clock.h"
#include "tests/bench/ddr_t_initiator.h"

namespace {

using namespace ohmvp;
using bench::DdrTInitiator;
using bench::now_ps;
using bench::ns;
using bench::run_to;

constexpr uint64_t line = 256;

XPointConfig timing_config() {
  XPointConfig c;
  c.capacity_kib = 1024;
  c.clock_ns = 1.0;
  c.crossing_cycles = 2;
  c.buffer_cycles = 1;
  c.partitions = 8;
  c.read_ns = 190.0;
  c.write_ns = 763.0;
  c.line_bytes = 256;
  c.start_gap.enabled = false;
  return c;
}

class Chain : public sc_core::sc_module {
 public:
  Chain(sc_core::sc_module_name name, const XPointConfig& config, StatsRegistry& stats,
        VcdWriter* vcd = nullptr)
      : sc_module(name),
        controller("xpc", config, stats, vcd),
        initiator("mc", config.write_credits),
        m_stats(stats) {
    initiator.out.bind(controller.in);
  }

  uint64_t counter(const char* stat) const {
    const Counter* c = m_stats.find_counter(controller.name(), stat);
    REQUIRE(c != nullptr);
    return c->value();
  }
  double scalar(const char* stat) const {
    const Scalar* s = m_stats.find_scalar(controller.name(), stat);
    REQUIRE(s != nullptr);
    return s->value();
  }

  XPointController controller;
  DdrTInitiator initiator;

 private:
  StatsRegistry& m_stats;
};

XPointConfig with(XPointConfig c, uint32_t read_entries, uint32_t write_entries, uint32_t credits) {
  c.read_buffer_entries = read_entries;
  c.write_buffer_entries = write_entries;
  c.write_credits = credits;
  return c;
}

XPointConfig wear_levelled() {
  XPointConfig c = timing_config();
  c.start_gap.enabled = true;
  c.start_gap.psi = 1;  // the gap moves on every media write
  c.start_gap.region_lines = 16;
  c.start_gap.randomise = true;
  c.start_gap.seed = 5;
  return c;
}

XPointConfig one_partition_levelled() {
  XPointConfig c = wear_levelled();
  c.partitions = 1;
  return c;
}

// SystemC elaborates once per process: every chain is built before the first sc_start.
struct Bench {
  StatsRegistry stats;
  std::filesystem::path vcd_path = std::filesystem::temp_directory_path() /
                                   ("xpoint_bench_" + std::to_string(::getpid()) + ".vcd");
  VcdWriter vcd{vcd_path};
  Chain order{"order", timing_config(), stats};
  Chain persist{"persist", timing_config(), stats};
  Chain late_data{"late_data", timing_config(), stats};
  Chain backpressure{"backpressure", with(timing_config(), 2, 64, 16), stats};
  Chain credits{"credits", with(timing_config(), 32, 1, 2), stats};
  Chain gaps{"gaps", wear_levelled(), stats};
  Chain traced{"traced", timing_config(), stats, &vcd};
  Chain joins{"joins", timing_config(), stats};
  Chain one_partition{"one_partition", one_partition_levelled(), stats};
  ~Bench() { std::filesystem::remove(vcd_path); }
};

Bench& the_bench() {
  return bench::instance<Bench>();
}

// A fresh origin on a controller clock edge, a little after the present.
uint64_t origin() {
  return bench::origin_of<Bench>();
}

std::vector<uint8_t> pattern(uint8_t seed, size_t length) {
  std::vector<uint8_t> data(length);
  for (size_t i = 0; i < length; ++i) data[i] = static_cast<uint8_t>(seed + 7 * i);
  return data;
}

}  // namespace

TEST_CASE("xpoint controller: reads complete out of order, by tag", "[xpoint]") {
  Chain& c = the_bench().order;
  const uint64_t t0 = origin();
  const size_t a = c.initiator.read(t0, 1, 0 * line);            // partition 0
  const size_t b = c.initiator.read(t0, 2, 8 * line);            // partition 0, behind a
  const size_t d = c.initiator.read(t0 + 10 * ns, 3, 1 * line);  // partition 1, free
  run_to(t0 + 1000 * ns);

  // In: edge + 2 crossing; media read 190; out: 2 crossing. b waits for a's partition.
  CHECK(c.initiator.log(t0) == "RSP_READY 1@194 RSP_READY 3@204 RSP_READY 2@384");
  CHECK(*c.initiator.request(a).end_req_ps == t0);
  CHECK(*c.initiator.request(b).pulled_ps == t0 + 384 * ns);
  CHECK(*c.initiator.request(d).pulled_ps == t0 + 204 * ns);
  CHECK(c.initiator.request(d).status == tlm::TLM_OK_RESPONSE);
  CHECK(c.controller.idle());
  CHECK(c.counter("reads") == 3);
  CHECK(c.counter("media_reads") == 3);
  CHECK(c.counter("media_busy_ps") == 3 * 190 * ns);
  c.controller.finish_stats();
  CHECK(c.scalar("media_utilisation") ==
        Approx(3.0 * 190 * ns / (8.0 * static_cast<double>(now_ps()))));

  // Idle, the controller's process does not run at all.
  const uint64_t activations = c.controller.activations();
  run_to(now_ps() + 1'000'000 * ns);
  CHECK(c.controller.activations() == activations);
}

TEST_CASE("xpoint controller: a write is acknowledged once in the persistent buffer", "[xpoint]") {
  Chain& c = the_bench().persist;
  const uint64_t t0 = origin();
  const std::vector<uint8_t> data = pattern(3, 64);
  c.initiator.write(t0, 1, 64, data);
  const size_t from_buffer = c.initiator.read(t0 + 10 * ns, 2, 64);
  const size_t from_media = c.initiator.read(t0 + 2000 * ns, 3, 64);
  run_to(t0 + 3000 * ns);

  // WR_DONE: 2 crossing + 1 buffer + 2 crossing, long before the media write. The read 10 ns
  // later is answered from the buffer (in 2 + 1 + 2), the one after the drain from the media.
  CHECK(c.initiator.log(t0) == "WR_DONE 1@5 RSP_READY 2@15 RSP_READY 3@2194");
  CHECK(c.initiator.request(from_buffer).data == data);
  CHECK(c.initiator.request(from_media).data == data);
  CHECK(c.counter("buffer_read_hits") == 1);
  // 64 of 256 bytes: the drain read-modify-writes the line (190 + 763 ns).
  CHECK(c.counter("rmw_writes") == 1);
  CHECK(c.counter("media_writes") == 1);
  CHECK(c.counter("media_busy_ps") == (190 + 763 + 190) * ns);  // the drain and the media read
  c.controller.finish_stats();
  CHECK(c.scalar("write_amplification") == 4.0);
}

TEST_CASE("xpoint controller: a write whose data crosses after its REQ is taken in then",
          "[xpoint]") {
  Chain& c = the_bench().late_data;
  const uint64_t t0 = origin();
  // The data's last byte arrives 5.5 ns after the REQ: the write enters the controller's domain
  // at the edge after it (6) plus 2 crossing, then 1 buffer + 2 crossing.
  c.initiator.write(t0, 1, 64, pattern(4, 64), t0 + 5500);
  c.initiator.write(t0 + 100 * ns, 2, 128, pattern(5, 64));  // data with the REQ, as before
  run_to(t0 + 3000 * ns);

  CHECK(c.initiator.log(t0) == "WR_DONE 1@11 WR_DONE 2@105");
}

TEST_CASE("xpoint controller: writes covering a whole line merge and need no read", "[xpoint]") {
  Chain& c = the_bench().persist;
  const uint64_t t0 = origin();
  for (uint16_t i = 0; i < 4; ++i) c.initiator.write(t0, 10 + i, 4 * line + 64 * i, pattern(i, 64));
  const size_t back = c.initiator.read(t0 + 1000 * ns, 20, 4 * line, 256);
  run_to(t0 + 2000 * ns);

  CHECK(c.initiator.log(t0) ==
        "WR_DONE 10@5 WR_DONE 11@5 WR_DONE 12@5 WR_DONE 13@5 RSP_READY 20@1194");
  std::vector<uint8_t> expected;
  for (uint8_t i = 0; i < 4; ++i) {
    const auto part = pattern(i, 64);
    expected.insert(expected.end(), part.begin(), part.end());
  }
  CHECK(c.initiator.request(back).data == expected);
  CHECK(c.counter("merged_writes") == 3);
  CHECK(c.counter("rmw_writes") == 1);  // still only the earlier one
  CHECK(c.counter("media_writes") == 2);
  c.controller.finish_stats();
  CHECK(c.scalar("write_amplification") == Approx(512.0 / 320.0));
}

TEST_CASE("xpoint controller: ECC corrects a flipped bit and reports two", "[xpoint]") {
  Chain& c = the_bench().persist;
  const uint64_t t0 = origin();
  const std::vector<uint8_t> data = pattern(9, 64);
  c.initiator.write(t0, 30, 8 * line, data);
  run_to(t0 + 2000 * ns);
  c.controller.inject_bit_flip(8 * line + 5, 1);
  const uint64_t t1 = origin();
  const size_t once = c.initiator.read(t1, 31, 8 * line);
  run_to(t1 + 500 * ns);
  CHECK(c.initiator.request(once).data == data);
  CHECK(c.initiator.request(once).status == tlm::TLM_OK_RESPONSE);
  CHECK(c.counter("ecc_corrected") == 1);

  c.controller.inject_bit_flip(8 * line + 40, 6);  // a second bit in the same 64 bytes
  const uint64_t t2 = origin();
  const size_t twice = c.initiator.read(t2, 32, 8 * line);
  run_to(t2 + 500 * ns);
  CHECK(c.initiator.request(twice).status == tlm::TLM_GENERIC_ERROR_RESPONSE);
  CHECK(c.counter("ecc_uncorrectable") == 1);
  // Other 64 bytes of the line read well: only the chunks a read asks for decide its answer.
  const uint64_t t2b = origin();
  const size_t beside = c.initiator.read(t2b, 37, 8 * line + 64);
  run_to(t2b + 500 * ns);
  CHECK(c.initiator.request(beside).status == tlm::TLM_OK_RESPONSE);
  CHECK(c.initiator.request(beside).data == std::vector<uint8_t>(64, 0));
  CHECK(c.counter("ecc_uncorrectable") == 2);  // the line's read met the bad chunk again

  // A write of other bytes of the line is merged into it (read, merge, write back): the bad 64
  // bytes stay bad, and are not stored as good data under a fresh code word.
  const uint64_t t3 = origin();
  c.initiator.write(t3, 33, 8 * line + 128, pattern(3, 64));
  run_to(t3 + 2000 * ns);
  const size_t still = c.initiator.read(origin(), 34, 8 * line);
  run_to(now_ps() + 500 * ns);
  CHECK(c.initiator.request(still).status == tlm::TLM_GENERIC_ERROR_RESPONSE);
  CHECK(c.counter("ecc_uncorrectable") == 4);  // the merge's read and this one

  // A write of the bad 64 bytes whole makes them good again.
  const uint64_t t4 = origin();
  c.initiator.write(t4, 35, 8 * line, pattern(4, 64));
  run_to(t4 + 2000 * ns);
  const size_t mended = c.initiator.read(origin(), 36, 8 * line);
  run_to(now_ps() + 500 * ns);
  CHECK(c.initiator.request(mended).status == tlm::TLM_OK_RESPONSE);
  CHECK(c.initiator.request(mended).data == pattern(4, 64));
  CHECK(c.counter("ecc_uncorrectable") == 5);  // the second merge's read
}

TEST_CASE("xpoint controller: a gap move within one partition counts its time once", "[xpoint]") {
  Chain& c = the_bench().one_partition;
  const uint64_t t0 = origin();
  c.initiator.write(t0, 1, 0, pattern(5, 256));
  run_to(t0 + 5000 * ns);
  REQUIRE(c.counter("gap_moves") == 1);
  // The drain's write, then the move's read and write of the same partition.
  CHECK(c.counter("media_busy_ps") == (763 + 190 + 763) * ns);
}

TEST_CASE("xpoint controller: a full read buffer holds END_REQ back", "[xpoint]") {
  Chain& c = the_bench().backpressure;  // two read buffer entries
  const uint64_t t0 = origin();
  c.initiator.read(t0, 1, 0 * line);
  c.initiator.read(t0, 2, 1 * line);
  const size_t third = c.initiator.read(t0, 3, 2 * line);
  run_to(t0 + 1000 * ns);

  // The third read is accepted when the first SEND frees an entry; it then crosses in (next
  // edge + 2) and reads its own partition.
  CHECK(c.initiator.log(t0) == "RSP_READY 1@194 RSP_READY 2@194 END_REQ 3@194 RSP_READY 3@388");
  CHECK(*c.initiator.request(third).sent_ps == t0);
  CHECK(*c.initiator.request(third).end_req_ps == t0 + 194 * ns);
  CHECK(c.counter("read_backpressure") == 1);
  CHECK(c.controller.idle());
}

TEST_CASE("xpoint controller: write credits and a full persistent buffer", "[xpoint]") {
  Chain& c = the_bench().credits;  // 2 credits, 1 buffer entry
  const uint64_t t0 = origin();
  c.initiator.write(t0, 1, 0 * line, pattern(1, 256));
  c.initiator.write(t0, 2, 1 * line, pattern(2, 256));
  const size_t third = c.initiator.write(t0, 3, 2 * line, pattern(3, 256));
  run_to(t0 + 3000 * ns);

  // Write 2 waits for write 1's media write (763 ns) to free the entry; write 3 waits for a
  // credit (write 1's WR_DONE), then for write 2's media write.
  CHECK(c.initiator.log(t0) == "WR_DONE 1@5 WR_DONE 2@768 WR_DONE 3@1531");
  CHECK(*c.initiator.request(third).sent_ps == t0 + 5 * ns);
  CHECK(c.counter("write_buffer_full") == 2);
  CHECK(c.initiator.credits() == 2);
  CHECK(c.controller.idle());
}

TEST_CASE("xpoint controller: DDR-T protocol violations are simulation errors", "[xpoint]") {
  Chain& c = the_bench().credits;
  origin();
  std::vector<tlm::tlm_generic_payload> payloads(4);
  std::vector<DdrTExtension> extensions(4);
  std::vector<uint8_t> data(64, 0x5a);
  auto send = [&](size_t i, DdrTCommand command, uint16_t tag) {
    extensions[i].command = command;
    extensions[i].tag = tag;
    extensions[i].address = 16 * line;
    payloads[i].set_extension(&extensions[i]);
    payloads[i].set_data_ptr(data.data());
    payloads[i].set_data_length(64);
    tlm::tlm_phase phase = ddr_t::REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    return c.controller.nb_transport_fw(payloads[i], phase, delay);
  };
  CHECK(send(0, DdrTCommand::write, 200) == tlm::TLM_UPDATED);
  CHECK_THROWS_AS(send(1, DdrTCommand::read, 200), SimulationError);  // tag still live
  CHECK(send(1, DdrTCommand::write, 201) == tlm::TLM_UPDATED);
  CHECK_THROWS_AS(send(2, DdrTCommand::write, 202), SimulationError);  // no credit left
  CHECK(send(3, DdrTCommand::swap, 203) == tlm::TLM_COMPLETED);
  CHECK(payloads[3].get_response_status() == tlm::TLM_COMMAND_ERROR_RESPONSE);

  tlm::tlm_phase phase = ddr_t::SEND;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  extensions[2].tag = 77;
  payloads[2].set_extension(&extensions[2]);
  CHECK_THROWS_AS(c.controller.nb_transport_fw(payloads[2], phase, delay), SimulationError);
  run_to(now_ps() + 3000 * ns);
  CHECK(c.controller.idle());
  for (size_t i = 0; i < 4; ++i) payloads[i].clear_extension(&extensions[i]);
}

TEST_CASE("xpoint controller: data survives Start-Gap moves and RMW", "[xpoint]") {
  Chain& c = the_bench().gaps;
  const uint64_t lines = 48;
  std::vector<std::vector<uint8_t>> shadow(lines, std::vector<uint8_t>(line, 0));
  Rng rng(11);
  uint16_t tag = 0;
  std::vector<std::pair<size_t, uint64_t>> checks;
  for (int round = 0; round < 6; ++round) {
    const uint64_t t0 = origin();
    for (int w = 0; w < 60; ++w) {
      const uint64_t l = rng.below(lines);
      const bool full = rng.below(4) == 0;
      const uint32_t size = full ? 256 : 64;
      const uint32_t offset = full ? 0 : static_cast<uint32_t>(rng.below(4)) * 64;
      std::vector<uint8_t> data(size);
      for (auto& b : data) b = static_cast<uint8_t>(rng.next());
      std::copy(data.begin(), data.end(), shadow[l].begin() + offset);
      c.initiator.write(t0, tag++, l * line + offset, std::move(data));
    }
    // Reads go out once every write of the round is persistent; some hit the buffer, some the
    // media while gap moves run.
    const uint64_t t1 = t0 + 20'000 * ns;
    for (uint64_t l = 0; l < lines; ++l) {
      checks.emplace_back(c.initiator.read(t1, tag++, l * line, 256), l);
    }
    run_to(t1 + 40'000 * ns);
    REQUIRE(c.initiator.all_done());
    for (const auto& [id, l] : checks) {
      INFO("round " << round << " line " << l);
      REQUIRE(c.initiator.request(id).data == shadow[l]);
    }
    checks.clear();
  }
  const uint64_t moves = c.controller.wear_leveller().moves();
  CHECK(moves == c.counter("media_writes"));  // psi 1
  CHECK(c.counter("gap_moves") == moves);
  CHECK(moves > 200);
  CHECK(c.counter("ecc_corrected") == 0);
  CHECK(c.controller.idle());
}

TEST_CASE("xpoint controller: VCD shows outstanding requests and buffer occupancy", "[xpoint]") {
  Bench& bench = the_bench();
  Chain& c = bench.traced;
  const uint64_t t0 = origin();
  c.initiator.write(t0, 1, 0, pattern(1, 64));
  c.initiator.read(t0, 2, 3 * line);
  run_to(t0 + 2000 * ns);
  bench.vcd.close(now_ps());
  std::ifstream file(bench.vcd_path);
  std::stringstream text;
  text << file.rdbuf();
  const std::string vcd = text.str();
  CHECK(vcd.find("ddr_t_outstanding") != std::string::npos);
  CHECK(vcd.find("write_buffer_occupancy") != std::string::npos);
  CHECK(vcd.find("read_buffer_occupancy") != std::string::npos);
  // Two requests outstanding at t0, then back to none.
  CHECK(vcd.find("#" + std::to_string(t0) + "\n") != std::string::npos);
  CHECK(vcd.find("b10 ") != std::string::npos);
}

TEST_CASE("xpoint controller: reads of a line being read share its media read", "[xpoint]") {
  Chain& c = the_bench().joins;
  const uint64_t t0 = origin();
  // The line's bursts as a swap asks for them, 2 ns apart: one media read answers all four.
  for (uint64_t b = 0; b < 4; ++b) {
    c.initiator.read(t0 + 2 * b * ns, static_cast<uint16_t>(1 + b), b * 64);
  }
  run_to(t0 + 1000 * ns);
  CHECK(c.initiator.log(t0) == "RSP_READY 1@194 RSP_READY 2@194 RSP_READY 3@194 RSP_READY 4@194");
  CHECK(c.counter("media_reads") == 1);
  CHECK(c.counter("joined_reads") == 3);

  // A write to a line being read: later reads of it do not share the read that started before
  // the write. The written burst comes from the buffer, the other waits for the partition.
  const uint64_t t1 = origin();
  const std::vector<uint8_t> data = pattern(9, 64);
  c.initiator.read(t1, 5, 8 * line);
  c.initiator.write(t1 + 5 * ns, 6, 8 * line + 64, data);
  const size_t written = c.initiator.read(t1 + 10 * ns, 7, 8 * line + 64);
  c.initiator.read(t1 + 20 * ns, 8, 8 * line + 128);
  run_to(t1 + 1000 * ns);
  CHECK(c.initiator.log(t1) == "WR_DONE 6@10 RSP_READY 7@15 RSP_READY 5@194 RSP_READY 8@384");
  CHECK(c.initiator.request(written).data == data);
  CHECK(c.counter("media_reads") == 4);  // with the drain's read-modify-write of the line
  CHECK(c.counter("joined_reads") == 3);
}
