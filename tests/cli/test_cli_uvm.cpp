// Managed (unified) memory through the CLI: the shipped managed workloads verify on the default
// GPU, oversubscribed and on an Ohm-GPU platform; the report counts the driver's work; bad
// input is refused with its key.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

using Catch::Contains;

namespace {

// `ohmvp run --verify` of the workload file `workload` into `dir`; the report's statistics.
nlohmann::json run_verified(const std::string& dir, const std::string& workload,
                            const std::string& options) {
  const CliResult r =
      run_ohmvp("run -q --verify --workload " + workload + " --out " + dir + " " + options);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("verified: every output matches the C++ reference"));
  return nlohmann::json::parse(read_text(dir + "/report.json"))["stats"];
}

// The same for testbenches/workloads/managed/NAME.json; the report's host.uvm group.
nlohmann::json run_managed(const std::string& dir, const std::string& name,
                           const std::string& options) {
  return run_verified(dir, shipped("testbenches/workloads/managed/" + name) + ".json",
                      options)["host.uvm"];
}

uint64_t value(const nlohmann::json& group, const char* name) {
  return group.at(name).at("value").get<uint64_t>();
}

}  // namespace

TEST_CASE("cli: managed workloads move their pages on demand and verify") {
  const std::string dir = scratch_dir("cli_uvm_runs");
  SECTION("all of the footprint fits") {
    const nlohmann::json uvm = run_managed(dir + "/spmv", "spmv", "-p gpu_small");
    CHECK(value(uvm, "far_faults") > 0);
    CHECK(value(uvm, "chunks_evicted") == 0);
    CHECK(value(uvm, "bytes_to_gpu") == value(uvm, "pages_to_gpu") * 4096);
    CHECK(uvm.at("fault_latency").at("max").get<uint64_t>() >= 45'000'000);  // the service time
    // Nothing is evicted, so every page of the five buffers moves once: x 1, y 2, row_offsets
    // (2,049 s32) 3, and column_indices and values each as many as the matrix's nonzeros fill.
    auto workload = shipped_kernel_workload("managed/spmv");
    workload["outputs"] = {"y", "row_offsets"};
    write_text(dir + "/offsets.json", workload.dump());
    const uint64_t pages =
        value(run_verified(dir + "/offsets", dir + "/offsets.json",
                           "-p gpu_small --dump " + dir + "/offsets/d")["host.uvm"],
              "pages_to_gpu");
    const int32_t nonzeros = read_dump<int32_t>(dir + "/offsets", "row_offsets", 2049).back();
    CHECK(pages == 1 + 2 + 3 + 2 * ((uint64_t(nonzeros) * 4 + 4095) / 4096));
    CHECK(value(uvm, "pages_to_gpu") == pages);
  }
  SECTION("GPU memory oversubscribed: chunks are evicted and the results still match") {
    const std::string small = R"( --set 'uvm={"chunk_bytes": 16384, "gpu_memory_bytes": 65536}')";
    const nlohmann::json uvm = run_managed(dir + "/small", "spmv", "-p gpu_small" + small);
    CHECK(value(uvm, "chunks_allocated") == 4);
    CHECK(value(uvm, "chunks_evicted") > 0);
    CHECK(value(uvm, "pages_to_host") > 0);
    // An evicted chunk's pages all cross back, so every page that came in went out again but
    // those left in the four chunks of four pages at the end.
    CHECK(value(uvm, "bytes_to_host") == value(uvm, "pages_to_host") * 4096);
    CHECK(value(uvm, "pages_to_host") <= value(uvm, "chunks_evicted") * 4);
    REQUIRE(value(uvm, "pages_to_gpu") > value(uvm, "pages_to_host"));
    CHECK(value(uvm, "pages_to_gpu") - value(uvm, "pages_to_host") <= 4 * 4);
    // Same platform, same workload: the same report.
    run_managed(dir + "/again", "spmv", "-p gpu_small" + small);
    CHECK(read_text(dir + "/small/report.json") == read_text(dir + "/again/report.json"));
  }
  SECTION("a short service time: a replayed fault's page is held for it, so spmv still ends") {
    // At 10 ns the next batch used to evict the pages the replays were on their way to.
    const nlohmann::json uvm =
        run_managed(dir + "/quick", "spmv",
                    R"(-p gpu_small --set 'uvm={"chunk_bytes": 16384, "gpu_memory_bytes": 65536, )"
                    R"("fault_service_ns": 10}')");
    CHECK(value(uvm, "chunks_evicted") > 0);
  }
  SECTION("waits of more than a millisecond on the driver are no stall") {
    // Every warp waits for 2 ms on its faults' batch, or on 4 KiB pages at 50 MB/s.
    run_managed(dir + "/slow_service", "vecadd",
                R"(-p gpu_small --set 'uvm={"fault_service_ns": 2000000}')");
    run_managed(dir + "/slow_pcie", "vecadd",
                "-p gpu_small --set host.pcie.bandwidth_gb_per_s=0.05");
    run_managed(dir + "/one_fault_batches", "spmv",
                R"(-p gpu_small --set 'uvm={"fault_batch_size": 1}')");
  }
  SECTION("pre-eviction keeps a chunk free, to host memory and to the neighbours") {
    const nlohmann::json to_host =
        run_managed(dir + "/reserve", "spmv",
                    R"(-p gpu_small --set 'uvm={"chunk_bytes": 16384, "gpu_memory_bytes": 65536, )"
                    R"("reserve_chunks": 1}')");
    CHECK(value(to_host, "chunks_pre_evicted") > 0);
    CHECK(value(to_host, "chunks_pre_evicted") <= value(to_host, "chunks_evicted"));
    const nlohmann::json harvested = run_managed(dir + "/reserve_harvest", "pagerank",
                                                 "-p multi_gpu_huvm --set uvm.reserve_chunks=1");
    CHECK(value(harvested, "chunks_pre_evicted") > 0);
    CHECK(value(harvested, "chunks_harvested") == value(harvested, "chunks_evicted"));
  }
  SECTION("the multi-path prefetcher moves chunks ahead of the faults") {
    const nlohmann::json uvm = run_managed(dir + "/multi_path", "spmv",
                                           "-p multi_gpu_huvm --set uvm.multi_path_chunks=16");
    CHECK(value(uvm, "chunks_prefetched_to_peer") > 0);
  }
  SECTION("parallel fetch brings host pages through the yielding GPUs as well") {
    const nlohmann::json local = run_managed(dir + "/local", "vecadd", "-p multi_gpu_huvm");
    const nlohmann::json parallel =
        run_managed(dir + "/parallel", "vecadd", "-p multi_gpu_huvm --set uvm.parallel_fetch=true");
    CHECK(value(local, "pages_relayed") == 0);
    CHECK(value(parallel, "pages_relayed") > 0);
    CHECK(value(parallel, "pages_relayed") < value(parallel, "pages_to_gpu"));
    CHECK(value(parallel, "pages_to_gpu") == value(local, "pages_to_gpu"));
    CHECK(value(parallel, "bytes_over_nvlink") ==
          value(local, "bytes_over_nvlink") + value(parallel, "pages_relayed") * 4096);
  }
  SECTION("faults replayed block by block") {
    const nlohmann::json batch = run_managed(dir + "/batch", "pagerank", "-p multi_gpu_huvm");
    const nlohmann::json block =
        run_managed(dir + "/block", "pagerank", "-p multi_gpu_huvm --set uvm.replay_policy=block");
    // A block's faults go on when its own pages are in, not when the batch's last copy is done.
    CHECK(block.at("fault_latency").at("min").get<uint64_t>() <
          batch.at("fault_latency").at("min").get<uint64_t>());
  }
  SECTION("kernels launched again after the host reads a flag, on an Ohm-GPU platform") {
    const nlohmann::json uvm =
        run_managed(dir + "/bfs", "bfs", R"(-p ohm_bw_planar --set 'uvm={"chunk_bytes": 16384}')");
    CHECK(value(uvm, "pages_to_host") > 0);  // the flag's page, read between launches
  }
  SECTION("the VCD traces the faults waiting") {
    const CliResult r = run_ohmvp("run -q -p gpu_small --workload " +
                                  shipped("testbenches/workloads/managed/vecadd.json") + " --out " +
                                  dir + "/vcd --vcd " + dir + "/vcd/t.vcd");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::string vcd = read_text(dir + "/vcd/t.vcd");
    CHECK_THAT(vcd, Contains("$scope module uvm $end"));
    CHECK_THAT(vcd, Contains("faults_pending"));
  }
}

