// The Ohm-base platforms through the command line: bad optical channel config exits 2 naming the
// JSON path; a run reports the optical summary keys and is deterministic, VCD included.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "cli_runner.h"

using Catch::Contains;

TEST_CASE("cli: a bad optical channel config gives exit code 2 and names the JSON path") {
  const CliResult channels = run_ohmvp("run -q --platform ohm_base_planar --set memory.channels=4");
  INFO(channels.output);
  CHECK(channels.exit_code == 2);
  CHECK_THAT(channels.output,
             Contains("memory.optical.virtual_channels") && Contains("one per memory controller"));
  const CliResult width =
      run_ohmvp("run -q --platform ohm_base_two_level --set memory.optical.rate_gbps=0");
  INFO(width.output);
  CHECK(width.exit_code == 2);
  CHECK_THAT(width.output, Contains("memory.optical.rate_gbps"));
}

TEST_CASE("cli: an ohm_base run reports laser, MRRs, BER and energy; same run, same report") {
  const std::string dir = scratch_dir("ohm_base");
  const std::string args = std::string("run -q --platform ohm_base_planar --workload vecadd") +
                           k_swap_streamed_pages + "--vcd ";
  const CliResult first = run_ohmvp(args + dir + "/a.vcd --out " + dir + "/a");
  INFO(first.output);
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.output, Contains("laser") && Contains("BER (worst route)"));
  CHECK_THAT(first.output, !Contains("warning"));  // the default laser meets the budget
  const CliResult dim = run_ohmvp(
      "run -q --platform ohm_base_planar --workload vecadd --set "
      "memory.optical.laser.power_scale=0.01 --out " +
      dir + "/dim");
  CHECK(dim.exit_code == 0);
  CHECK_THAT(dim.output, Contains("ohmvp: warning: the optical links' worst BER is") &&
                             Contains("above the target 1e-15"));
  const CliResult second = run_ohmvp(args + dir + "/b.vcd --out " + dir + "/b");
  REQUIRE(second.exit_code == 0);
  const std::string report = read_text(dir + "/a/report.json");
  CHECK(report == read_text(dir + "/b/report.json"));
  CHECK(read_text(dir + "/a.vcd") == read_text(dir + "/b.vcd"));
  CHECK_THAT(read_text(dir + "/a.vcd"), Contains("vc_busy"));

  const auto json = nlohmann::json::parse(report);
  const auto& summary = json["summary"];
  CHECK(summary["laser_power_mw"] == 0.73);
  // Six controllers, each with one DRAM and one XPoint: 18 endpoints x (1 modulator + 1
  // detector array) x 16 rings.
  CHECK(summary["mrr_count"] == 576);
  CHECK(summary["ber_max"].get<double>() < 1e-15);
  CHECK(summary["energy_j"].get<double>() > 0.0);
  const auto& stats = json["stats"];
  CHECK(stats["memory.channel0"]["arrival_latency_ps"]["value"] == 1701.0);
  CHECK(stats["memory.channel0"]["detector_switches"]["value"].get<double>() > 0);
  CHECK(stats["memory.energy"]["energy_j"]["value"] == summary["energy_j"]);
  // The XPoint media's partition time: per controller over 8 partitions x the run, then the mean.
  double utilisation = 0;
  for (int c = 0; c < 6; ++c) {
    const auto& xpoint = stats["memory.xpc" + std::to_string(c)];
    const double busy_ps = xpoint["media_busy_ps"]["value"].get<double>();
    CHECK(busy_ps > 0);
    CHECK(xpoint["media_utilisation"]["value"].get<double>() ==
          Approx(busy_ps / (8 * 1000 * summary["simulated_ns"].get<double>())).epsilon(1e-6));
    utilisation += xpoint["media_utilisation"]["value"].get<double>() / 6;
  }
  CHECK(summary["xpoint_media_utilisation"].get<double>() == Approx(utilisation));
  CHECK_THAT(first.output, Contains("XPoint media busy"));

  // The electrical platform it replaces has none of them.
  const CliResult hetero =
      run_ohmvp(std::string("run -q --platform hetero_planar --workload vecadd") +
                k_swap_streamed_pages + "--out " + dir + "/h");
  REQUIRE(hetero.exit_code == 0);
  const auto electrical = nlohmann::json::parse(read_text(dir + "/h/report.json"));
  CHECK_FALSE(electrical["summary"].contains("laser_power_mw"));
  // Its energy has an electrical channel term where Ohm-base has the laser, MRRs and SerDes.
  const auto& wires = electrical["stats"]["memory.energy"];
  CHECK(wires["energy_electrical_channel_j"]["value"].get<double>() > 0.0);
  CHECK(wires["energy_laser_j"]["value"].get<double>() == 0.0);
  // 96 wavelengths of 0.73 mW through a wall plug of 0.25 efficiency, over the whole run.
  CHECK(stats["memory.energy"]["energy_laser_j"]["value"].get<double>() ==
        Approx(0.73e-3 * 96 / 0.25 * summary["simulated_ns"].get<double>() * 1e-9));
  CHECK(electrical["summary"]["energy_j"].get<double>() > 0.0);
  // Both swap pages (when exactly depends on each channel's instants).
  CHECK(electrical["summary"]["migrations"].get<int>() > 0);
  CHECK(summary["migrations"].get<int>() > 0);
}

