// Workloads on every GPU of a multi-GPU platform (--gpu-workload): each GPU's host program runs
// beside GPU 0's, its outputs are verified, the report lists it; bad choices are refused.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_runner.h"

using Catch::Contains;

TEST_CASE("cli: each GPU of a multi-GPU platform runs a workload of its own") {
  const std::string dir = scratch_dir("cli_gpu_workloads");
  const std::string options =
      "run -q --verify -p multi_gpu_huvm --gpu-workload 1=spmv --gpu-workload 3=" +
      shipped("testbenches/workloads/bfs.json") + " --out ";
  const CliResult r = run_ohmvp(options + dir + "/first");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("verified: every output matches the C++ reference"));
  CHECK_THAT(r.output, Contains("gpu1: spmv, 1 kernel in"));
  CHECK_THAT(r.output, Contains("gpu3: bfs"));
  CHECK_THAT(r.output, Contains(", verified"));
  const nlohmann::json report = nlohmann::json::parse(read_text(dir + "/first/report.json"));
  const nlohmann::json& others = report.at("other_gpus");
  REQUIRE(others.size() == 2);
  CHECK(others[0]["gpu"] == 1);
  CHECK(others[0]["workload"] == "spmv");
  CHECK(others[0]["verification"]["matches"] == true);
  CHECK(others[1]["gpu"] == 3);
  CHECK(others[1]["kernel_launches"].get<uint64_t>() > 1);
  // Each lists its own GPU's launches, as the report's "launches" lists GPU 0's.
  REQUIRE(others[0]["launches"].size() == 1);
  CHECK(others[0]["launches"][0]["kernel"] == report["launches"][0]["kernel"]);
  CHECK(others[0]["launches"][0]["stream"] == 0);
  CHECK(others[1]["launches"].size() == others[1]["kernel_launches"]);
  // Each GPU ran on its own: GPU 2 ran nothing, GPU 1 its one kernel, and GPU 0 its managed spmv.
  const nlohmann::json& stats = report.at("stats");
  CHECK(stats["host1"]["kernel_launches"]["value"] == 1);
  CHECK(stats["host2"]["kernel_launches"]["value"] == 0);
  CHECK(stats["gpu2"]["warp_instructions"]["value"] == 0);
  CHECK(stats["host"]["kernel_launches"]["value"] == 1);
  CHECK(stats["host.uvm"]["far_faults"]["value"].get<uint64_t>() > 0);
  // Each GPU's memory has its energy breakdown; the summary's is GPU 0's. GPU 2's memory did
  // no reads, where GPU 1's served its spmv: both are powered for the whole run.
  CHECK(stats["memory.energy"]["energy_j"]["value"] == report["summary"]["energy_j"]);
  const auto energy = [&](const char* memory, const char* part) {
    return stats[std::string(memory) + ".energy"]["energy_" + std::string(part) + "_j"]["value"]
        .get<double>();
  };
  CHECK(energy("memory2", "dram_static") == energy("memory", "dram_static"));
  CHECK(energy("memory2", "dram_dynamic") == 0.0);
  CHECK(energy("memory1", "dram_dynamic") > 0.0);
  // GPU 1 finished long before GPU 0's managed run: they ran side by side.
  CHECK(others[0]["end_ns"].get<double>() < report["summary"]["simulated_ns"].get<double>() / 10);
  // The same run, the same report.
  REQUIRE(run_ohmvp(options + dir + "/again").exit_code == 0);
  CHECK(read_text(dir + "/first/report.json") == read_text(dir + "/again/report.json"));
  // A program may start later.
  const CliResult later = run_ohmvp(
      "run -q -p multi_gpu_huvm --workload vecadd --gpu-workload "
      "1=vecadd_streams@50us --out " +
      dir + "/later");
  INFO(later.output);
  REQUIRE(later.exit_code == 0);
  CHECK_THAT(later.output, Contains("gpu1: vecadd_streams from 50 us, 4 kernels in"));
  const nlohmann::json started =
      nlohmann::json::parse(read_text(dir + "/later/report.json")).at("other_gpus")[0];
  CHECK(started["start_ns"] == 50000.0);
  CHECK(started["end_ns"].get<double>() > 50000.0);
  // Its launches name the workload's streams, 1 to 4.
  std::set<uint32_t> streams;
  for (const auto& launch : started["launches"]) streams.insert(launch["stream"].get<uint32_t>());
  CHECK(streams == std::set<uint32_t>{1, 2, 3, 4});
  // Its events, in the report and after its summary line.
  write_text(dir + "/timed.json", vecadd_streams_timed().dump());
  const CliResult events =
      run_ohmvp("run -q -p multi_gpu_huvm --workload vecadd --gpu-workload 1=" + dir +
                "/timed.json --out " + dir + "/events");
  INFO(events.output);
  REQUIRE(events.exit_code == 0);
  const nlohmann::json other =
      nlohmann::json::parse(read_text(dir + "/events/report.json")).at("other_gpus")[0];
  CHECK(other["events"]["end"]["records"] == 1);
  CHECK_THAT(events.output, Contains(" us\ngpu1: event end at "));
}

