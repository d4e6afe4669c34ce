// Co-verification on the full platforms: every shipped kernel workload runs through the ohmvp
// executable (PTX, SMs, caches, crossbar, L2, memory controllers, DRAM, PCIe copies) with
// --verify, and its outputs must match the C++ reference.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "modules/common/config_document.h"
#include "modules/common/json_file.h"
#include "modules/gpu/ptx/ptx_parser.h"
#include "modules/host/gpu_workload.h"
#include "modules/host/workload_architecture.h"
#include "platforms/platform_config.h"
#include "tests/cli/cli_runner.h"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> kernel_workloads() {
  std::vector<fs::path> files;
  for (const auto& entry :
       fs::directory_iterator(fs::path(OHMVP_SOURCE_DIR) / "testbenches" / "workloads"))
    if (entry.path().extension() == ".json" &&
        ohmvp::is_kernel_workload(ohmvp::load_json_file(entry.path())))
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

ohmvp::gpu::ComputeCapability platform_capability(const std::string& platform) {
  const fs::path configs = fs::path(OHMVP_SOURCE_DIR) / "configs";
  const ohmvp::PlatformConfig config = ohmvp::parse_platform(
      ohmvp::ConfigDocument::load(configs / "platforms" / (platform + ".json"), {configs}));
  REQUIRE(config.gpu);
  return config.gpu->compute_capability;
}

// A workload whose kernels need a later compute capability than the platform's GPU has is not
// run: the test says so (a warning in the output) and checks that ohmvp refuses it, naming what
// it needs.
void check_refused(const std::string& platform, const fs::path& file,
                   const ohmvp::GpuWorkload& workload, ohmvp::gpu::ComputeCapability needed,
                   ohmvp::gpu::ComputeCapability has) {
  using ohmvp::gpu::capability_name;
  WARN("not run on " << platform << ": " << workload.name << " needs compute capability "
                     << capability_name(needed) << ", the platform's GPU is "
                     << capability_name(has));
  const std::string dir = scratch_dir(platform + "_" + workload.name);
  const CliResult run =
      run_ohmvp("run -q --platform " + platform + " --workload " + file.string() + " --out " + dir);
  INFO(run.output);
  CHECK(run.exit_code == 2);
  CHECK_THAT(run.output, Catch::Contains("needs compute capability " + capability_name(needed)) &&
                             Catch::Contains("this GPU is " + capability_name(has)));
  fs::remove_all(dir);
}

// Every shipped kernel workload on `platform`, or only those whose name starts with `prefix`,
// and the `extra` workload files whatever their names.
// `on_gpu_1`: each workload runs on GPU 1 too, beside GPU 0 (--gpu-workload), and is checked there.
void check_platform(const std::string& platform, const std::string& prefix = "",
                    const std::vector<fs::path>& extra = {}, bool on_gpu_1 = false) {
  std::vector<fs::path> files = kernel_workloads();
  REQUIRE(files.size() >= 14);
  const size_t shipped = files.size();
  files.insert(files.end(), extra.begin(), extra.end());
  const ohmvp::gpu::ComputeCapability has = platform_capability(platform);
  for (size_t i = 0; i < files.size(); ++i) {
    const fs::path& file = files[i];
    const ohmvp::GpuWorkload workload = ohmvp::load_gpu_workload(file);
    if (i < shipped && workload.name.rfind(prefix, 0) != 0) continue;
    const ohmvp::gpu::ComputeCapability needed =
        ohmvp::workload_capability(workload, ohmvp::gpu::load_ptx_file(workload.ptx.string()));
    if (needed > has) {
      SECTION(platform + " " + workload.name + " (refused)") {
        check_refused(platform, file, workload, needed, has);
      }
      continue;
    }
    SECTION(platform + " " + workload.name) {
      const std::string dir = scratch_dir(platform + "_" + workload.name);
      const std::string beside = on_gpu_1 ? " --gpu-workload 1=" + file.string() : "";
      const CliResult run = run_ohmvp("run -q --verify --platform " + platform + " --workload " +
                                      file.string() + beside + " --out " + dir);
      INFO(run.output);
      CHECK(run.exit_code == 0);
      const auto report = nlohmann::json::parse(read_text(dir + "/report.json"));
      REQUIRE(report.contains("verification"));
      INFO(report["verification"]["message"].get<std::string>());
      CHECK(report["verification"]["matches"] == true);
      if (on_gpu_1) CHECK(report["other_gpus"][0]["verification"]["matches"] == true);
      fs::remove_all(dir);
    }
  }
}

}  // namespace

// One test case per platform, each tagged with the platform's name: tests/CMakeLists.txt runs
// each as a CTest test of its own, so that they run in parallel.
TEST_CASE("every shipped kernel matches its reference on the default GPU platform",
          "[coverify][gpu_small]") {
  check_platform("gpu_small");
}

TEST_CASE("every shipped kernel matches its reference on the Ohm-GPU platform",
          "[coverify][ohm_gpu]") {
  check_platform("ohm_gpu");
}