TEST_CASE(
    "cli: the Ohm-WOM and Ohm-BW waveforms show the memory route and the functions in flight") {
  const std::string dir = scratch_dir("ohm_functions_vcd");
  for (const char* platform : {"ohm_wom_planar", "ohm_bw_two_level"}) {
    INFO(platform);
    const std::string vcd = dir + "/" + platform + ".vcd";
    const bool planar = std::string(platform).find("planar") != std::string::npos;
    const CliResult run = run_ohmvp(std::string("run -q --platform ") + platform +
                                    " --workload vecadd" + (planar ? k_swap_streamed_pages : " ") +
                                    "--vcd " + vcd + " --out " + dir + "/" + platform);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    const std::string text = read_text(vcd);
    CHECK_THAT(text, Contains("memory_route_busy") && Contains("vc_busy") &&
                         Contains("xpoint_mrr") && Contains("xpoint_half_mrr"));
    // The half-coupled array of some channel's XPoint goes half-coupled (1) while its memory
    // route runs.
    bool half_coupled = false;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      std::istringstream words(line);
      std::string var, kind, width, id, name;
      if (words >> var >> kind >> width >> id >> name && var == "$var" &&
          name == "xpoint_half_mrr") {
        half_coupled = half_coupled || text.find("\nb1 " + id + "\n") != std::string::npos;
      }
    }
    CHECK(half_coupled);
    CHECK_THAT(text, Contains(planar ? "swap_cmd_in_flight" : "reverse_write_in_flight"));
    const auto report = nlohmann::json::parse(read_text(dir + "/" + platform + "/report.json"));
    CHECK(report["stats"]["memory.channel0"]["memory_route_bursts"]["value"].get<double>() > 0);
  }
}

TEST_CASE("cli: fault injection also flips the XPoint data that DDR-T puts on the light") {
  // Random requests above the 48 KiB that start in DRAM, too spread to make a page hot: every
  // data transfer on the light is a DDR-T read or write, and every read is checked against the
  // data written.
  const std::string dir = scratch_dir("fault_injection_ddr_t");
  write_text(dir + "/xpoint_only.json",
             R"({"type": "traffic", "traffic": {"pattern": "random", "requests": 5000,
                 "size": 64, "read_ratio": 0.7, "base": 49152, "range": 393216,
                 "max_outstanding": 16}})");
  const CliResult run =
      run_ohmvp("run -q --platform ohm_base_planar --workload " + dir + "/xpoint_only.json --out " +
                dir + " --set memory.optical.fault_injection.ber=1e-5");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  const auto report = nlohmann::json::parse(read_text(dir + "/report.json"));
  CHECK(report["summary"]["migrations"] == 0);
  const auto& channel = report["stats"]["memory.channel0"];
  CHECK(channel["dram_bursts"]["value"] == 0);
  CHECK(channel["xpoint_bursts"]["value"].get<double>() > 0);
  CHECK(channel["fault_bits_flipped"]["value"].get<double>() > 0);
  CHECK(channel["ecc_corrected"]["value"].get<double>() > 0);
  // At 1e-3 a read meets a chunk the ECC could not correct: the mismatch names the cause.
  const CliResult noisy =
      run_ohmvp("run -q --platform ohm_base_planar --workload " + dir + "/xpoint_only.json --out " +
                dir + "/noisy --set memory.optical.fault_injection.ber=1e-3");
  CHECK(noisy.exit_code == 1);
  CHECK_THAT(noisy.output, Contains("data mismatch") &&
                               Contains("(fault injection (memory.optical.fault_injection.ber "
                                        "0.001) left "));
}