TEST_CASE("cli: prefetch steps move managed buffers before the kernel needs them") {
  const std::string dir = scratch_dir("cli_uvm_prefetch");
  auto workload = shipped_kernel_workload("managed/vecadd");
  nlohmann::json steps = nlohmann::json::array();
  for (const char* buffer : {"a", "b", "c"}) steps.push_back({{"prefetch", {{"buffer", buffer}}}});
  for (const auto& launch : workload["launches"]) steps.push_back(launch);
  steps.push_back({{"prefetch", {{"buffer", "c"}, {"to", "host"}}}});
  workload["launches"] = steps;
  write_text(dir + "/prefetched.json", workload.dump());
  const nlohmann::json stats = run_verified(dir + "/out", dir + "/prefetched.json", "-p gpu_small");
  CHECK(value(stats["host.uvm"], "far_faults") == 0);
  CHECK(value(stats["host.uvm"], "host_prefetch_pages") ==
        value(stats["host.uvm"], "pages_to_gpu"));
  CHECK(value(stats["host.uvm"], "pages_to_host") > 0);
  // The same prefetches on streams of their own: the launch on stream 0 waits for them, so again
  // nothing faults.
  auto on_streams = workload;
  for (size_t i = 0; i < 3; ++i) on_streams["launches"][i]["prefetch"]["stream"] = i + 1;
  write_text(dir + "/streams.json", on_streams.dump());
  const nlohmann::json streamed =
      run_verified(dir + "/streams", dir + "/streams.json", "-p gpu_small")["host.uvm"];
  CHECK(value(streamed, "far_faults") == 0);
  CHECK(value(streamed, "host_prefetch_pages") == value(stats["host.uvm"], "host_prefetch_pages"));
  // The pages are there, but each SM walks the page table for the first request to each of them;
  // with no TLB model the same kernel is faster and walks nowhere.
  const auto walks = [](const nlohmann::json& stats) {
    uint64_t sum = 0;
    for (uint32_t sm = 0; sm < 4; ++sm) {
      const nlohmann::json& group = stats.at("gpu.sm" + std::to_string(sm));
      CHECK(value(group, "tlb_misses") >= value(group, "page_walks"));
      sum += value(group, "page_walks");
    }
    return sum;
  };
  CHECK(walks(stats) >= 3);  // a, b and c each have a page at least
  const nlohmann::json free_stats =
      run_verified(dir + "/free", dir + "/prefetched.json", "-p gpu_small --set gpu.tlb.entries=0");
  CHECK(walks(free_stats) == 0);
  CHECK(value(free_stats["host"], "kernel_time") < value(stats["host"], "kernel_time"));
}

