#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

#include "modules/common/errors.h"
#include "modules/gpu/ptx/ptx_parser.h"
#include "modules/gpu/simt/device_memory.h"
#include "modules/gpu/simt/functional_executor.h"
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
  // The 24 that ship (docs/workloads.md): none goes missing unnoticed.
  CHECK(files.size() == 24);
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

TEST_CASE("every shipped workload for any warp size matches its reference at 4 and 64 lanes",
          "[coverify]") {
  // What docs/results.md's SIMD-efficiency table claims: the outputs do not depend on the width.
  for (const fs::path& file : kernel_workload_files(test::workloads_dir())) {
    if (!runs_at_any_warp_size(file)) continue;
    const GpuWorkload workload = load_gpu_workload(file);
    const Reference* reference = find_reference(workload.name);
    REQUIRE(reference != nullptr);
    const BufferBytes expected = compute_expected(*reference, workload, initial_buffers(workload));
    for (const uint32_t warp_size : {4u, 64u}) {
      INFO(file.filename().string() << " at warp size " << warp_size);
      const Comparison comparison = compare_outputs(
          *reference, workload, expected, run_workload_functionally(workload, warp_size).outputs);
      INFO(comparison.message);
      CHECK(comparison.matches);
    }
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
    CHECK(message.find("launches[0]: launch of 'vecadd': kernel 'vecadd' takes 4 arguments; the "
                       "launch gives 3") != std::string::npos);
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
  SECTION("a cooperative launch, which runs only timed") {
    nlohmann::json json = test::example_workload();
    json["launches"][0]["cooperative"] = true;
    const std::string message = config_error_of(parse_gpu_workload(json, folder.path() / "w.json"));
    CHECK(message.find("w.json: launches[0]: launch of 'vecadd': a cooperative launch needs its "
                       "blocks resident together") != std::string::npos);
    CHECK(message.find("launch of 'vecadd': launch of") == std::string::npos);
  }
  SECTION("an unknown kernel") {
    nlohmann::json json = test::example_workload();
    json["launches"][0]["kernel"] = "nope";
    const std::string message = config_error_of(parse_gpu_workload(json, folder.path() / "w.json"));
    CHECK(message.find("w.json: launches[0]: launch of 'nope': ") != std::string::npos);
    CHECK(message.find("no kernel (.entry) named 'nope'; it has 'vecadd'") != std::string::npos);
  }
}

TEST_CASE("functional executor: copy, fill and read_element act on device memory", "[coverify]") {
  TempFolder folder;
  const GpuWorkload workload =
      parse_gpu_workload(test::example_workload(), folder.path() / "w.json");
  const gpu::Module module = gpu::load_ptx_file(workload.ptx.string());
  FunctionalWorkloadExecutor executor(workload, module, 16);
  executor.fill("c", 0x3f800000, std::nullopt);  // 1.0f
  CHECK(executor.read_element("c", 1023) == 0x3f800000);
  executor.copy("c", "a", std::nullopt);
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

TEST_CASE("SIMD efficiency experiment: tensor-core workloads are tied to 32-lane warps",
          "[coverify]") {
  CHECK(runs_at_any_warp_size(test::workloads_dir() / "vecadd.json"));
  CHECK(runs_at_any_warp_size(test::workloads_dir() / "divergence_loop.json"));
  CHECK_FALSE(runs_at_any_warp_size(test::workloads_dir() / "wmma_gemm.json"));
  CHECK_FALSE(runs_at_any_warp_size(test::workloads_dir() / "wmma_peak.json"));
  CHECK_FALSE(runs_at_any_warp_size(test::workloads_dir() / "volta_mma_gemm.json"));
}

// The instructions the parser and the interpreter were written apart for, from PTX text through
// the functional executor: one warp of 8 threads, lane t writes 8 results to out[8t..8t+7].
TEST_CASE("parsed shf, testp, redux.sync, prmt modes and bar.warp.sync execute", "[coverify]") {
  const gpu::Module module = gpu::parse_ptx(R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry seams(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<16>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 32;
  add.s64 %rd3, %rd1, %rd2;
  shf.l.wrap.b32 %r2, 0x89abcdef, 0x01234567, %r1;
  st.global.u32 [%rd3], %r2;
  shf.r.clamp.b32 %r3, 0x89abcdef, 0x01234567, 36;
  st.global.u32 [%rd3+4], %r3;
  redux.sync.add.u32 %r4, %r1, -1;
  st.global.u32 [%rd3+8], %r4;
  add.s32 %r5, %r1, -3;
  redux.sync.min.s32 %r6, %r5, -1;
  st.global.u32 [%rd3+12], %r6;
  prmt.b32.b4e %r7, 0x33221100, 0x77665544, 1;
  st.global.u32 [%rd3+16], %r7;
  cvt.rn.f32.u32 %f1, %r1;
  div.rn.f32 %f2, 0f00000000, %f1;
  testp.notanumber.f32 %p1, %f2;
  selp.u32 %r8, 1, 0, %p1;
  st.global.u32 [%rd3+20], %r8;
  setp.lt.u32 %p2, %r1, 4;
  @%p2 bra SKIP;
  bar.warp.sync -1;
  redux.sync.or.b32 %r9, %r1, -1;
  st.global.u32 [%rd3+24], %r9;
SKIP:
  bar.warp.sync -1;
  ret;
}
)",
                                            "seams.ptx");
  gpu::DeviceMemory memory;
  gpu::FunctionalExecutor executor(module, memory, 8);
  const uint64_t out = memory.allocate(8 * 32);
  gpu::LaunchParams launch;
  launch.kernel = "seams";
  launch.block = {8, 1, 1};
  launch.arguments.resize(8);
  std::memcpy(launch.arguments.data(), &out, 8);
  executor.launch(launch);
  std::vector<uint32_t> got(8 * 8);
  REQUIRE(memory.read(out, got.data(), got.size() * 4));
  for (uint32_t t = 0; t < 8; ++t) {
    INFO("thread " << t);
    const uint64_t pair = (uint64_t{0x01234567} << 32) | 0x89abcdef;
    CHECK(got[8 * t + 0] == static_cast<uint32_t>((pair << t) >> 32));
    CHECK(got[8 * t + 1] == 0x01234567);
    CHECK(got[8 * t + 2] == 28);                                // 0 + 1 + ... + 7
    CHECK(got[8 * t + 3] == static_cast<uint32_t>(-3));         // min(t - 3)
    CHECK(got[8 * t + 4] == 0x66770011);                        // b4e, selector 1: bytes 1 0 7 6
    CHECK(got[8 * t + 5] == (t == 0 ? 1u : 0u));                // 0 / 0 is NaN
    CHECK(got[8 * t + 6] == (t < 4 ? 0u : 4u | 5u | 6u | 7u));  // only lanes 4..7 reduce
  }
}

namespace {

// Runs the workload in `file` functionally and checks its outputs against its reference.
void check_against_reference(const std::filesystem::path& file) {
  INFO(file.filename().string());
  const GpuWorkload workload = load_gpu_workload(file);
  const Reference* reference = find_reference(workload.name);
  REQUIRE(reference != nullptr);
  const BufferBytes expected = compute_expected(*reference, workload, initial_buffers(workload));
  const FunctionalRun run = run_workload_functionally(workload);
  const Comparison comparison = compare_outputs(*reference, workload, expected, run.outputs);
  INFO(comparison.message);
  CHECK(comparison.matches);
}

}  // namespace

TEST_CASE("the int8 and 4-bit tensor-core GEMMs (Turing only so not shipped) match references",
          "[coverify][tensor]") {
  for (const char* name : {"wmma_gemm_s8.json", "wmma_gemm_s4.json"})
    check_against_reference(std::filesystem::path(OHMVP_SOURCE_DIR) / "tests" / "data" /
                            "workloads" / name);
}

// Hidden (not run by ctest): the 1024^3 GEMM of docs/results.md, functionally, against its
// reference. `build/tests/unit_tests "[large]"`.
TEST_CASE("the 1024^3 tensor-core GEMM matches its reference", "[.][large][tensor]") {
  check_against_reference(test::workloads_dir() / "large" / "wmma_gemm_1024.json");
}

namespace {

// A workload of one launch of `kernel` (tests/data/ptx/`ptx`) on one CTA of `threads` threads.
nlohmann::json fixture_workload(const std::string& ptx, const nlohmann::json& buffers,
                                const std::string& kernel, unsigned threads,
                                const nlohmann::json& args, const nlohmann::json& outputs) {
  return {{"type", "kernel"},
          {"ptx", (fs::path(OHMVP_SOURCE_DIR) / "tests" / "data" / "ptx" / ptx).string()},
          {"buffers", buffers},
          {"launches",
           {{{"kernel", kernel}, {"grid", {1, 1, 1}}, {"block", {threads, 1, 1}}, {"args", args}}}},
          {"outputs", outputs}};
}

FunctionalRun run_fixture(const TempFolder& folder, const nlohmann::json& workload) {
  return run_workload_functionally(load_gpu_workload(folder.write("w.json", workload.dump())));
}

// Output `name` of a run as values of T.
template <class T>
std::vector<T> output_values(const FunctionalRun& run, const std::string& name) {
  const std::vector<uint8_t>& bytes = run.outputs.at(name);
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

}  // namespace

TEST_CASE("functional executor: linear filtering of 1-D and 3-D textures", "[coverify]") {
  // tests/data/ptx/textures.cu sample1d on texels 0..7, and sample3d on a 4 x 4 x 4 texture
  // whose texel (x, y, z) holds 16 z + 4 y + x: a blend of texels i = floor(x - 0.5) and i + 1 on
  // each axis, weights in 1/256 steps (here quarters, so exact).
  const auto coordinates = [](const std::vector<float>& values) {
    return nlohmann::json{
        {"type", "f32"},
        {"count", values.size()},
        {"init", {{"sequence", {{"start", values[0]}, {"step", values[1] - values[0]}}}}}};
  };
  TempFolder folder;
  const nlohmann::json one_d = fixture_workload(
      "textures.ptx",
      {{"texels", {{"type", "f32"}, {"count", 8}, {"init", {{"sequence", {{"start", 0}}}}}}},
       {"xs", coordinates({2.75f, 7.75f})},  // 2.25; then 7 (clamped), 7 (clamped)
       {"out", {{"type", "f32"}, {"count", 2}}}},
      "sample1d", 32,
      {{{"texture", {{"buffer", "texels"}, {"width", 8}, {"filter", "linear"}}}},
       {{"buffer", "xs"}},
       {{"buffer", "out"}},
       {{"s32", 2}}},
      {"out"});
  std::vector<float> out = output_values<float>(run_fixture(folder, one_d), "out");
  CHECK(out[0] == 2.25f);
  CHECK(out[1] == 7.0f);

  const nlohmann::json three_d = fixture_workload(
      "textures.ptx",
      {{"texels", {{"type", "f32"}, {"count", 64}, {"init", {{"sequence", {{"start", 0}}}}}}},
       {"xs", coordinates({1.75f, 0.25f})},
       {"ys", coordinates({2.5f, 3.5f})},
       {"zs", coordinates({1.25f, 4.25f})},
       {"out", {{"type", "f32"}, {"count", 2}}}},
      "sample3d", 32,
      {{{"texture",
         {{"buffer", "texels"},
          {"width", 4},
          {"height", 4},
          {"depth", 4},
          {"filter", "linear"},
          {"address", "border"}}}},
       {{"buffer", "xs"}},
       {{"buffer", "ys"}},
       {{"buffer", "zs"}},
       {{"buffer", "out"}},
       {{"s32", 2}}},
      {"out"});
  out = output_values<float>(run_fixture(folder, three_d), "out");
  // (1.75, 2.5, 1.25): 16 * 0.75 + 4 * 2 + 1.25. (0.25, 3.5, 4.25): x takes 3/4 of column 0 and
  // 1/4 of the border, z 1/4 of slice 3 and 3/4 of the border: 3/16 of texel (0, 3, 3) = 60.
  CHECK(out[0] == 21.25f);
  CHECK(out[1] == 11.25f);
}

TEST_CASE("functional executor: surface reads and writes with their boundary modes", "[coverify]") {
  // tests/data/ptx/surfaces.cu bounds1d: thread t reads int element t - 2 clamped and zeroed
  // outside the 8-element surface, and writes t there with the zero mode (outside: dropped).
  const nlohmann::json buffers = {
      {"in", {{"type", "s32"}, {"count", 8}, {"init", {{"sequence", {{"start", 100}}}}}}},
      {"out", {{"type", "s32"}, {"count", 8}, {"init", {{"value", -1}}}}},
      {"clamped", {{"type", "s32"}, {"count", 12}}},
      {"zeroed", {{"type", "s32"}, {"count", 12}}}};
  TempFolder folder;
  const FunctionalRun run =
      run_fixture(folder, fixture_workload("surfaces.ptx", buffers, "bounds1d", 12,
                                           {{{"surface", {{"buffer", "in"}, {"width", 8}}}},
                                            {{"surface", {{"buffer", "out"}, {"width", 8}}}},
                                            {{"buffer", "clamped"}},
                                            {{"buffer", "zeroed"}}},
                                           {"out", "clamped", "zeroed"}));
  const std::vector<int32_t> out = output_values<int32_t>(run, "out");
  const std::vector<int32_t> clamped = output_values<int32_t>(run, "clamped");
  const std::vector<int32_t> zeroed = output_values<int32_t>(run, "zeroed");
  for (int t = 0; t < 12; ++t) {
    INFO("thread " << t);
    CHECK(clamped[t] == 100 + std::clamp(t - 2, 0, 7));
    CHECK(zeroed[t] == (t >= 2 && t < 10 ? 98 + t : 0));
  }
  for (int i = 0; i < 8; ++i) CHECK(out[i] == i + 2);

  // A surface where the kernel takes an int.
  CHECK_THROWS_WITH(
      run_fixture(folder, fixture_workload("surfaces.ptx", buffers, "trap1d", 12,
                                           {{{"surface", {{"buffer", "in"}, {"width", 8}}}},
                                            {{"buffer", "clamped"}},
                                            {{"surface", {{"buffer", "out"}, {"width", 8}}}}},
                                           {"out", "clamped", "zeroed"})),
      Catch::Contains("argument 2 is a surface (an 8-byte handle) of 8 bytes"));
}

TEST_CASE("functional executor: layered textures and cubemaps", "[coverify]") {
  // tests/data/ptx/layered_textures.cu.
  TempFolder folder;
  const auto sequence = [](int count) {
    return nlohmann::json{
        {"type", "f32"}, {"count", count}, {"init", {{"sequence", {{"start", 0}}}}}};
  };
  // sample_a1d on 3 layers of 4 texels holding 0..11, at x + 0.75 linearly: a quarter of the
  // next texel of the same layer, none at the last (clamped) texel.
  const nlohmann::json one_d = fixture_workload(
      "layered_textures.ptx", {{"texels", sequence(12)}, {"out", {{"type", "f32"}, {"count", 12}}}},
      "sample_a1d", 32,
      {{{"texture", {{"buffer", "texels"}, {"width", 4}, {"layers", 3}, {"filter", "linear"}}}},
       {{"buffer", "out"}},
       {{"s32", 4}},
       {{"s32", 12}},
       {{"f32", 0.75}}},
      {"out"});
  const std::vector<float> blended = output_values<float>(run_fixture(folder, one_d), "out");
  for (int i = 0; i < 12; ++i) {
    INFO("texel " << i);
    CHECK(blended[i] == float(i) + (i % 4 == 3 ? 0.0f : 0.25f));
  }
  // cube_texels: each texel's centre direction reads that texel back, one cubemap and two layers.
  for (const int layers : {0, 2}) {
    INFO("layers " << layers);
    const int count = 4 * 4 * 6 * std::max(layers, 1);
    nlohmann::json texture = {{"buffer", "cube"}, {"width", 4}, {"height", 4}, {"cubemap", true}};
    if (layers) texture["layers"] = layers;
    const nlohmann::json cube = fixture_workload(
        "layered_textures.ptx",
        {{"cube", sequence(count)}, {"out", {{"type", "f32"}, {"count", count}}}}, "cube_texels",
        count, {{{"texture", texture}}, {{"buffer", "out"}}, {{"s32", 4}}, {{"s32", layers}}},
        {"out"});
    const std::vector<float> texels = output_values<float>(run_fixture(folder, cube), "out");
    for (int i = 0; i < count; ++i) {
      INFO("texel " << i);
      CHECK(texels[i] == float(i));
    }
  }
}

TEST_CASE("functional executor: kernels launched from the device", "[coverify]") {
  // tests/data/ptx/device_launch.cu (built with -rdc=true).
  TempFolder folder;
  const auto ints = [](int count, int start) {
    return nlohmann::json{
        {"type", "s32"}, {"count", count}, {"init", {{"sequence", {{"start", start}}}}}};
  };
  // per_block: block b's thread 0 launches add_base on elements [64 b, 64 b + 64).
  nlohmann::json per_block =
      fixture_workload("device_launch.ptx", {{"data", ints(256, 0)}}, "per_block", 32,
                       {{{"buffer", "data"}}, {{"s32", 64}}}, {"data"});
  per_block["launches"][0]["grid"] = {4, 1, 1};
  const FunctionalRun run = run_fixture(folder, per_block);
  const std::vector<int32_t> data = output_values<int32_t>(run, "data");
  for (int i = 0; i < 256; ++i) CHECK(data[i] == i + i / 64 * 64);
  CHECK(run.launches == 1);  // the host's; the device's grids are inside it
  // A heap of two parameter buffers: blocks 2 and 3 get NULL and launch nothing, as CUDA's
  // device launch fails when its pool is full.
  per_block["limits"] = {{"malloc_heap_bytes", 32}};
  const std::vector<int32_t> two = output_values<int32_t>(run_fixture(folder, per_block), "data");
  for (int i = 0; i < 256; ++i) CHECK(two[i] == (i / 64 == 1 ? i + 64 : i));
  // The blocks that got no buffer read cudaErrorLaunchPendingCountExceeded (69) from
  // cudaPeekAtLastError and cudaGetLastError, then cudaSuccess.
  nlohmann::json errors = fixture_workload(
      "device_launch.ptx", {{"data", ints(64, 0)}, {"errors", {{"type", "s32"}, {"count", 12}}}},
      "launch_errors", 32, {{{"buffer", "data"}}, {{"buffer", "errors"}}}, {"errors"});
  errors["launches"][0]["grid"] = {4, 1, 1};
  errors["limits"] = {{"malloc_heap_bytes", 32}};
  const std::vector<int32_t> codes = output_values<int32_t>(run_fixture(folder, errors), "errors");
  CHECK(codes == std::vector<int32_t>{0, 0, 0, 0, 0, 0, 69, 69, 0, 69, 69, 0});

  // Two launches into one block's NULL stream run in order.
  const std::vector<int32_t> digits = output_values<int32_t>(
      run_fixture(folder,
                  fixture_workload("device_launch.ptx", {{"data", ints(8, 3)}}, "two_in_order", 32,
                                   {{{"buffer", "data"}}, {{"s32", 8}}}, {"data"})),
      "data");
  for (int i = 0; i < 8; ++i) CHECK(digits[i] == (3 + i) * 100 + 12);

  // A binary tree three levels deep: eight leaves, fifteen grids.
  const FunctionalRun tree = run_fixture(
      folder,
      fixture_workload(
          "device_launch.ptx",
          {{"leaves", {{"type", "s32"}, {"count", 8}}}, {"grids", {{"type", "s32"}, {"count", 1}}}},
          "tree", 1, {{{"buffer", "leaves"}}, {{"buffer", "grids"}}, {{"s32", 3}}, {{"s32", 0}}},
          {"leaves", "grids"}));
  const std::vector<int32_t> leaves = output_values<int32_t>(tree, "leaves");
  for (int i = 0; i < 8; ++i) CHECK(leaves[i] == i + 1);
  CHECK(output_values<int32_t>(tree, "grids")[0] == 15);

  // Nested deeper than CUDA allows: a fault naming the launch.
  CHECK_THROWS_WITH(
      run_fixture(folder,
                  fixture_workload(
                      "device_launch.ptx",
                      {{"leaves", {{"type", "s32"}, {"count", 1}}},
                       {"grids", {{"type", "s32"}, {"count", 1}}}},
                      "tree", 1,
                      {{{"buffer", "leaves"}}, {{"buffer", "grids"}}, {{"s32", 30}}, {{"s32", 0}}},
                      {"grids"})),
      "kernel 'tree' launched 'tree' <<<(1,1,1), (1,1,1)>>> from the device: launches from the "
      "device nest deeper than CUDA's 24 levels");
}

TEST_CASE("functional executor: launches from the device that cannot be made are faults",
          "[coverify]") {
  // tests/data/ptx/device_launch.cu's per_block with one line of its PTX changed.
  std::ifstream file(fs::path(OHMVP_SOURCE_DIR) / "tests" / "data" / "ptx" / "device_launch.ptx");
  const std::string ptx((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  TempFolder folder;
  const auto run_changed = [&](const std::string& line, const std::string& changed) {
    const size_t at = ptx.find(line);  // per_block comes first
    REQUIRE(at != std::string::npos);
    std::string text = ptx;
    text.replace(at, line.size(), changed);
    nlohmann::json workload =
        fixture_workload("device_launch.ptx", {{"data", {{"type", "s32"}, {"count", 64}}}},
                         "per_block", 32, {{{"buffer", "data"}}, {{"s32", 64}}}, {"data"});
    workload["ptx"] = folder.write("changed.ptx", text).string();
    return run_fixture(folder, workload);
  };
  CHECK_THROWS_WITH(run_changed("st.param.b64 \t[param1+0], 0;", "st.param.b64 [param1+0], 7;"),
                    Catch::Contains("invalid kernel launch from the device: into a stream made "
                                    "on the device (NULL, tail-launch and fire-and-forget run)"));
  CHECK_THROWS_WITH(
      run_changed("st.param.b64 \t[param0+0], %rd1;", "st.param.b64 [param0+0], %rd2;"),
      Catch::Contains("invalid kernel launch from the device: of a parameter buffer "
                      "cudaGetParameterBuffer did not hand out, or launched already"));
  CHECK_THROWS_WITH(run_changed("mov.u64 \t%rd3, add_base;", "mov.u64 %rd3, 4096;"),
                    Catch::Contains("invalid kernel launch from the device: the address launched "
                                    "is no kernel"));
}