TEST_CASE("cli: fault injection on the light is corrected and reported by the link's ECC") {
  const std::string dir = scratch_dir("fault_injection");
  const CliResult run = run_ohmvp(
      std::string("run -q --platform ohm_base_planar --workload vecadd") + k_swap_streamed_pages +
      "--out " + dir + " --set memory.optical.fault_injection.ber=1e-4");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  const auto stats = nlohmann::json::parse(read_text(dir + "/report.json"))["stats"];
  const auto& channel = stats["memory.channel0"];
  CHECK(channel["fault_bits_flipped"]["value"].get<double>() > 0);
  CHECK(channel["ecc_corrected"]["value"].get<double>() > 0);
  CHECK(channel.contains("ecc_uncorrectable"));
  // At 1e-3 chunks with two flips are common: the run ends, and says its outputs may be wrong.
  // Each seed's channels draw streams of their own: seed 2's channel c is not seed 1's c + 1.
  std::vector<std::vector<double>> per_channel[2];
  for (int seed = 1; seed <= 2; ++seed) {
    const std::string out = dir + "/seed" + std::to_string(seed);
    const CliResult noisy =
        run_ohmvp("run -q --platform ohm_base_planar --workload vecadd --out " + out +
                  " --set memory.optical.fault_injection.ber=1e-3 --set "
                  "memory.optical.fault_injection.seed=" +
                  std::to_string(seed));
    INFO(noisy.output);
    REQUIRE(noisy.exit_code == 0);
    CHECK_THAT(noisy.output, Contains("ohmvp: warning: outputs may be wrong (fault injection "
                                      "(memory.optical.fault_injection.ber 0.001) left ") &&
                                 Contains("; --verify checks them"));
    const auto seeded = nlohmann::json::parse(read_text(out + "/report.json"))["stats"];
    for (int c = 0; c < 6; ++c) {
      const auto& counts = seeded["memory.channel" + std::to_string(c)];
      per_channel[seed - 1].push_back({counts["fault_bits_flipped"]["value"].get<double>(),
                                       counts["ecc_corrected"]["value"].get<double>(),
                                       counts["ecc_uncorrectable"]["value"].get<double>()});
    }
  }
  for (int c = 0; c + 1 < 6; ++c) CHECK(per_channel[1][c] != per_channel[0][c + 1]);
  // spmv loads its row pointers and column indices from memory: corrupted, they fault, and the
  // fault says what may have corrupted them.
  const CliResult faulted = run_ohmvp("run -q --platform ohm_base_planar --workload spmv --out " +
                                      dir + "/spmv --set memory.optical.fault_injection.ber=1e-3");
  CHECK(faulted.exit_code == 1);
  CHECK_THAT(faulted.output, Contains("device fault in kernel 'spmv_csr_scalar'") &&
                                 Contains("(fault injection (memory.optical.fault_injection.ber "
                                          "0.001) left "));
  const CliResult bad = run_ohmvp("run -q --platform ohm_base_planar --workload vecadd --out " +
                                  dir + "/bad --set memory.optical.fault_injection.ber=0.7");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Contains("memory.optical.fault_injection.ber") && Contains("0.5"));
}

TEST_CASE("cli: XPoint media read errors are corrected, and an uncorrectable one ends the run") {
  const std::string dir = scratch_dir("xpoint_fault_injection");
  // At 1e-6 a few bits of spmv's line reads flip, each alone in its chunk: all corrected.
  const CliResult rare =
      run_ohmvp("run -q --verify --platform ohm_base_planar --workload spmv --out " + dir +
                "/rare --set memory.xpoint.fault_injection.ber=1e-6");
  INFO(rare.output);
  REQUIRE(rare.exit_code == 0);
  const auto stats = nlohmann::json::parse(read_text(dir + "/rare/report.json"))["stats"];
  double flipped = 0, corrected = 0, uncorrectable = 0;
  for (int c = 0; c < 6; ++c) {
    const auto& xpc = stats["memory.xpc" + std::to_string(c)];
    flipped += xpc["fault_bits_flipped"]["value"].get<double>();
    corrected += xpc["ecc_corrected"]["value"].get<double>();
    uncorrectable += xpc["ecc_uncorrectable"]["value"].get<double>();
  }
  CHECK(flipped > 0);
  CHECK(corrected == flipped);
  CHECK(uncorrectable == 0);
  // At 1e-3 a read meets two flips in one chunk: as a GPU's double-bit error, the run ends.
  const CliResult frequent =
      run_ohmvp("run -q --platform ohm_base_planar --workload spmv --out " + dir +
                "/frequent --set memory.xpoint.fault_injection.ber=1e-3");
  CHECK(frequent.exit_code == 1);
  CHECK_THAT(frequent.output, Contains("failed: an uncorrectable ECC error in the XPoint media"));
}