TEST_CASE("cli: several GPUs harvest the yielding GPUs' memory") {
  const std::string dir = scratch_dir("cli_gpu_harvesters");
  const auto run = [&dir](const std::string& name, const std::string& options) {
    const CliResult r = run_ohmvp(
        "run -q --verify -p multi_gpu_huvm --gpu-workload "
        "1=managed/pagerank --out " +
        dir + "/" + name + " " + options);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.output, Contains("gpu1: pagerank") && Contains(", verified"));
    return nlohmann::json::parse(read_text(dir + "/" + name + "/report.json"))["stats"];
  };
  const auto value = [](const nlohmann::json& stats, const char* group, const char* name) {
    return stats.at(group).at(name).at("value").get<uint64_t>();
  };
  // GPU 1 lends to GPU 0 while it runs its own managed pagerank, evicting to host memory.
  const nlohmann::json one = run("one", "");
  CHECK(value(one, "host1.uvm", "chunks_evicted") > 0);
  CHECK(value(one, "host1.uvm", "chunks_harvested") == 0);
  // Two harvesters: GPUs 0 and 1 both evict to GPUs 2 and 3, and GPU 1's run is faster for it.
  const nlohmann::json two = run("two", "--set uvm.harvesters=2");
  CHECK(value(two, "host.uvm", "chunks_harvested") > 0);
  CHECK(value(two, "host1.uvm", "chunks_harvested") == value(two, "host1.uvm", "chunks_evicted"));
  CHECK(value(two, "host1.uvm", "pages_from_peer") > 0);
  CHECK(value(two, "host1", "kernel_time") < value(one, "host1", "kernel_time"));
  // With more harvesters than yielding GPUs the multi-path prefetcher moves nothing to them: it
  // brings the blocks ahead from host memory to the GPU itself.
  const std::string three = "--set multi_gpu.gpus=3 --set uvm.multi_path_chunks=16 ";
  const nlohmann::json ahead = run("ahead", three);
  CHECK(value(ahead, "host.uvm", "chunks_prefetched_to_peer") > 0);
  CHECK(value(ahead, "host.uvm", "chunks_prefetched_from_host") == 0);
  const nlohmann::json local = run("local", three + "--set uvm.harvesters=2");
  for (const char* gpu : {"host.uvm", "host1.uvm"}) {
    CHECK(value(local, gpu, "chunks_prefetched_to_peer") == 0);
    CHECK(value(local, gpu, "chunks_prefetched_from_host") > 0);
  }
}

