// `ohmvp run --verify`: a kernel run's outputs against the workload's C++ reference, or against
// the expected values its file gives. A match is reported; a mismatch (bits flipped on the light,
// past ECC) fails the run with exit code 1 after report.json is written; a workload with neither,
// one whose kernels its reference lacks, or memory traffic, is bad input.
#include <catch2/catch.hpp>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

using Catch::Contains;

namespace {

nlohmann::json verification_of(const std::string& dir) {
  return nlohmann::json::parse(read_text(dir + "/report.json"))["verification"];
}

// `ohmvp run -q <arguments> --verify --out <dir>` ends well, its outputs matching the reference.
void check_verified_run(const std::string& arguments, const std::string& dir) {
  const CliResult run = run_ohmvp("run -q " + arguments + " --verify --out " + dir);
  INFO(run.output);
  CHECK(run.exit_code == 0);
  CHECK(verification_of(dir)["matches"] == true);
}

}  // namespace

TEST_CASE("cli: --verify reports that every output matches the C++ reference") {
  const std::string dir = scratch_dir("verify_match");
  const CliResult run = run_ohmvp("run --quiet --workload vecadd --verify --out " + dir);
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.output, Contains("verified: every output matches the C++ reference"));
  const auto verification = verification_of(dir);
  CHECK(verification["reference"] == "vecadd");
  CHECK(verification["matches"] == true);
  CHECK(verification["mismatched_elements"] == 0);
  // Without --verify the report has no verification.
  const CliResult plain = run_ohmvp("run --quiet --workload vecadd --out " + dir + "/plain");
  REQUIRE(plain.exit_code == 0);
  CHECK_FALSE(
      nlohmann::json::parse(read_text(dir + "/plain/report.json")).contains("verification"));
}

// 4-byte sectors: 32 to a 128-byte line, the most a sector mask holds. The SMs' loads and
// stores and the copy engine's (the managed pages) cover every sector.
TEST_CASE("cli: lines of 32 sectors carry every byte") {
  const std::string dir = scratch_dir("verify_32_sectors");
  const std::string sectors = " --set gpu.l2.sector_bytes=4 --set gpu.l1d.sector_bytes=4";
  check_verified_run("--workload vecadd" + sectors, dir + "/vecadd");
  check_verified_run("--workload managed/spmv" + sectors, dir + "/managed");
}

TEST_CASE("cli: Origin on its slowest channel pages every page in and verifies") {
  // One burst takes 1.6 us at 0.01 Gb/s: a page crosses PCIe before the clean page it replaces
  // has drained its requests, and must still be filled.
  for (const std::string platform : {"origin_planar", "origin_two_level"})
    check_verified_run("-p " + platform + " -w vecadd --set memory.channel.rate_gbps=0.01",
                       scratch_dir("verify_slow_" + platform));
}

TEST_CASE("cli: a crossbar slow enough to leave the memory idle for a millisecond is no deadlock") {
  // A 32-byte sector holds a port for 32 us at 1 byte a 1 us cycle: for over 1 ms no warp
  // issues and the memory is idle, while the crossbar carries the data the warps wait for.
  check_verified_run(
      "-p hetero_two_level -w saxpy --set gpu.crossbar.bytes_per_cycle_per_port=1 "
      "--set gpu.core_clock_mhz=1",
      scratch_dir("verify_slow_crossbar"));
}

TEST_CASE("cli: --verify fails a run whose outputs were corrupted, after writing its report") {
  // vecadd with its inputs among the outputs: at a forced BER of 1e-2 a swap carries some of b
  // out of DRAM with flips that SEC-DED can only detect, so b no longer holds what was copied in.
  const std::string dir = scratch_dir("verify_mismatch");
  auto workload = shipped_kernel_workload("vecadd");
  workload["outputs"] = {"a", "b", "c"};
  write_text(dir + "/vecadd.json", workload.dump(2));
  const CliResult run =
      run_ohmvp("run --quiet --platform ohm_base_planar --workload " + dir + "/vecadd.json" +
                k_swap_streamed_pages +
                "--set memory.optical.fault_injection.ber=1e-2 --verify --out " + dir + "/out");
  INFO(run.output);
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.output, Contains("outputs differ from the C++ reference of 'vecadd'") &&
                             Contains("output 'b'") && Contains("elements differ"));
  CHECK_THAT(run.output, Contains("(fault injection (memory.optical.fault_injection.ber 0.01) "
                                  "left ") &&
                             Contains("they reached their receivers as they arrived)"));
  const auto verification = verification_of(dir + "/out");
  CHECK(verification["matches"] == false);
  CHECK(verification["mismatched_elements"].get<uint64_t>() > 0);
  CHECK_THAT(verification["message"].get<std::string>(), Contains("output 'b'"));
}