TEST_CASE("cli: read-mostly advice keeps host copies of spmv's inputs") {
  const std::string dir = scratch_dir("cli_uvm_advise");
  auto workload = shipped_kernel_workload("managed/spmv");
  nlohmann::json steps = nlohmann::json::array();
  for (const char* buffer : {"row_offsets", "column_indices", "values", "x"})
    steps.push_back({{"advise", {{"buffer", buffer}, {"advice", "read_mostly"}}}});
  for (const auto& launch : workload["launches"]) steps.push_back(launch);
  workload["launches"] = steps;
  write_text(dir + "/advised.json", workload.dump());
  const std::string small = R"( --set 'uvm={"chunk_bytes": 16384, "gpu_memory_bytes": 65536}')";
  // Oversubscribed: evicting the inputs' duplicates moves nothing; only y goes back over PCIe.
  const nlohmann::json plain = run_managed(dir + "/plain", "spmv", "-p gpu_small" + small);
  const nlohmann::json advised =
      run_verified(dir + "/advised", dir + "/advised.json", "-p gpu_small" + small)["host.uvm"];
  CHECK(value(advised, "pages_duplicated") > 0);
  CHECK(value(advised, "pages_dropped") > 0);
  CHECK(value(advised, "duplicates_collapsed") == 0);  // the kernel writes only y
  CHECK(value(advised, "pages_to_host") < value(plain, "pages_to_host"));
  // With memHarvester, only the pages that exist on the GPU alone go to the neighbours.
  const nlohmann::json harvest =
      run_verified(dir + "/harvest", dir + "/advised.json", "-p multi_gpu_huvm")["host.uvm"];
  CHECK(value(harvest, "pages_dropped") > 0);
  // Bad advice is refused with its path.
  workload["launches"][0]["advise"]["advice"] = "read_mosty";
  write_text(dir + "/bad.json", workload.dump());
  const CliResult bad =
      run_ohmvp("run -q -p gpu_small --workload " + dir + "/bad.json --out " + dir + "/bad");
  CHECK(bad.exit_code != 0);
  CHECK_THAT(bad.output, Contains("launches[0].advise.advice: unknown value 'read_mosty'") &&
                             Contains("did you mean 'read_mostly'"));
}

