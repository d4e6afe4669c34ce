#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "modules/common/errors.h"
#include "modules/gpu/ptx/ptx_parser.h"
#include "modules/host/functional_workload_executor.h"
#include "modules/host/gpu_workload.h"
#include "modules/host/simd_efficiency_experiment.h"
#include "testbenches/references/reference.h"
#include "tests/unit/gpu_workload_fixture.h"

using namespace ohmvp;
using namespace ohmvp::reference;
using ohmvp::test::TempFolder;
namespace fs = std::filesystem;

TEST_CASE("every shipped kernel workload runs functionally and matches its reference",
          "[coverify]") {
  const std::vector<fs::path> files = kernel_workload_files(test::workloads_dir());
  CHECK(files.size() == 19);
  for (const fs::path& file : files) {
    INFO(file.filename().string());
    const GpuWorkload workload = load_gpu_workload(file);
    const Reference* reference = find_reference(workload.name);
    REQUIRE(reference != nullptr);
    const BufferBytes expected = compute_expected(*reference, workload, initial_buffers(workload));
    FunctionalRun run;
    try {
      run = run_workload_functionally(workload);
    } catch (const std::exception& error) {
      FAIL(error.what());
    }
    const Comparison comparison = compare_outputs(*reference, workload, expected, run.outputs);
    INFO(comparison.message);
    CHECK(comparison.matches);
    CHECK(run.launches > 0);
    CHECK(run.totals.warp_instructions > 0);
    CHECK(run.totals.thread_instructions <= run.totals.active_lanes);
    CHECK(run.totals.simd_efficiency() > 0.0);
    CHECK(run.totals.simd_efficiency() <= 1.0);
  }
}

TEST_CASE("functional workload runs are deterministic and the same at every warp size",
          "[coverify]") {
  const GpuWorkload workload = load_gpu_workload(test::workloads_dir() / "divergence_parity.json");
  const FunctionalRun at32 = run_workload_functionally(workload, 32);
  CHECK(run_workload_functionally(workload, 32).outputs == at32.outputs);
  const FunctionalRun at8 = run_workload_functionally(workload, 8);
  CHECK(at8.outputs == at32.outputs);
  CHECK(at8.totals.warp_size == 8);
  CHECK(at8.totals.warp_instructions > at32.totals.warp_instructions);
  CHECK_THROWS_AS(run_workload_functionally(workload, 3), ConfigError);
}

namespace {

GpuWorkload vecadd_with_args(const TempFolder& folder, const std::string& args) {
  nlohmann::json json = test::example_workload();
  json["launches"][0]["args"] = nlohmann::json::parse(args);
  return parse_gpu_workload(json, folder.path() / "w.json");
}

std::string config_error_of(const GpuWorkload& workload) {
  try {
    run_workload_functionally(workload);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no ConfigError";
}

}  // namespace

TEST_CASE("functional executor checks arguments against the kernel's .param layout", "[coverify]") {
  TempFolder folder;
  SECTION("too few arguments") {
    const std::string message = config_error_of(
        vecadd_with_args(folder, R"([{"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"}])"));
    CHECK(message.find("launch of 'vecadd': the kernel takes 4 parameters, the workload passes 3 "
                       "arguments") != std::string::npos);
  }
  SECTION("a scalar of the wrong width") {
    const std::string message = config_error_of(vecadd_with_args(
        folder, R"([{"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"}, {"u64": 1024}])"));
    CHECK(message.find("argument 3 is a scalar of 8 bytes, parameter 'vecadd_param_3' takes 4") !=
          std::string::npos);
  }
  SECTION("a scalar where a pointer goes") {
    const std::string message = config_error_of(
        vecadd_with_args(folder, R"([{"u32": 1}, {"buffer": "b"}, {"buffer": "c"}, {"u32": 4}])"));
    CHECK(message.find("argument 0 is a scalar of 4 bytes, parameter 'vecadd_param_0' takes 8") !=
          std::string::npos);
  }
  SECTION("an unknown kernel") {
    nlohmann::json json = test::example_workload();
    json["launches"][0]["kernel"] = "nope";
    const std::string message = config_error_of(parse_gpu_workload(json, folder.path() / "w.json"));
    CHECK(message.find("has no kernel 'nope'") != std::string::npos);
  }
}

TEST_CASE("functional executor: copy, fill and read_element act on device memory", "[coverify]") {
  TempFolder folder;
  const GpuWorkload workload =
      parse_gpu_workload(test::example_workload(), folder.path() / "w.json");
  const gpu::Module module = gpu::load_ptx_file(workload.ptx.string());
  FunctionalWorkloadExecutor executor(workload, module, 16);
  executor.fill("c", 0x3f800000);  // 1.0f
  CHECK(executor.read_element("c", 1023) == 0x3f800000);
  executor.copy("c", "a");
  CHECK(executor.read_buffer("a") == executor.read_buffer("c"));
  CHECK_THROWS_AS(executor.read_element("c", 1024), ConfigError);
  CHECK_THROWS_AS(executor.read_element("nope", 0), ConfigError);
  // a + b with a = 1.0 everywhere, b from its seed.
  run_workload_steps(workload, executor);
  const std::vector<uint8_t> b = initial_bytes(workload, *workload.find_buffer("b"));
  float b0, c0;
  std::memcpy(&b0, b.data(), 4);
  const uint64_t c_bits = executor.read_element("c", 0);
  std::memcpy(&c0, &c_bits, 4);
  CHECK(c0 == 1.0f + b0);
  CHECK(executor.launches() == 1);
  CHECK(executor.totals().warp_instructions > 0);
}

// div_parity over 8192 threads, every warp holding even and odd lanes (warp size even). Per warp,
// from divergence.ptx: 9 instructions up to `@%p1 bra` and 11 up to `@%p5 bra` with every lane
// active; the even lanes' path (12 operations and `bra.uni`, 13) and the odd lanes' (`bra.uni`
// and `mad`, 2) with half the lanes; then 4 instructions and `ret` (5) with all. So 40 warp
// instructions and 32.5 x W active lanes per warp, efficiency 32.5 / 40 at any even warp size;
// thread instructions leave out the lanes of `@%p1 bra` (none true) and half of `@%p5 bra`: 31 x W.
TEST_CASE("SIMD efficiency experiment: div_parity at warp sizes 4 and 32", "[coverify]") {
  const std::vector<SimdEfficiencyRow> rows =
      measure_simd_efficiency({test::workloads_dir() / "divergence_parity.json"}, {32, 4});
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].workload == "divergence_parity");
  CHECK(rows[0].warp_size == 4);
  CHECK(rows[0].warp_instructions == 2048 * 40);
  CHECK(rows[0].active_lanes == 2048 * 130);
  CHECK(rows[0].thread_instructions == 2048 * 124);
  CHECK(rows[0].simd_efficiency == 0.8125);
  CHECK(rows[1].warp_size == 32);
  CHECK(rows[1].warp_instructions == 256 * 40);
  CHECK(rows[1].active_lanes == 256 * 1040);
  CHECK(rows[1].thread_instructions == 256 * 992);
  CHECK(rows[1].simd_efficiency == 0.8125);
  const std::string csv = simd_efficiency_csv(rows);
  CHECK(csv.find("divergence_parity,4,81920,253952,266240,0.812500\n") != std::string::npos);
  const std::string table = simd_efficiency_table(rows);
  CHECK(table.find("| divergence_parity | 0.812 | 0.812 |") != std::string::npos);
}