TEST_CASE("cli: SWAP-CMD refuses a register buffer smaller than both halves of a burst") {
  const std::string dir = scratch_dir("small_register_buffer");
  const CliResult bad = run_ohmvp("run -q --platform ohm_wom_planar --workload vecadd --out " +
                                  dir + "/out --set memory.optical.serdes.buffer_bytes=64");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output, Contains("memory.optical.serdes.buffer_bytes") && Contains("128"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out"));
}

TEST_CASE("cli: SWAP-CMD refuses a DRAM page that needs two rows of a bank") {
  // The shipped DRAM has 16 banks of 256-byte rows per channel: an 8 KiB page needs two rows of
  // each, which a bank preset cannot hold.
  const std::string dir = scratch_dir("swap_cmd_two_rows");
  const CliResult bad = run_ohmvp("run -q --platform ohm_wom_planar --workload vecadd --out " +
                                  dir + "/out --set memory.hetero.page_bytes=8192");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.output,
             Contains("memory.hetero.page_bytes") && Contains("needs rows 0 and 1 of bank 0"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out"));
  const CliResult fine = run_ohmvp(
      "config --platform ohm_wom_planar "
      "--set memory.hetero.page_bytes=2048");
  CHECK(fine.exit_code == 0);
}

TEST_CASE("cli: SWAP-CMD swaps chosen together take the bank presets one at a time") {
  // Random requests over the whole planar space with a low hot-page bar, so that several swaps
  // are chosen at once on every channel. Their DRAM pages share banks (a page of the shipped DRAM
  // spans all 16), which two presets of different rows cannot both hold; and swaps that share a
  // small register buffer must each get its room back.
  const std::string dir = scratch_dir("swap_cmd_together");
  const std::string hot =
      " --set memory.hetero.hot_page.margin=0"
      " --set memory.hetero.hot_page.threshold=4";
  const struct {
    uint32_t range;
    std::string sets;
  } cases[] = {
      {884736,
       " --set memory.dram.geometry.rows=4 --set memory.xpoint.capacity_kib=128"
       " --set memory.xpoint.start_gap.region_lines=512 --set memory.hetero.max_migrations=3"
       " --set memory.optical.serdes.buffer_bytes=65536"},
      {442368,
       " --set memory.hetero.page_bytes=1024 --set memory.hetero.max_migrations=4"
       " --set memory.optical.serdes.buffer_bytes=1024"},
  };
  for (const auto& c : cases) {
    INFO(c.sets);
    write_text(dir + "/random.json",
               R"({"type": "traffic", "traffic": {"pattern": "random", "requests": 60000,
                   "size": 64, "read_ratio": 0.7, "base": 0, "range": )" +
                   std::to_string(c.range) + R"(, "max_outstanding": 256}})");
    const CliResult run = run_ohmvp("run -q --platform ohm_bw_planar --workload " + dir +
                                    "/random.json --out " + dir + hot + c.sets);
    INFO(run.output);
    REQUIRE(run.exit_code == 0);
    const auto report = nlohmann::json::parse(read_text(dir + "/report.json"));
    CHECK(report["summary"]["migrations"].get<double>() > 100);
    CHECK(report["stats"]["memory.hmm0"]["peak_migrations_in_flight"]["value"].get<double>() > 1);
  }
}

TEST_CASE("cli: a slow light serves DRAM bursts and XPoint lines in turn and takes longer") {
  // At 5 and 1 Gb/s a 64-byte transfer takes 6.4 and 32 ns: a DRAM column command the controller
  // could have issued earlier, woken later by a request, finds its burst's slot from the cycle it
  // issues in, not from the cycle it was first due in (where an XPoint line has since gone).
  // Each read waits longer for its burst on a slower light. The run's own time moves by a few
  // percent with the instants at which requests meet (docs/results.md, "How much is noise"),
  // more than 5 Gb/s adds, so only the mean read latency is checked step by step.
  const std::string dir = scratch_dir("slow_light");
  double previous_latency_ns = 0;
  double first_ns = 0;
  for (const char* rate : {"30", "5", "1"}) {
    INFO("rate_gbps " << rate);
    const CliResult r = run_ohmvp(std::string("run -q --platform ohm_base_planar --workload spmv "
                                              "--verify --set memory.optical.rate_gbps=") +
                                  rate + " --out " + dir);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const auto report = nlohmann::json::parse(read_text(dir + "/report.json"));
    const double latency_ns = report["summary"]["avg_latency_ns"].get<double>();
    CHECK(latency_ns > previous_latency_ns);
    previous_latency_ns = latency_ns;
    const double simulated_ns = report["summary"]["simulated_ns"].get<double>();
    if (first_ns == 0) first_ns = simulated_ns;
    if (std::string(rate) == "1") CHECK(simulated_ns > 1.2 * first_ns);
  }
}

TEST_CASE("cli: XPoint write energy counts the drained lines and Start-Gap's line copies") {
  const std::string dir = scratch_dir("xpoint_energy");
  const CliResult r =
      run_ohmvp("run -q --platform hetero_planar --workload moving_hot_set --out " + dir);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto report = nlohmann::json::parse(read_text(dir + "/report.json"));
  const auto& stats = report["stats"];
  double writes = 0, gap_moves = 0;
  for (int c = 0; c < 6; ++c) {
    const auto& xpc = stats["memory.xpc" + std::to_string(c)];
    writes += xpc["media_writes"]["value"].get<double>();
    gap_moves += xpc["gap_moves"]["value"].get<double>();
  }
  REQUIRE(gap_moves > 0);  // the hot lines' writes move the gap
  // 256-byte lines at 17 pJ a bit (configs/optical/memory_energy.json's XPoint write energy).
  CHECK(stats["memory.energy"]["energy_xpoint_write_j"]["value"].get<double>() ==
        Approx((writes + gap_moves) * 256 * 8 * 17e-12).epsilon(1e-12));
}

TEST_CASE("cli: DRAM energy counts each burst by its bytes, each rank's background and refresh") {
  const std::string dir = scratch_dir("dram_energy");
  // Eight writes and eight reads of 32 bytes, each in a row of its own, then as many after 20 us
  // of idle time, in which the ranks refresh every tREFI.
  std::string trace;
  for (int half = 0; half < 2; ++half)
    for (int i = 0; i < 16; ++i) {
      if (half == 1 && i == 0) trace += "@20000 ";
      char line[32];
      std::snprintf(line, sizeof line, "%s 0x%x 32\n", i < 8 ? "W" : "R",
                    half * 0x100000 + i * 0x800);  // the reads' addresses not written
      trace += line;
    }
  write_text(dir + "/t.trace", trace);
  write_text(dir + "/t.json",
             R"({"type": "trace", "trace": {"file": "t.trace", "max_outstanding": 4}})");
  struct Case {
    const char* platform;
    const char* sets;
    double ranks, burst_bytes, tRFC_ps;
  };
  for (const Case& c :
       {Case{"ddr4_2400",
             " --set memory.dram.geometry.ranks=2 --set "
             "'memory.controller.address_mapping={\"scheme\": \"row:rank:bank:column\"}'",
             2, 64, 420 * 833},  // tRFC 350 ns: 420 clocks (0.833 ns read as 0.8333), of 833 ps
        Case{"ohm_gpu_dram", " --set memory.dram.geometry.burst_length=8", 1, 32, 488 * 533}}) {
    INFO(c.platform);
    const CliResult r = run_ohmvp(std::string("run -q --platform ") + c.platform + " --workload " +
                                  dir + "/t.json" + c.sets + " --out " + dir + "/" + c.platform);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const auto report = nlohmann::json::parse(read_text(dir + "/" + c.platform + "/report.json"));
    const auto& stats = report["stats"];
    const auto& energy = stats["memory.energy"];
    double acts = 0, reads = 0, writes = 0, refreshes = 0, channels = 0;
    for (const auto& [group, entries] : stats.items()) {
      if (group.rfind("memory.mc", 0) != 0) continue;
      ++channels;
      acts += entries["cmd_ACT"]["value"].get<double>();
      reads += entries["cmd_RD"]["value"].get<double>() + entries["cmd_RDA"]["value"].get<double>();
      writes +=
          entries["cmd_WR"]["value"].get<double>() + entries["cmd_WRA"]["value"].get<double>();
      refreshes += entries["cmd_REF"]["value"].get<double>();
    }
    CHECK(reads + writes == 32);
    REQUIRE(refreshes >= c.ranks * 2);  // tREFI 7.8 and 3.9 us
    const double per_64 = c.burst_bytes / 64;
    CHECK(energy["energy_dram_dynamic_j"]["value"].get<double>() ==
          Approx((acts * 1.0 + reads * 0.9 * per_64 + writes * 1.0 * per_64) * 1e-9));
    CHECK(
        energy["energy_dram_static_j"]["value"].get<double>() ==
        Approx(channels * c.ranks * 0.1 * report["summary"]["simulated_ns"].get<double>() * 1e-9));
    CHECK(energy["energy_dram_refresh_j"]["value"].get<double>() ==
          Approx(refreshes * c.tRFC_ps * 1e-12 * 0.2));
  }
}