TEST_CASE("cli: a bad --gpu-workload is refused and nothing is written") {
  const std::string dir = scratch_dir("cli_gpu_workload_errors");
  const auto refused = [&dir](const std::string& options, const std::string& message) {
    require_usage_error(run_ohmvp("run -q " + options + " --out " + dir + "/out"), message);
  };
  refused(
      "-p multi_gpu_huvm --gpu-workload spmv",
      "--gpu-workload spmv: expected N=WORKLOAD[@TIME], a GPU number and a workload name or file");
  refused("-p multi_gpu_huvm --gpu-workload 1=spmv@soon",
          "--gpu-workload 1=spmv@soon: the start time 'soon': expected a time from 1 ps and its "
          "unit");
  refused("-p multi_gpu_huvm --gpu-workload 1=spmv@none",
          "--gpu-workload 1=spmv@none: the start time 'none': expected a time from 1 ps");
  refused("-p multi_gpu_huvm --gpu-workload 1=spmv --gpu-workload 1=bfs",
          "--gpu-workload names GPU 1 twice");
  refused("-p multi_gpu_huvm --gpu-workload 0=spmv", "GPU 0 runs --workload");
  refused("-p multi_gpu_huvm --gpu-workload 4=spmv",
          "platform multi_gpu_huvm has 4 GPUs (multi_gpu.gpus); expected a GPU from 1 to 3");
  refused("-p gpu_small --workload spmv --gpu-workload 1=spmv",
          "platform gpu_small has one GPU (multi_gpu.gpus); --gpu-workload needs a platform "
          "of several, such as multi_gpu_huvm");
  refused("-p multi_gpu_huvm --gpu-workload 1=vecadd@2s",
          "--gpu-workload 1=vecadd: starts at 2 s, not before the run's time limit of 1 s "
          "(--time-limit)");
  refused("-p multi_gpu_huvm --time-limit 5us --gpu-workload 1=vecadd@5us",
          "starts at 5 us, not before the run's time limit of 5 us");
  refused("-p multi_gpu_huvm --gpu-workload 1=saxp",
          "--gpu-workload 1=saxp: unknown workload 'saxp'; did you mean 'saxpy'?");
  refused("-p multi_gpu_huvm --gpu-workload 1=stream_read", "is memory traffic");
  refused("-p multi_gpu_huvm --set uvm.harvest=false --set uvm.parallel_fetch=true",
          "uvm.parallel_fetch: expected harvest: the pages go through the yielding GPUs");
  refused("-p multi_gpu_huvm --set uvm.harvesters=4",
          "uvm.harvesters: is 4 of 4 GPUs; expected fewer, so that at least one GPU yields its "
          "memory");
  CHECK_FALSE(std::filesystem::exists(dir + "/out"));
}

TEST_CASE("cli: a device fault on another GPU fails the run, naming that GPU") {
  const std::string dir = scratch_dir("cli_gpu_workload_fault");
  auto workload = shipped_kernel_workload("vecadd");
  workload["buffers"]["c"]["count"] = 64;  // the kernel writes 8192 elements
  write_text(dir + "/short_c.json", workload.dump());
  const CliResult r = run_ohmvp("run -q -p multi_gpu_huvm --gpu-workload 2=" + dir +
                                "/short_c.json --out " + dir + "/out");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("GPU 2 (workload 'short_c')"));
  CHECK_THAT(r.output, Contains("past the end of buffer 'c'"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out/report.json"));
}

TEST_CASE("cli: --dump writes another GPU's outputs in a folder of its own") {
  const std::string dir = scratch_dir("cli_gpu_workload_dump");
  const CliResult r =
      run_ohmvp("run -q -p multi_gpu_huvm -w vecadd --gpu-workload 1=vecadd --out " + dir +
                "/out --dump " + dir + "/d");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // The same workload on GPU 0 and GPU 1: the same output bytes, each listed in its index.
  CHECK(read_text(dir + "/d/c.bin").size() == 8192 * 4);
  CHECK(read_text(dir + "/d/gpu1/c.bin") == read_text(dir + "/d/c.bin"));
  CHECK(nlohmann::json::parse(read_text(dir + "/d/gpu1/index.json"))[0]["file"] == "c.bin");
  // A failed run into the same folders leaves no earlier run's files there, GPU 1's included.
  auto workload = shipped_kernel_workload("vecadd");
  workload["buffers"]["c"]["count"] = 64;  // the kernel writes 8192 elements
  write_text(dir + "/short_c.json", workload.dump());
  const CliResult failed = run_ohmvp("run -q -p multi_gpu_huvm -w vecadd --gpu-workload 1=" + dir +
                                     "/short_c.json --out " + dir + "/out --dump " + dir + "/d");
  CHECK(failed.exit_code == 1);
  CHECK_FALSE(std::filesystem::exists(dir + "/d/c.bin"));
  CHECK_FALSE(std::filesystem::exists(dir + "/d/gpu1"));
  // A file where GPU 1's folder goes is refused before the run, and nothing is written.
  write_text(dir + "/d/gpu1", "");
  const CliResult blocked = run_ohmvp(
      "run -q -p multi_gpu_huvm -w vecadd --gpu-workload 1=vecadd "
      "--out " +
      dir + "/out2 --dump " + dir + "/d");
  CHECK(blocked.exit_code == 2);
  CHECK_THAT(blocked.output, Contains("--dump: " + dir + "/d/gpu1 is not a folder"));
  CHECK_FALSE(std::filesystem::exists(dir + "/d/c.bin"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out2"));
}