TEST_CASE("cli: --verify without a usable reference, or on memory traffic, is bad input") {
  const std::string dir = scratch_dir("verify_bad");
  auto workload = shipped_kernel_workload("vecadd");
  write_text(dir + "/my_sum.json", workload.dump(2));
  const CliResult unknown =
      run_ohmvp("run --quiet --workload " + dir + "/my_sum.json --verify --out " + dir + "/out");
  INFO(unknown.output);
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.output, Contains("--verify") && Contains("'my_sum'") &&
                                 Contains("has neither \"expected\" outputs nor a C++ reference") &&
                                 Contains("vecadd"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out"));

  // `workload` as <folder>/<name>.json (the reference goes by the name), run with --verify into
  // <folder>/out.
  const auto verify = [&](const std::string& folder, const std::string& name,
                          const nlohmann::json& workload) {
    std::filesystem::create_directories(dir + "/" + folder);
    const std::string file = dir + "/" + folder + "/" + name + ".json";
    write_text(file, workload.dump(2));
    return run_ohmvp("run --quiet --workload " + file + " --verify --out " + dir + "/" + folder +
                     "/out");
  };

  // A workload under a reference's name whose kernels that reference does not have.
  const CliResult foreign = verify("other", "vecadd", shipped_kernel_workload("saxpy"));
  INFO(foreign.output);
  CHECK(foreign.exit_code == 2);
  CHECK_THAT(foreign.output, Contains("cannot run this workload") && Contains("no kernel 'saxpy'"));
  CHECK_FALSE(std::filesystem::exists(dir + "/other/out"));

  // Zero histogram bins: the GPU's remainder by zero is the dividend (no trap), so the kernel
  // adds far past the bins and the run faults; the reference, which would index past them too,
  // never runs.
  auto histogram = shipped_kernel_workload("histogram");
  histogram["launches"][0]["args"][3] = {{"u32", 0}};
  const CliResult zero_bins = verify("zero_bins", "histogram", histogram);
  INFO(zero_bins.output);
  CHECK(zero_bins.exit_code == 1);
  CHECK_THAT(zero_bins.output,
             Contains("device fault in kernel 'histogram_global'") && !Contains("--verify"));

  const CliResult traffic =
      run_ohmvp("run --quiet --workload stream_read --verify --out " + dir + "/traffic");
  INFO(traffic.output);
  CHECK(traffic.exit_code == 2);
  CHECK_THAT(traffic.output, Contains("--verify") && Contains("memory traffic"));
  CHECK_FALSE(std::filesystem::exists(dir + "/traffic"));
}

TEST_CASE("cli: --verify waits for the run: the time limit bounds the reference's work too") {
  // pagerank's iterations repeated 2^32 times: its reference alone would run for days.
  const std::string dir = scratch_dir("cli_verify_time_limit");
  auto pagerank = shipped_kernel_workload("pagerank");
  pagerank["launches"][1]["repeat"]["count"] = 4294967296;
  write_text(dir + "/pagerank.json", pagerank.dump());
  const CliResult r = run_ohmvp("run -q --verify --time-limit 200us -w " + dir +
                                "/pagerank.json --out " + dir + "/out");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("reached the time limit of 200 us"));
}

TEST_CASE("cli: the atomic reduction's tolerance grows with its inputs") {
  // Inputs up to 4096: the atomics' order moves the total by an ulp of 2^25, 4.
  const std::string dir = scratch_dir("cli_verify_wide_reduction");
  auto reduction = shipped_kernel_workload("reduction");
  reduction["buffers"]["in"]["init"]["random"]["max"] = 4096;
  write_text(dir + "/reduction.json", reduction.dump());
  const CliResult r =
      run_ohmvp("run -q --verify -p turing -w " + dir + "/reduction.json --out " + dir + "/out");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("verified: every output matches the C++ reference"));
}