// The heterogeneous platforms (docs/hetero_memory.md): the data goes through the manager, and in
// planar mode mostly through XPoint, in two-level mode through the DRAM cache's fills; the oracle
// and origin baselines hold it all in DRAM.
TEST_CASE("every shipped kernel matches its reference on hetero_planar",
          "[coverify][hetero_planar]") {
  check_platform("hetero_planar");
}

TEST_CASE("every shipped kernel matches its reference on hetero_two_level",
          "[coverify][hetero_two_level]") {
  check_platform("hetero_two_level");
}

TEST_CASE("every shipped kernel matches its reference on oracle_planar",
          "[coverify][oracle_planar]") {
  check_platform("oracle_planar");
}

TEST_CASE("every shipped kernel matches its reference on oracle_two_level",
          "[coverify][oracle_two_level]") {
  check_platform("oracle_two_level");
}

TEST_CASE("every shipped kernel matches its reference on origin_planar",
          "[coverify][origin_planar]") {
  check_platform("origin_planar");
}

TEST_CASE("every shipped kernel matches its reference on origin_two_level",
          "[coverify][origin_two_level]") {
  check_platform("origin_two_level");
}

// Ohm-base (docs/optical.md): hetero_planar / hetero_two_level with the data on the optical
// channel's virtual channels instead of the electrical wires.
TEST_CASE("every shipped kernel matches its reference on ohm_base_planar",
          "[coverify][ohm_base_planar]") {
  check_platform("ohm_base_planar");
}

TEST_CASE("every shipped kernel matches its reference on ohm_base_two_level",
          "[coverify][ohm_base_two_level]") {
  check_platform("ohm_base_two_level");
}

TEST_CASE("every shipped kernel matches its reference on auto_rw_planar",
          "[coverify][auto_rw_planar]") {
  check_platform("auto_rw_planar");
}

TEST_CASE("every shipped kernel matches its reference on auto_rw_two_level",
          "[coverify][auto_rw_two_level]") {
  check_platform("auto_rw_two_level");
}

TEST_CASE("every shipped kernel matches its reference on ohm_wom_planar",
          "[coverify][ohm_wom_planar]") {
  check_platform("ohm_wom_planar");
}

TEST_CASE("every shipped kernel matches its reference on ohm_wom_two_level",
          "[coverify][ohm_wom_two_level]") {
  check_platform("ohm_wom_two_level");
}

TEST_CASE("every shipped kernel matches its reference on ohm_bw_planar",
          "[coverify][ohm_bw_planar]") {
  check_platform("ohm_bw_planar");
}

TEST_CASE("every shipped kernel matches its reference on ohm_bw_two_level",
          "[coverify][ohm_bw_two_level]") {
  check_platform("ohm_bw_two_level");
}

// The tensor-core workloads on the GPUs whose tensor cores the presets model, with the integer
// GEMMs kept out of testbenches/workloads. Volta (sm_70) refuses them (integer wmma needs sm_72,
// the 4-bit mode sm_75).
namespace {
std::vector<fs::path> integer_gemms() {
  const fs::path data = fs::path(OHMVP_SOURCE_DIR) / "tests" / "data" / "workloads";
  return {data / "wmma_gemm_s8.json", data / "wmma_gemm_s4.json"};
}
}  // namespace

TEST_CASE("the tensor-core kernels match their reference on titanv", "[coverify][titanv]") {
  check_platform("titanv", "wmma_", integer_gemms());
}

TEST_CASE("the tensor-core kernels match their reference on turing", "[coverify][turing]") {
  // Turing's integer and 4-bit modes too, and Volta's mma.sync.m8n8k4, which sm_75 still runs.
  std::vector<fs::path> files = integer_gemms();
  files.push_back(fs::path(OHMVP_SOURCE_DIR) / "testbenches" / "workloads" / "volta_mma_gemm.json");
  check_platform("turing", "wmma_", files);
}

// The multi-GPU platform: the shipped kernels on GPUs 0 and 1 side by side with GPUs 2 and 3 idle,
// and the managed workloads with GPU 0's memory oversubscribed and its evicted chunks harvested by
// GPUs 1 to 3 while GPU 1 runs the same workload with its own memory oversubscribed (docs/uvm.md).
TEST_CASE("every shipped kernel and managed workload matches its reference on multi_gpu_huvm",
          "[coverify][multi_gpu_huvm]") {
  std::vector<fs::path> managed;
  for (const auto& entry :
       fs::directory_iterator(fs::path(OHMVP_SOURCE_DIR) / "testbenches" / "workloads" / "managed"))
    managed.push_back(entry.path());
  std::sort(managed.begin(), managed.end());
  REQUIRE(managed.size() == 4);
  check_platform("multi_gpu_huvm", "", managed, true);
}

// Hidden (not run by ctest, about 4 minutes): the 1024^3 GEMM of docs/results.md on titanv.
// `build/tests/coverify_tests "[large]"`.
TEST_CASE("the 1024^3 tensor-core GEMM matches its reference on titanv", "[.][large][tensor]") {
  check_platform(
      "titanv", "wmma_gemm_1024",
      {fs::path(OHMVP_SOURCE_DIR) / "testbenches" / "workloads" / "large" / "wmma_gemm_1024.json"});
}