TEST_CASE("cli: accessed-by buffers are used in host memory; atomics bring their pages") {
  const std::string dir = scratch_dir("cli_uvm_remote");
  // The histogram's buffers all managed and accessed by the GPU: its loads and stores cross PCIe
  // without a fault, its global atomics (bins, minimum, maximum) migrate their pages.
  auto workload = shipped_kernel_workload("histogram");
  nlohmann::json steps = nlohmann::json::array();
  for (auto& [name, buffer] : workload["buffers"].items()) {
    buffer["managed"] = true;
    steps.push_back({{"advise", {{"buffer", name}, {"advice", "accessed_by"}}}});
  }
  for (const auto& launch : workload["launches"]) steps.push_back(launch);
  workload["launches"] = steps;
  write_text(dir + "/histogram.json", workload.dump());  // the reference goes by the name
  const nlohmann::json uvm =
      run_verified(dir + "/out", dir + "/histogram.json", "-p gpu_small")["host.uvm"];
  CHECK(value(uvm, "remote_accesses") > 0);
  CHECK(value(uvm, "remote_bytes") >= value(uvm, "remote_accesses") * 32);
  CHECK(value(uvm, "far_faults") > 0);  // the atomics'
  CHECK(value(uvm, "pages_to_gpu") > 0);
}

TEST_CASE("cli: advice is not stream-ordered: it meets the kernels queued before it") {
  const std::string dir = scratch_dir("cli_uvm_advice_order");
  auto workload = shipped("testbenches/workloads/managed/vecadd.json");
  nlohmann::json vecadd = nlohmann::json::parse(read_text(workload));
  vecadd["ptx"] = shipped("testbenches/kernels/vecadd.ptx");
  const nlohmann::json kernel = vecadd["launches"].back();
  REQUIRE(kernel.contains("kernel"));
  const auto remote_accesses = [&](const std::string& name, bool synchronize_first) {
    nlohmann::json steps = nlohmann::json::array();
    steps.push_back({{"advise", {{"buffer", "a"}, {"advice", "accessed_by"}}}});
    steps.push_back(kernel);
    if (synchronize_first) steps.push_back({{"synchronize", nlohmann::json::object()}});
    steps.push_back({{"advise", {{"buffer", "a"}, {"advice", "unset_accessed_by"}}}});
    nlohmann::json w = vecadd;
    w["launches"] = steps;
    write_text(dir + "/" + name + ".json", w.dump());
    return value(
        run_verified(dir + "/" + name, dir + "/" + name + ".json", "-p gpu_small")["host.uvm"],
        "remote_accesses");
  };
  // Unset as soon as the host gets there: the kernel, launched but not yet faulting, never meets
  // the advice; after a synchronize it does.
  CHECK(remote_accesses("unset_at_once", false) == 0);
  CHECK(remote_accesses("unset_after_kernel", true) > 0);
}

TEST_CASE("cli: printf prints a string in managed memory") {
  // tests/data/ptx/device_printf.cu's print_values prints the string it is given with %s.
  const std::string dir = scratch_dir("cli_uvm_printf");
  write_text(dir + "/name.bin", std::string("managed\0", 8));
  nlohmann::json workload = {
      {"ptx", shipped("tests/data/ptx/device_printf.ptx")},
      {"buffers",
       {{"name",
         {{"type", "u8"},
          {"count", 8},
          {"init", {{"file", dir + "/name.bin"}}},
          {"managed", true}}},
        {"values", {{"type", "s32"}, {"count", 3}, {"init", {{"sequence", {{"start", 10}}}}}}}}},
      {"launches",
       {{{"kernel", "print_values"},
         {"grid", {1, 1, 1}},
         {"block", {40, 1, 1}},
         {"args", {{{"buffer", "name"}}, {{"buffer", "values"}}, {{"s32", 3}}}}}}},
      {"outputs", {"values"}}};
  write_text(dir + "/w.json", workload.dump());
  const CliResult r = run_ohmvp("run -q --workload " + dir + "/w.json --out " + dir + "/out");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("[managed] [left  |   tru] 100%"));
}