TEST_CASE("cli: --verify checks a user's workload against the expected values its file gives") {
  const std::string dir = scratch_dir("cli_verify_expected");
  // c = a + b with a = 0, 1, 2, ... and b = 0.5: c is 0.5, 1.5, 2.5, ...; a is given by a file.
  auto workload = shipped_kernel_workload("vecadd");
  workload["buffers"]["a"]["init"] = {{"sequence", {{"start", 0}, {"step", 1}}}};
  workload["buffers"]["b"]["init"] = {{"value", 0.5}};
  workload["outputs"] = {"a", "c"};
  std::string a_bytes;
  for (uint32_t i = 0; i < 8192; ++i) {
    const float value = float(i);
    a_bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  write_text(dir + "/a.bin", a_bytes);
  workload["expected"] = {{"a", {{"values", {{"file", "a.bin"}}}}},
                          {"c", {{"values", {{"sequence", {{"start", 0.5}, {"step", 1}}}}}}}};
  const auto run = [&](const std::string& name, const nlohmann::json& w,
                       const std::string& options = "") {
    write_text(dir + "/" + name + ".json", w.dump(2));
    return run_ohmvp("run -q --verify -w " + dir + "/" + name + ".json --out " + dir + "/" + name +
                     options);
  };
  const CliResult good = run("my_add", workload);
  INFO(good.output);
  CHECK(good.exit_code == 0);
  CHECK_THAT(good.output, Contains("verified: every output matches the expected values of "));
  const auto verification = verification_of(dir + "/my_add");
  CHECK(verification["reference"] == "");
  CHECK(verification["checked"] == nlohmann::json::array({"a", "c"}));
  CHECK(verification["matches"] == true);

  // One ulp off from element 1 on: every element but the first differs; exit code 1, the report
  // written first.
  workload["expected"]["c"]["values"]["sequence"]["step"] = 1.0000001;
  const CliResult off = run("off", workload);
  INFO(off.output);
  CHECK(off.exit_code == 1);
  CHECK_THAT(off.output, Contains("outputs differ from the expected values of ") &&
                             Contains("output 'c': 8191 of 8192 elements differ; first at index "
                                      "1: expected 1.50000012"));
  CHECK(verification_of(dir + "/off")["mismatched_elements"] == 8191);
  // Within a relative tolerance it matches; only c is checked now.
  workload["expected"]["c"]["relative"] = 1e-3;
  workload["expected"].erase("a");
  const CliResult near = run("near", workload);
  INFO(near.output);
  CHECK(near.exit_code == 0);
  CHECK_THAT(near.output, Contains("verified: c matches the expected values of ") &&
                              Contains("(the other outputs have none)"));
  // An infinity expected matches only itself, whatever the tolerance.
  std::string inf_bytes;
  for (uint32_t i = 0; i < 8192; ++i) {
    const float value = std::numeric_limits<float>::infinity();
    inf_bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  write_text(dir + "/c_inf.bin", inf_bytes);
  auto infinite = workload;
  infinite["expected"]["c"]["values"] = {{"file", "c_inf.bin"}};
  const CliResult inf = run("inf", infinite);
  INFO(inf.output);
  CHECK(inf.exit_code == 1);
  CHECK_THAT(inf.output, Contains("output 'c': 8192 of 8192 elements differ beyond the tolerance; "
                                  "first at index 0: expected inf"));
  // The same file on another GPU of a multi-GPU platform is checked there.
  const CliResult other =
      run_ohmvp("run -q --verify -p multi_gpu_huvm -w vecadd --gpu-workload 1=" + dir +
                "/off.json --out " + dir + "/other");
  INFO(other.output);
  CHECK(other.exit_code == 1);
  CHECK_THAT(other.output, Contains("GPU 1: outputs differ from the expected values of "));
  CHECK_THAT(other.output,
             Contains("outputs differ from the expected values of " + dir + "/off.json"));
}