TEST_CASE("cli: memHarvester: neighbours' memory takes GPU 0's evicted chunks") {
  const std::string dir = scratch_dir("cli_uvm_harvest");
  const auto kernel_time = [&dir](const std::string& name) {
    return nlohmann::json::parse(read_text(dir + "/" + name +
                                           "/report.json"))["stats"]["host"]["kernel_time"]["value"]
        .get<uint64_t>();
  };
  const nlohmann::json harvested = run_managed(dir + "/on", "spmv", "-p multi_gpu_huvm");
  CHECK(value(harvested, "chunks_harvested") == value(harvested, "chunks_evicted"));
  CHECK(value(harvested, "pages_from_peer") > 0);
  CHECK(value(harvested, "harvest_write_backs") > 0);
  const nlohmann::json alone =
      run_managed(dir + "/off", "spmv", "-p multi_gpu_huvm --set uvm.harvest=false");
  CHECK(value(alone, "chunks_harvested") == 0);
  CHECK(value(alone, "bytes_over_nvlink") == 0);
  // NVLink at 40.1 GB/s against PCIe at 12.3: the harvested run is faster.
  CHECK(kernel_time("on") < kernel_time("off"));
}

TEST_CASE("cli: memHarvester: a neighbour's copy older than host memory is never used") {
  const std::string dir = scratch_dir("cli_uvm_harvest_stale");
  // On a slow link a write-back may arrive after its block came back and went to the same
  // neighbour chunk again: it must not pass for the newer copy's, which would let the chunk be
  // reclaimed before that copy reaches host memory.
  run_managed(dir + "/late", "bfs",
              "-p multi_gpu_huvm --time-limit none --set multi_gpu.gpus=2 "
              "--set uvm.gpu_memory_bytes=32768 --set uvm.harvest_bytes=32768 "
              "--set host.pcie.bandwidth_gb_per_s=0.05");
  // y kept in host memory: the GPU's stores land there, after the multi-path prefetcher copied
  // its blocks to a neighbour; the fault that brings a block must not take the older copy.
  auto workload = shipped_kernel_workload("managed/spmv");
  workload["launches"].insert(
      workload["launches"].begin(),
      nlohmann::json{{"advise", {{"buffer", "y"}, {"advice", "preferred_location_host"}}}});
  write_text(dir + "/spmv.json", workload.dump());
  const nlohmann::json uvm = run_verified(dir + "/host_y", dir + "/spmv.json",
                                          "-p multi_gpu_huvm --set uvm.harvest_bytes=16384 "
                                          "--set uvm.multi_path_chunks=16")["host.uvm"];
  CHECK(value(uvm, "chunks_prefetched_to_peer") > 0);
  CHECK(value(uvm, "remote_accesses") > 0);
}

TEST_CASE("cli: bad managed-memory input names its key") {
  const std::string dir = scratch_dir("cli_uvm_errors");
  const std::string out = " --out " + dir + "/out";
  auto workload = shipped_kernel_workload("vecadd");
  SECTION("managed is a boolean") {
    workload["buffers"]["a"]["managed"] = 1;
    write_text(dir + "/w.json", workload.dump());
    require_usage_error(run_ohmvp("run -q --workload " + dir + "/w.json" + out),
                        "buffers.a.managed");
  }
  SECTION("a chunk larger than the GPU's memory") {
    require_usage_error(run_ohmvp("run -q -p ohm_base_planar --workload " +
                                  shipped("testbenches/workloads/managed/vecadd.json") + out),
                        "managed/vecadd.json: buffers.a.managed: managed memory moves in chunks "
                        "of uvm.chunk_bytes, 2097152 bytes on this platform, more than the GPU's "
                        "memory (442368 bytes: ");
    CHECK_FALSE(std::filesystem::exists(dir + "/out"));
  }
  SECTION("harvesting without neighbours") {
    require_usage_error(run_ohmvp(R"(run -q -p gpu_small --set 'uvm={"harvest": true}')" + out),
                        "uvm.harvest: expected neighbour GPUs to harvest memory from "
                        "(multi_gpu.gpus of at least 2)");
  }
  SECTION("several GPUs on a memory-only platform") {
    require_usage_error(run_ohmvp(R"(run -q -p ddr4_2400 --set 'multi_gpu={"gpus": 2}')" + out),
                        "multi_gpu.gpus: is 2; GPUs need a \"gpu\" section");
  }
  SECTION("an unknown replay policy") {
    const CliResult r = run_ohmvp("run -q -p multi_gpu_huvm --set uvm.replay_policy=flush" + out);
    require_usage_error(r, "uvm.replay_policy");
    CHECK_THAT(r.output, Contains("batch"));
  }
  SECTION("a misspelt uvm key") {
    require_usage_error(run_ohmvp(R"(run -q -p gpu_small --set 'uvm={"chunk_byte": 4096}')" + out),
                        "unknown key 'chunk_byte' at uvm; did you mean 'chunk_bytes'?");
  }
  CHECK_FALSE(std::filesystem::exists(dir + "/out"));
}
