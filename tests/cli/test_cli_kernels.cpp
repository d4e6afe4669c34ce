#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <vector>

#include "cli_runner.h"

using Catch::Contains;

namespace {

// vecadd's workload with the element count argument replaced: past the buffers, the kernel
// reads unmapped device memory.
std::string vecadd_workload(unsigned count) {
  auto workload = shipped_kernel_workload("vecadd");
  workload["launches"][0]["grid"] = {count / 256 + 1, 1, 1};
  workload["launches"][0]["args"][3] = {{"u32", count}};
  return workload.dump(2);
}

// vecadd over `count` elements with its `ret;` replaced by `ending`: DIR/w.json, DIR/w.ptx.
std::string vecadd_ending_in(const std::string& dir, const std::string& ending, unsigned count) {
  std::string ptx = read_text(shipped("testbenches/kernels/vecadd.ptx"));
  ptx.replace(ptx.find("ret;"), 4, ending);
  write_text(dir + "/w.ptx", ptx);
  auto workload = nlohmann::json::parse(vecadd_workload(count));
  workload["ptx"] = dir + "/w.ptx";
  write_text(dir + "/w.json", workload.dump());
  return dir + "/w.json";
}

// Runs one launch of `kernel` from tests/data/ptx/`ptx` on the default platform, with --dump into
// DIR/d and the report in DIR.
CliResult run_fixture(const std::string& dir, const std::string& ptx, const std::string& kernel,
                      unsigned grid, unsigned block, const nlohmann::json& buffers,
                      const nlohmann::json& args, const std::vector<std::string>& outputs,
                      const nlohmann::json& limits = nlohmann::json::object()) {
  nlohmann::json workload = {{"type", "kernel"},
                             {"ptx", shipped("tests/data/ptx/" + ptx)},
                             {"buffers", buffers},
                             {"launches",
                              {{{"kernel", kernel},
                                {"grid", {grid, 1, 1}},
                                {"block", {block, 1, 1}},
                                {"shared_bytes", 0},
                                {"args", args}}}},
                             {"outputs", outputs}};
  if (!limits.empty()) workload["limits"] = limits;
  write_text(dir + "/w.json", workload.dump());
  return run_ohmvp("run -q --workload " + dir + "/w.json --out " + dir + " --dump " + dir + "/d");
}

// Runs `args` (ending in --out) once with a VCD and once without, into DIR/a and DIR/b: tracing
// must not change the report. Returns the VCD.
std::string traced_and_plain(const std::string& args, const std::string& dir) {
  const CliResult traced = run_ohmvp(args + dir + "/a --vcd " + dir + "/t.vcd");
  INFO(traced.output);
  REQUIRE(traced.exit_code == 0);
  REQUIRE(run_ohmvp(args + dir + "/b").exit_code == 0);
  CHECK(read_text(dir + "/a/report.json") == read_text(dir + "/b/report.json"));
  return read_text(dir + "/t.vcd");
}

}  // namespace

TEST_CASE(
    "cli: a kernel run reports the GPU figures, dumps its outputs, and repeats exactly, whatever "
    "--seed") {
  const std::string dir = scratch_dir("kernel_run");
  const std::string args = "run -q --workload vecadd --vcd " + dir + "/t.vcd --out ";
  const CliResult first = run_ohmvp(args + dir + "/a --dump " + dir + "/dump");
  INFO(first.output);
  REQUIRE(first.exit_code == 0);
  CHECK_THAT(first.output, Contains("platform gpu_small, workload vecadd") &&
                               Contains("warp instructions") && Contains("SIMD efficiency"));
  const CliResult second = run_ohmvp("run -q --workload vecadd --out " + dir + "/b");
  REQUIRE(second.exit_code == 0);
  // Neither the VCD nor the dump changes what is simulated.
  CHECK(read_text(dir + "/a/report.json") == read_text(dir + "/b/report.json"));
  // Nor does --seed: a kernel run takes its seeds from the workload and the config.
  REQUIRE(run_ohmvp("run -q --workload vecadd --seed 7 --out " + dir + "/c").exit_code == 0);
  auto reseeded = nlohmann::json::parse(read_text(dir + "/c/report.json"));
  CHECK(reseeded["seed"] == 7);
  reseeded["seed"] = 1;
  CHECK(reseeded == nlohmann::json::parse(read_text(dir + "/b/report.json")));

  const auto report = nlohmann::json::parse(read_text(dir + "/a/report.json"));
  for (const char* key :
       {"ipc", "cycles", "warp_instructions", "thread_instructions", "simd_efficiency"})
    CHECK(report["summary"].contains(key));
  CHECK(report["summary"]["simd_efficiency"] == 1.0);  // 8192 threads, no divergence
  CHECK(report["summary"]["thread_instructions"].get<uint64_t>() >
        report["summary"]["warp_instructions"].get<uint64_t>());
  // a and b reach memory as 2 x 32 KiB of 64-byte reads; c stays dirty in the 768 KB L2.
  CHECK(report["summary"]["requests"] == 1024);
  CHECK(report["summary"]["memory_read_ratio"] == 1.0);
  CHECK(report["summary"]["memory_apki"].get<double>() ==
        Approx(1000.0 * 1024 / report["summary"]["warp_instructions"].get<double>()));
  CHECK_THAT(first.output, Contains("memory APKI"));
  // Each channel's share of the run its data path carried, as in a traffic run.
  const auto& channel = report["stats"]["memory.channel0"];
  CHECK(channel["utilisation"]["value"].get<double>() ==
        Approx(channel["data_busy_ps"]["value"].get<double>() / 1000.0 /
               report["summary"]["simulated_ns"].get<double>()));

  const auto index = nlohmann::json::parse(read_text(dir + "/dump/index.json"));
  REQUIRE(index.size() == 1);
  CHECK(index[0]["name"] == "c");
  CHECK(index[0]["type"] == "f32");
  CHECK(index[0]["count"] == 8192);
  CHECK(std::filesystem::file_size(dir + "/dump/c.bin") == 8192 * 4);
  CHECK(std::system(("vcd2fst " + dir + "/t.vcd " + dir + "/t.fst >/dev/null 2>&1").c_str()) == 0);
}

TEST_CASE("cli: the report lists each launch with its occupancy and what limited it") {
  const std::string dir = scratch_dir("launch_records");
  const CliResult run =
      run_ohmvp("run -q --platform titanv --workload " +
                shipped("testbenches/workloads/wmma_gemm.json") + " --out " + dir);
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  const auto report = nlohmann::json::parse(read_text(dir + "/report.json"));
  const auto& launches = report["launches"];
  REQUIRE(launches.size() == 2);
  const auto& shared = launches[0];
  CHECK(shared["kernel"] == "wmma_gemm_shared");
  CHECK(shared["grid"] == nlohmann::json::array({2, 2, 1}));
  CHECK(shared["block"] == nlohmann::json::array({128, 1, 1}));
  CHECK(shared["faulted"] == false);
  // At most 49 of its registers are live at once (its PTX declares 434): 1568 a warp, 1792 in
  // 256-register units, 7168 a CTA of 4 warps, so 9 CTAs fit the 65536 of an SM.
  CHECK(shared["registers_per_thread"] == 49);
  CHECK(shared["ctas_per_sm"] == 9);
  CHECK(shared["warps_per_sm"] == 36);
  CHECK(shared["occupancy_limiter"] == "registers");
  CHECK(shared["shared_bytes_per_cta"] == 2048);
  CHECK(launches[1]["kernel"] == "wmma_gemm_global");
  CHECK(launches[1]["start_cycle"].get<uint64_t>() >=
        shared["start_cycle"].get<uint64_t>() + shared["cycles"].get<uint64_t>());
  // Together they are the run's kernel cycles and instructions.
  CHECK(shared["cycles"].get<uint64_t>() + launches[1]["cycles"].get<uint64_t>() ==
        report["summary"]["cycles"].get<uint64_t>());
  CHECK(shared["warp_instructions"].get<uint64_t>() +
            launches[1]["warp_instructions"].get<uint64_t>() ==
        report["summary"]["warp_instructions"].get<uint64_t>());

  // Given the registers ptxas allocates, 32 a thread: 4096 a CTA, so 16 CTAs fit the register
  // file, as many as the 2048 threads allow, which limit first.
  auto workload = shipped_kernel_workload("wmma_gemm");
  workload["ptx"] = shipped("testbenches/kernels/wmma_gemm.ptx");
  workload["launches"][0]["registers_per_thread"] = 32;
  write_text(dir + "/w.json", workload.dump());
  const CliResult given = run_ohmvp("run -q --platform titanv --workload " + dir + "/w.json" +
                                    " --out " + dir + "/given");
  INFO(given.output);
  REQUIRE(given.exit_code == 0);
  const auto first = nlohmann::json::parse(read_text(dir + "/given/report.json"))["launches"][0];
  CHECK(first["registers_per_thread"] == 32);
  CHECK(first["ctas_per_sm"] == 16);
  CHECK(first["occupancy_limiter"] == "threads");
  workload["launches"][0]["registers_per_thread"] = 0;
  write_text(dir + "/w.json", workload.dump());
  const CliResult zero = run_ohmvp("run -q --platform titanv --workload " + dir + "/w.json" +
                                   " --out " + dir + "/zero");
  CHECK(zero.exit_code == 2);
  CHECK_THAT(zero.output, Contains("launches[0].registers_per_thread"));
}

TEST_CASE("cli: on a planar platform the first buffers start in DRAM") {
  // Device addresses start at 64 KiB, the memory's first byte: the first 48 KiB of vecadd's
  // buffers (a and half of b) are the DRAM pages of the six channels' groups, each 64-byte line
  // read once; nothing is hot enough to swap.
  const std::string dir = scratch_dir("planar_first_pages");
  const CliResult r = run_ohmvp("run -q --platform hetero_planar --workload vecadd --out " + dir);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto report = nlohmann::json::parse(read_text(dir + "/report.json"));
  CHECK(report["summary"]["migrations"] == 0);
  for (int c = 0; c < 6; ++c)
    CHECK(report["stats"]["memory.hmm" + std::to_string(c)]["dram_requests"]["value"] == 8192 / 64);
}

TEST_CASE("cli: __syncthreads_count/and/or on the timed GPU give every thread the CTA's result") {
  const std::string dir = scratch_dir("barrier_reduction");
  for (const unsigned threads : {96u, 40u}) {
    INFO(threads << " threads");
    const CliResult r = run_fixture(dir, "barrier_reduction.ptx", "barrier_reductions", 2, threads,
                                    {{"out", {{"type", "s32"}, {"count", 3 * threads}}}},
                                    {{{"buffer", "out"}}}, {"out"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<int32_t> values = read_dump<int32_t>(dir, "out", 3 * threads);
    for (unsigned t = 0; t < threads; ++t) {
      CHECK(values[3 * t] == int32_t((threads + 2) / 3));   // t % 3 == 0
      CHECK(values[3 * t + 1] == (threads <= 40 ? 1 : 0));  // t < 40
      CHECK(values[3 * t + 2] == 1);                        // t == 17
    }
  }
}

TEST_CASE("cli: tex2D samples as the binding says: point or linear, four address modes") {
  // tests/data/ptx/textures.cu sample2d on an 8 x 4 texture whose texel (x, y) holds 8 y + x.
  struct Case {
    float x, y;
    std::map<std::string, float> expected;  // by address mode
  };
  // Point sampling at texel coordinates (clamp, border), then at normalised ones (all four modes;
  // x scaled by 8, y by 4): (1.3, -0.1) is texel (10, -1), (-0.3, 1.6) texel (-3, 6).
  const std::vector<Case> point_texels = {{2.5f, 1.5f, {{"clamp", 10}, {"border", 10}}},
                                          {-0.5f, 2.5f, {{"clamp", 16}, {"border", 0}}},
                                          {9.0f, 3.9f, {{"clamp", 31}, {"border", 0}}},
                                          {7.99f, 0.0f, {{"clamp", 7}, {"border", 7}}}};
  const std::vector<Case> point_normalized = {
      {0.3f, 0.6f, {{"clamp", 18}, {"border", 18}, {"wrap", 18}, {"mirror", 18}}},
      {1.3f, -0.1f, {{"clamp", 7}, {"border", 0}, {"wrap", 26}, {"mirror", 5}}},
      {-0.3f, 1.6f, {{"clamp", 24}, {"border", 0}, {"wrap", 21}, {"mirror", 10}}}};
  // Linear filtering blends texels i = floor(x - 0.5) and i + 1 (and j, j + 1) with weights in
  // 1/256 steps: on this texture, inside it, 8 (j + b) + i + a. (2.5 + 1/3, 2) has a = 85/256,
  // b = 1/2; (0.25, 3.75) clamps to texel (0, 3), or takes 9/16 of it among border texels;
  // (0.25, 1.5) takes 3/4 of texel (0, 1) and 1/4 of a border texel; (-5, 9) has only border
  // texels. Normalised (0, 0.5) is halfway between columns 7 (wrapped; mirrored: 0) and 0, and
  // between rows 1 and 2.
  const std::vector<Case> linear_texels = {
      {2.75f, 1.5f, {{"clamp", 10.25f}, {"border", 10.25f}}},
      {2.5f + 1.0f / 3.0f, 2.0f, {{"clamp", 14.33203125f}, {"border", 14.33203125f}}},
      {0.25f, 3.75f, {{"clamp", 24}, {"border", 13.5f}}},
      {0.25f, 1.5f, {{"clamp", 8}, {"border", 6}}},
      {-5.0f, 9.0f, {{"clamp", 24}, {"border", 0}}}};
  const std::vector<Case> linear_normalized = {
      {0.0f, 0.5f, {{"clamp", 12}, {"border", 6}, {"wrap", 15.5f}, {"mirror", 12}}}};
  const std::string dir = scratch_dir("sample2d");
  const auto check = [&](const std::vector<Case>& cases, const std::string& filter,
                         bool normalized) {
    std::vector<float> xs, ys;
    for (const Case& c : cases) {
      xs.push_back(c.x);
      ys.push_back(c.y);
    }
    std::filesystem::create_directories(dir);
    write_text(dir + "/xs.bin",
               std::string(reinterpret_cast<const char*>(xs.data()), 4 * xs.size()));
    write_text(dir + "/ys.bin",
               std::string(reinterpret_cast<const char*>(ys.data()), 4 * ys.size()));
    const int n = int(cases.size());
    for (const auto& [mode, ignored] : cases.front().expected) {
      INFO("filter " << filter << ", address " << mode << ", normalized " << normalized);
      const CliResult r = run_fixture(
          dir, "textures.ptx", "sample2d", 1, 32,
          {{"image", {{"type", "f32"}, {"count", 32}, {"init", {{"sequence", {{"start", 0}}}}}}},
           {"xs", {{"type", "f32"}, {"count", n}, {"init", {{"file", "xs.bin"}}}}},
           {"ys", {{"type", "f32"}, {"count", n}, {"init", {{"file", "ys.bin"}}}}},
           {"out", {{"type", "f32"}, {"count", n}}}},
          {{{"texture",
             {{"buffer", "image"},
              {"width", 8},
              {"height", 4},
              {"filter", filter},
              {"address", mode},
              {"normalized", normalized}}}},
           {{"buffer", "xs"}},
           {{"buffer", "ys"}},
           {{"buffer", "out"}},
           {{"s32", n}}},
          {"out"});
      INFO(r.output);
      REQUIRE(r.exit_code == 0);
      const std::vector<float> out = read_dump<float>(dir, "out", cases.size());
      for (size_t i = 0; i < cases.size(); ++i) {
        INFO("coordinates " << cases[i].x << ", " << cases[i].y);
        CHECK(out[i] == cases[i].expected.at(mode));
      }
    }
  };
  check(point_texels, "point", false);
  check(point_normalized, "point", true);
  check(linear_texels, "linear", false);
  check(linear_normalized, "linear", true);
}

TEST_CASE("cli: tex2Dgather returns the bilinear footprint counter-clockwise from lower left") {
  // tests/data/ptx/textures.cu gather2d on an 8 x 4 texture whose texel (x, y) holds 8 y + x:
  // {T[i, j + 1], T[i + 1, j + 1], T[i + 1, j], T[i, j]} with i = floor(x - 0.5),
  // j = floor(y - 0.5), addressed as the binding says, whatever its filter.
  struct Case {
    float x, y;
    std::string address;
    bool normalized;
    std::array<float, 4> expected;
  };
  const std::vector<Case> cases = {{2.75f, 1.5f, "clamp", false, {18, 19, 11, 10}},
                                   {7.75f, 3.75f, "clamp", false, {31, 31, 31, 31}},
                                   {7.75f, 3.75f, "border", false, {0, 0, 0, 31}},
                                   {0.0f, 0.5f, "wrap", true, {23, 16, 8, 15}}};
  const std::string dir = scratch_dir("gather2d");
  for (const Case& c : cases) {
    INFO(c.x << ", " << c.y << " " << c.address);
    std::filesystem::create_directories(dir);
    write_text(dir + "/xs.bin", std::string(reinterpret_cast<const char*>(&c.x), 4));
    write_text(dir + "/ys.bin", std::string(reinterpret_cast<const char*>(&c.y), 4));
    const CliResult r = run_fixture(
        dir, "textures.ptx", "gather2d", 1, 32,
        {{"image", {{"type", "f32"}, {"count", 32}, {"init", {{"sequence", {{"start", 0}}}}}}},
         {"xs", {{"type", "f32"}, {"count", 1}, {"init", {{"file", "xs.bin"}}}}},
         {"ys", {{"type", "f32"}, {"count", 1}, {"init", {{"file", "ys.bin"}}}}},
         {"out", {{"type", "f32"}, {"count", 4}}}},
        {{{"texture",
           {{"buffer", "image"},
            {"width", 8},
            {"height", 4},
            {"address", c.address},
            {"normalized", c.normalized}}}},
         {{"buffer", "xs"}},
         {{"buffer", "ys"}},
         {{"buffer", "out"}},
         {{"s32", 1}}},
        {"out"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<float> out = read_dump<float>(dir, "out", 4);
    for (int k = 0; k < 4; ++k) CHECK(out[k] == c.expected[k]);
  }
}

TEST_CASE("cli: surfaces are read and written in bytes along x with their boundary modes") {
  // tests/data/ptx/surfaces.cu.
  const std::string dir = scratch_dir("surfaces");
  const auto surface = [](const char* buffer, int width, int height = 0, int depth = 0,
                          int channels = 1) {
    nlohmann::json s = {{"buffer", buffer}, {"width", width}, {"channels", channels}};
    if (height) s["height"] = height;
    if (depth) s["depth"] = depth;
    return nlohmann::json{{"surface", s}};
  };
  SECTION("2-D floats: out = 2 in + 1") {
    const CliResult r = run_fixture(
        dir, "surfaces.ptx", "scale2d", 1, 32,
        {{"in", {{"type", "f32"}, {"count", 24}, {"init", {{"sequence", {{"start", 0}}}}}}},
         {"out", {{"type", "f32"}, {"count", 24}}}},
        {surface("in", 6, 4), surface("out", 6, 4), {{"s32", 6}}, {{"s32", 4}}}, {"out"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<float> out = read_dump<float>(dir, "out", 24);
    for (int i = 0; i < 24; ++i) CHECK(out[i] == 2.0f * float(i) + 1.0f);
  }
  SECTION("3-D uchar4 (v4.b8 into 16-bit registers), in place") {
    const CliResult r = run_fixture(
        dir, "surfaces.ptx", "bump3d", 1, 32,
        {{"s", {{"type", "u8"}, {"count", 96}, {"init", {{"sequence", {{"start", 0}}}}}}}},
        {surface("s", 2, 3, 4, 4), {{"s32", 2}}, {{"s32", 3}}, {{"s32", 4}}}, {"s"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<uint8_t> s = read_dump<uint8_t>(dir, "s", 96);
    for (int i = 0; i < 96; ++i) CHECK(s[i] == i + 1);
  }
  SECTION("1-D ints outside the surface: clamp, zero, a dropped store, a trap") {
    const CliResult r = run_fixture(
        dir, "surfaces.ptx", "bounds1d", 1, 12,
        {{"in", {{"type", "s32"}, {"count", 8}, {"init", {{"sequence", {{"start", 100}}}}}}},
         {"out", {{"type", "s32"}, {"count", 8}, {"init", {{"value", -1}}}}},
         {"clamped", {{"type", "s32"}, {"count", 12}}},
         {"zeroed", {{"type", "s32"}, {"count", 12}}}},
        {surface("in", 8), surface("out", 8), {{"buffer", "clamped"}}, {{"buffer", "zeroed"}}},
        {"out", "clamped", "zeroed"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<int32_t> clamped = read_dump<int32_t>(dir, "clamped", 12);
    const std::vector<int32_t> zeroed = read_dump<int32_t>(dir, "zeroed", 12);
    const std::vector<int32_t> out = read_dump<int32_t>(dir, "out", 8);
    for (int t = 0; t < 12; ++t) {
      INFO("thread " << t << ", element " << t - 2);
      CHECK(clamped[t] == 100 + std::clamp(t - 2, 0, 7));
      CHECK(zeroed[t] == (t >= 2 && t < 10 ? 100 + t - 2 : 0));
    }
    for (int i = 0; i < 8; ++i) CHECK(out[i] == i + 2);

    const auto trap = [&](int x) {
      return run_fixture(
          dir, "surfaces.ptx", "trap1d", 1, 1,
          {{"in", {{"type", "s32"}, {"count", 8}}}, {"out", {{"type", "s32"}, {"count", 1}}}},
          {surface("in", 8), {{"buffer", "out"}}, {{"s32", x}}}, {"out"});
    };
    const CliResult inside = trap(28);
    INFO(inside.output);
    CHECK(inside.exit_code == 0);
    const CliResult outside = trap(32);
    INFO(outside.output);
    CHECK(outside.exit_code == 1);
    CHECK_THAT(outside.output, Contains("surface access out of bounds") && Contains("trap1d"));
    const CliResult misaligned = trap(2);
    INFO(misaligned.output);
    CHECK(misaligned.exit_code == 1);
    CHECK_THAT(misaligned.output, Contains("surface x coordinate (bytes) not a multiple of the "
                                           "access size"));
  }
  SECTION("a texture handle is no surface, and a surface has no sampling settings") {
    const CliResult r = run_fixture(
        dir, "surfaces.ptx", "trap1d", 1, 1,
        {{"in", {{"type", "s32"}, {"count", 8}}}, {"out", {{"type", "s32"}, {"count", 1}}}},
        {{{"texture", {{"buffer", "in"}, {"width", 8}}}}, {{"buffer", "out"}}, {{"s32", 0}}},
        {"out"});
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Contains("invalid surface handle"));
    nlohmann::json filtered = surface("in", 8);
    filtered["surface"]["filter"] = "linear";
    const CliResult bad = run_fixture(
        dir, "surfaces.ptx", "trap1d", 1, 1,
        {{"in", {{"type", "s32"}, {"count", 8}}}, {"out", {{"type", "s32"}, {"count", 1}}}},
        {filtered, {{"buffer", "out"}}, {{"s32", 0}}}, {"out"});
    INFO(bad.output);
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.output, Contains("launches[0].args[0].surface") && Contains("filter"));
  }
}

TEST_CASE("cli: layered textures and cubemaps sample the layer and face their coordinates name") {
  // tests/data/ptx/layered_textures.cu on the timed GPU.
  const std::string dir = scratch_dir("layered_textures");
  std::filesystem::create_directories(dir);
  const auto floats = [&](const std::string& name, const std::vector<float>& values) {
    write_text(dir + "/" + name + ".bin",
               std::string(reinterpret_cast<const char*>(values.data()), 4 * values.size()));
    return nlohmann::json{
        {"type", "f32"}, {"count", values.size()}, {"init", {{"file", name + ".bin"}}}};
  };
  const auto sequence = [](int count) {
    return nlohmann::json{
        {"type", "f32"}, {"count", count}, {"init", {{"sequence", {{"start", 0}}}}}};
  };
  SECTION("tex2DLayered: texel (x, y) of layer l holds 8 l + 4 y + x; the layer index is clamped") {
    struct Case {
      float x, y;
      int layer;
      float point, linear;
    };
    const std::vector<Case> cases = {{0.5f, 0.5f, 0, 0, 0},     {3.5f, 1.5f, 1, 15, 15},
                                     {1.5f, 0.5f, 2, 17, 17},   {1.5f, 0.5f, 7, 17, 17},
                                     {2.5f, 1.5f, -1, 22, 22},  {9.0f, -3.0f, 1, 11, 11},
                                     {1.0f, 1.0f, 1, 13, 10.5f}};
    std::vector<float> xs, ys;
    std::vector<int32_t> layers;
    for (const Case& c : cases) {
      xs.push_back(c.x);
      ys.push_back(c.y);
      layers.push_back(c.layer);
    }
    write_text(dir + "/layers.bin",
               std::string(reinterpret_cast<const char*>(layers.data()), 4 * layers.size()));
    const int n = int(cases.size());
    for (const std::string filter : {"point", "linear"}) {
      INFO("filter " << filter);
      const CliResult r = run_fixture(
          dir, "layered_textures.ptx", "sample_a2d", 1, 32,
          {{"image", sequence(24)},
           {"xs", floats("xs", xs)},
           {"ys", floats("ys", ys)},
           {"layers", {{"type", "s32"}, {"count", n}, {"init", {{"file", "layers.bin"}}}}},
           {"out", {{"type", "f32"}, {"count", n}}}},
          {{{"texture",
             {{"buffer", "image"},
              {"width", 4},
              {"height", 2},
              {"layers", 3},
              {"filter", filter}}}},
           {{"buffer", "xs"}},
           {{"buffer", "ys"}},
           {{"buffer", "layers"}},
           {{"buffer", "out"}},
           {{"s32", n}}},
          {"out"});
      INFO(r.output);
      REQUIRE(r.exit_code == 0);
      const std::vector<float> out = read_dump<float>(dir, "out", cases.size());
      for (size_t i = 0; i < cases.size(); ++i) {
        INFO(cases[i].x << ", " << cases[i].y << " in layer " << cases[i].layer);
        CHECK(out[i] == (filter == "point" ? cases[i].point : cases[i].linear));
      }
    }
  }
  SECTION("texCubemap: texel (x, y) of face f holds 16 f + 4 y + x") {
    // Worked from the CUDA guide's cubemap table: face, then texel floor(4 (s / m + 1) / 2).
    struct Case {
      float x, y, z, expected;
    };
    const std::vector<Case> cases = {{1.0f, 0.5f, 0.0f, 6},   {-3.0f, 0.0f, 0.0f, 26},
                                     {0.0f, 2.0f, -2.0f, 34}, {0.0f, -1.0f, 0.3f, 54},
                                     {0.25f, 0.5f, 1.0f, 70}, {-0.2f, 0.1f, -2.0f, 86},
                                     {1.0f, -0.9f, 0.9f, 12}};
    std::vector<float> xs, ys, zs;
    for (const Case& c : cases) {
      xs.push_back(c.x);
      ys.push_back(c.y);
      zs.push_back(c.z);
    }
    const int n = int(cases.size());
    const CliResult r = run_fixture(
        dir, "layered_textures.ptx", "sample_cube", 1, 32,
        {{"cube", sequence(96)},
         {"xs", floats("xs", xs)},
         {"ys", floats("ys", ys)},
         {"zs", floats("zs", zs)},
         {"out", {{"type", "f32"}, {"count", n}}}},
        {{{"texture", {{"buffer", "cube"}, {"width", 4}, {"height", 4}, {"cubemap", true}}}},
         {{"buffer", "xs"}},
         {{"buffer", "ys"}},
         {{"buffer", "zs"}},
         {{"buffer", "out"}},
         {{"s32", n}}},
        {"out"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<float> out = read_dump<float>(dir, "out", cases.size());
    for (size_t i = 0; i < cases.size(); ++i) {
      INFO("direction " << cases[i].x << ", " << cases[i].y << ", " << cases[i].z);
      CHECK(out[i] == cases[i].expected);
    }
  }
  SECTION("a layered cubemap's texels read back through their centres' directions") {
    const CliResult r = run_fixture(
        dir, "layered_textures.ptx", "cube_texels", 6, 32,
        {{"cube", sequence(192)}, {"out", {{"type", "f32"}, {"count", 192}}}},
        {{{"texture",
           {{"buffer", "cube"}, {"width", 4}, {"height", 4}, {"cubemap", true}, {"layers", 2}}}},
         {{"buffer", "out"}},
         {{"s32", 4}},
         {{"s32", 2}}},
        {"out"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<float> out = read_dump<float>(dir, "out", 192);
    for (int i = 0; i < 192; ++i) CHECK(out[i] == float(i));
  }
  SECTION("a geometry that is not the texture's shape is a device fault naming both") {
    const auto fetch = [&](const nlohmann::json& texture) {
      return run_fixture(dir, "layered_textures.ptx", "sample_cube", 1, 1,
                         {{"cube", sequence(96)},
                          {"xs", floats("xs", {1.0f})},
                          {"ys", floats("ys", {0.0f})},
                          {"zs", floats("zs", {0.0f})},
                          {"out", {{"type", "f32"}, {"count", 1}}}},
                         {{{"texture", texture}},
                          {{"buffer", "xs"}},
                          {{"buffer", "ys"}},
                          {{"buffer", "zs"}},
                          {{"buffer", "out"}},
                          {{"s32", 1}}},
                         {"out"});
    };
    const CliResult flat = fetch({{"buffer", "cube"}, {"width", 4}, {"height", 4}});
    INFO(flat.output);
    CHECK(flat.exit_code == 1);
    CHECK_THAT(flat.output, Contains("tex.cube fetches from a 2-D texture"));
    const CliResult layered =
        fetch({{"buffer", "cube"}, {"width", 4}, {"height", 4}, {"cubemap", true}, {"layers", 1}});
    INFO(layered.output);
    CHECK(layered.exit_code == 1);
    CHECK_THAT(layered.output, Contains("tex.cube fetches from a layered cubemap texture"));
  }
  SECTION("shapes the workload cannot have") {
    const auto bind = [&](const nlohmann::json& texture) {
      return run_fixture(dir, "layered_textures.ptx", "cube_texels", 1, 32,
                         {{"cube", sequence(96)}, {"out", {{"type", "f32"}, {"count", 96}}}},
                         {{{"texture", texture}}, {{"buffer", "out"}}, {{"s32", 4}}, {{"s32", 0}}},
                         {"out"});
    };
    const CliResult oblong =
        bind({{"buffer", "cube"}, {"width", 4}, {"height", 2}, {"cubemap", true}});
    INFO(oblong.output);
    CHECK(oblong.exit_code == 2);
    CHECK_THAT(oblong.output,
               Contains("launches[0].args[0].texture.cubemap") && Contains("faces are square"));
    const CliResult deep =
        bind({{"buffer", "cube"}, {"width", 2}, {"height", 2}, {"depth", 2}, {"layers", 2}});
    INFO(deep.output);
    CHECK(deep.exit_code == 2);
    CHECK_THAT(deep.output, Contains("launches[0].args[0].texture.layers") &&
                                Contains("a layered texture is 1-D or 2-D"));
    const CliResult small =
        bind({{"buffer", "cube"}, {"width", 4}, {"height", 4}, {"cubemap", true}, {"layers", 2}});
    INFO(small.output);
    CHECK(small.exit_code == 2);
    CHECK_THAT(small.output, Contains("4 x 4 x 12 texels of 1 elements exceed buffer 'cube'"));
  }
}

TEST_CASE("cli: layered and cubemap surfaces take the layer or face after x and y") {
  // tests/data/ptx/layered_textures.cu on the timed GPU.
  const std::string dir = scratch_dir("layered_surfaces");
  const auto numbers = [](const char* type, int count, int start) {
    return nlohmann::json{
        {"type", type}, {"count", count}, {"init", {{"sequence", {{"start", start}}}}}};
  };
  SECTION("layered 1-D ints plus one") {
    const CliResult r = run_fixture(
        dir, "layered_textures.ptx", "bump_a1d", 1, 32, {{"s", numbers("s32", 12, 0)}},
        {{{"surface", {{"buffer", "s"}, {"width", 4}, {"layers", 3}}}}, {{"s32", 4}}, {{"s32", 3}}},
        {"s"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<int32_t> s = read_dump<int32_t>(dir, "s", 12);
    for (int i = 0; i < 12; ++i) CHECK(s[i] == i + 1);
  }
  SECTION("layered 2-D float2s swapped") {
    const CliResult r = run_fixture(
        dir, "layered_textures.ptx", "swap_a2d", 1, 32, {{"s", numbers("f32", 16, 0)}},
        {{{"surface",
           {{"buffer", "s"}, {"width", 2}, {"height", 2}, {"layers", 2}, {"channels", 2}}}},
         {{"s32", 2}},
         {{"s32", 2}},
         {{"s32", 2}}},
        {"s"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<float> s = read_dump<float>(dir, "s", 16);
    for (int i = 0; i < 16; ++i) CHECK(s[i] == float(i ^ 1));
  }
  SECTION("cubemap faces doubled") {
    const CliResult r = run_fixture(
        dir, "layered_textures.ptx", "double_cube", 1, 32, {{"s", numbers("f32", 24, 1)}},
        {{{"surface", {{"buffer", "s"}, {"width", 2}, {"height", 2}, {"cubemap", true}}}},
         {{"s32", 2}}},
        {"s"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<float> s = read_dump<float>(dir, "s", 24);
    for (int i = 0; i < 24; ++i) CHECK(s[i] == 2.0f * float(i + 1));
  }
  SECTION("a layer past the last: clamped, zero, a trap") {
    const nlohmann::json surface = {{"surface", {{"buffer", "s"}, {"width", 4}, {"layers", 3}}}};
    const auto read = [&](const char* kernel, int layer) {
      return run_fixture(dir, "layered_textures.ptx", kernel, 1, 1,
                         {{"s", numbers("s32", 12, 100)}, {"out", {{"type", "s32"}, {"count", 2}}}},
                         {surface, {{"buffer", "out"}}, {{"s32", layer}}}, {"out"});
    };
    for (const auto& [layer, clamped, zeroed] :
         std::vector<std::array<int, 3>>{{2, 108, 108}, {3, 108, 0}, {-1, 108, 0}}) {
      INFO("layer " << layer);
      const CliResult r = read("layer_bounds", layer);
      INFO(r.output);
      REQUIRE(r.exit_code == 0);
      const std::vector<int32_t> out = read_dump<int32_t>(dir, "out", 2);
      CHECK(out[0] == clamped);
      CHECK(out[1] == zeroed);
    }
    const CliResult inside = read("layer_trap", 2);
    INFO(inside.output);
    CHECK(inside.exit_code == 0);
    const CliResult outside = read("layer_trap", 3);
    INFO(outside.output);
    CHECK(outside.exit_code == 1);
    CHECK_THAT(outside.output, Contains("surface access out of bounds") && Contains("layer_trap"));
    const CliResult flat = run_fixture(
        dir, "layered_textures.ptx", "layer_trap", 1, 1,
        {{"s", numbers("s32", 12, 100)}, {"out", {{"type", "s32"}, {"count", 2}}}},
        {{{"surface", {{"buffer", "s"}, {"width", 4}}}}, {{"buffer", "out"}}, {{"s32", 0}}},
        {"out"});
    INFO(flat.output);
    CHECK(flat.exit_code == 1);
    CHECK_THAT(flat.output, Contains("suld.a1d on a 1-D surface"));
  }
}

TEST_CASE("cli: kernels launched from the device run before the host's next launch") {
  // tests/data/ptx/device_launch.cu (built with -rdc=true) on the timed GPU.
  const std::string dir = scratch_dir("device_launch");
  const auto ints = [](int count, int start) {
    return nlohmann::json{
        {"type", "s32"}, {"count", count}, {"init", {{"sequence", {{"start", start}}}}}};
  };
  const auto report = [&] { return nlohmann::json::parse(read_text(dir + "/report.json")); };
  SECTION("one grid from each block") {
    const CliResult r =
        run_fixture(dir, "device_launch.ptx", "per_block", 4, 32, {{"data", ints(256, 0)}},
                    {{{"buffer", "data"}}, {{"s32", 64}}}, {"data"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<int32_t> data = read_dump<int32_t>(dir, "data", 256);
    for (int i = 0; i < 256; ++i) CHECK(data[i] == i + i / 64 * 64);
    const nlohmann::json stats = report()["stats"];
    CHECK(stats["gpu"]["launches"]["value"] == 5);
    CHECK(stats["host"]["kernel_launches"]["value"] == 1);
    // The host's grid names the default stream; the four it launched from the device (which
    // run after it, docs/gpu_simt.md) name none.
    const nlohmann::json launches = report()["launches"];
    REQUIRE(launches.size() == 5);
    CHECK(launches[0]["stream"] == 0);
    for (size_t i = 1; i < 5; ++i) CHECK(launches[i]["stream"].is_null());
  }
  SECTION("a block's launches in order, and the host's next launch after them") {
    nlohmann::json workload = {
        {"type", "kernel"},
        {"ptx", shipped("tests/data/ptx/device_launch.ptx")},
        {"buffers", {{"data", ints(8, 3)}}},
        {"launches",
         {{{"kernel", "two_in_order"},
           {"grid", {1, 1, 1}},
           {"block", {32, 1, 1}},
           {"args", {{{"buffer", "data"}}, {{"s32", 8}}}}},
          {{"kernel", "append_digit"},
           {"grid", {1, 1, 1}},
           {"block", {8, 1, 1}},
           {"args", {{{"buffer", "data"}}, {{"s32", 3}}}}}}},
        {"outputs", {"data"}},
        {"limits", {{"malloc_heap_bytes", 65536}}}};  // the parameter buffers' heap
    std::filesystem::create_directories(dir);
    write_text(dir + "/w.json", workload.dump());
    for (const char* platform : {"gpu_small", "hetero_two_level", "ohm_bw_planar"}) {
      INFO("platform " << platform);
      const CliResult r = run_ohmvp("run -q --platform " + std::string(platform) + " --workload " +
                                    dir + "/w.json --out " + dir + " --dump " + dir + "/d");
      INFO(r.output);
      REQUIRE(r.exit_code == 0);
      const std::vector<int32_t> data = read_dump<int32_t>(dir, "data", 8);
      for (int i = 0; i < 8; ++i) CHECK(data[i] == (3 + i) * 1000 + 123);
    }
  }
  SECTION("a tail launch sees what its launcher's threads wrote after launching it") {
    const CliResult r = run_fixture(
        dir, "device_launch.ptx", "tail", 1, 64,
        {{"flags", {{"type", "s32"}, {"count", 64}}}, {"seen", {{"type", "s32"}, {"count", 64}}}},
        {{{"buffer", "flags"}}, {{"buffer", "seen"}}}, {"seen"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<int32_t> seen = read_dump<int32_t>(dir, "seen", 64);
    for (int i = 0; i < 64; ++i) CHECK(seen[i] == i + 1);
  }
  SECTION("a tree of nested launches, and one nested too deep") {
    const auto tree = [&](int levels) {
      return run_fixture(
          dir, "device_launch.ptx", "tree", 1, 1,
          {{"leaves", {{"type", "s32"}, {"count", 16}}},
           {"grids", {{"type", "s32"}, {"count", 1}}}},
          {{{"buffer", "leaves"}}, {{"buffer", "grids"}}, {{"s32", levels}}, {{"s32", 0}}},
          {"leaves", "grids"});
    };
    const CliResult r = tree(4);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<int32_t> leaves = read_dump<int32_t>(dir, "leaves", 16);
    for (int i = 0; i < 16; ++i) CHECK(leaves[i] == i + 1);
    CHECK(read_dump<int32_t>(dir, "grids", 1)[0] == 31);
    CHECK(report()["stats"]["gpu"]["launches"]["value"] == 31);
    const CliResult deep = tree(30);
    INFO(deep.output);
    CHECK(deep.exit_code == 1);
    CHECK_THAT(deep.output, Contains("kernel 'tree' launched 'tree' <<<(1,1,1), (1,1,1)>>> from "
                                     "the device: launches from the device nest deeper than "
                                     "CUDA's 24 levels"));
  }
  SECTION("a block whose launch got no parameter buffer reads the error") {
    const CliResult r =
        run_fixture(dir, "device_launch.ptx", "launch_errors", 4, 32,
                    {{"data", ints(8, 0)}, {"errors", {{"type", "s32"}, {"count", 12}}}},
                    {{{"buffer", "data"}}, {{"buffer", "errors"}}}, {"errors"},
                    {{"malloc_heap_bytes", 32}});  // two parameter buffers for four blocks
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<int32_t> errors = read_dump<int32_t>(dir, "errors", 12);
    int failed = 0;
    for (int b = 0; b < 4; ++b) {
      INFO("block " << b);
      CHECK(errors[3 * b] == errors[3 * b + 1]);  // peek, then get: the same error
      CHECK((errors[3 * b] == 0 || errors[3 * b] == 69));
      CHECK(errors[3 * b + 2] == 0);  // cleared by the get
      failed += errors[3 * b] == 69;
    }
    CHECK(failed == 2);
  }
  SECTION("a launch the device runtime refuses is a fault naming it") {
    const CliResult r = run_fixture(dir, "device_launch.ptx", "empty_launch", 1, 32,
                                    {{"data", ints(8, 0)}}, {{{"buffer", "data"}}}, {"data"});
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Contains("kernel 'empty_launch' launched 'add_base' <<<(0,1,1), "
                                  "(32,1,1)>>> from the device: launch of kernel 'add_base': "
                                  "grid and block must have at least one thread"));
  }
}

TEST_CASE("cli: blur_tex2d with border or normalised mirror addressing matches its reference") {
  const std::string dir = scratch_dir("blur_addressing");
  auto blur = shipped_kernel_workload("blur_tex2d");
  for (const auto& [address, normalized] :
       std::vector<std::pair<std::string, bool>>{{"border", false}, {"mirror", true}}) {
    INFO(address);
    blur["launches"][0]["args"][0]["texture"]["address"] = address;
    blur["launches"][0]["args"][0]["texture"]["normalized"] = normalized;
    write_text(dir + "/blur_tex2d.json", blur.dump());
    const CliResult r = run_ohmvp("run -q --verify --workload " + dir + "/blur_tex2d.json --out " +
                                  dir + "/" + address);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Contains("every output matches the C++ reference"));
  }
}

TEST_CASE("cli: what one SM writes another sees through volatile, .cg, .cv loads and a fence") {
  // tests/data/ptx/coherence.cu: the consumer's L1 holds the flag's and the data's lines before
  // the producer writes them; polls past the L1 see the flag, and the fence after it makes a
  // plain load read the new data.
  const std::string dir = scratch_dir("coherence");
  for (int mode = 0; mode < 4; ++mode) {
    INFO("mode " << mode);
    const CliResult r = run_fixture(
        dir, "coherence.ptx", "flag_handoff", 2, 32,
        {{"flag", {{"type", "s32"}, {"count", 32}}},
         {"data", {{"type", "s32"}, {"count", 32}}},
         {"out", {{"type", "s32"}, {"count", 6}}}},
        {{{"buffer", "flag"}}, {{"buffer", "data"}}, {{"buffer", "out"}}, {{"s32", mode}}},
        {"out"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::vector<int32_t> out = read_dump<int32_t>(dir, "out", 6);
    CHECK(out[0] == 0);   // the first poll, before the producer wrote
    CHECK(out[5] == 0);   // the data before the flag, now in the consumer's L1
    CHECK(out[1] == 1);   // the flag was seen ...
    CHECK(out[4] > 0);    // ... after some polls
    CHECK(out[2] == 42);  // the data read as the flag was
    CHECK(out[3] == 42);  // a plain load after the fence
    const auto stats = nlohmann::json::parse(read_text(dir + "/report.json"))["stats"];
    if (mode < 3) CHECK(stats["gpu.sm0"]["l1_bypasses"]["value"].get<uint64_t>() > 0);
    CHECK(stats["gpu.sm0"]["l1_fence_invalidations"]["value"] == 1);
  }
}

TEST_CASE("cli: a load waiting in the L1 for its line does not see the thread's later store") {
  // tests/data/ptx/coherence.cu: each thread's store to its word does not wait for the load of it
  // before, whose line is still on its way from L2 when the store passes the L1.
  const std::string dir = scratch_dir("load_then_store");
  const CliResult r = run_fixture(
      dir, "coherence.ptx", "load_then_store", 1, 32,
      {{"words", {{"type", "s32"}, {"count", 32}, {"init", {{"sequence", {{"start", 100}}}}}}},
       {"out", {{"type", "s32"}, {"count", 32}}}},
      {{{"buffer", "words"}}, {{"buffer", "out"}}}, {"words", "out"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::vector<int32_t> out = read_dump<int32_t>(dir, "out", 32);
  const std::vector<int32_t> words = read_dump<int32_t>(dir, "words", 32);
  for (int32_t i = 0; i < 32; ++i) {
    CHECK(out[i] == 100 + i);
    CHECK(words[i] == -1);
  }
  const auto stats = nlohmann::json::parse(read_text(dir + "/report.json"))["stats"];
  CHECK(stats["gpu.sm0"]["l1_misses"]["value"] == 1);
}

TEST_CASE("cli: words written before bar.sync are seen by the other warps on full platforms") {
  // tests/data/ptx/coherence.cu: four warps hand their words on through global memory across
  // __syncthreads(), which does not wait for the stores' acknowledgements, and overwrite them
  // after a second barrier, which the reads before it must not see.
  const std::string dir = scratch_dir("barrier_handoff");
  constexpr int threads = 128;
  const CliResult first = run_fixture(
      dir, "coherence.ptx", "barrier_handoff", 1, threads,
      {{"words", {{"type", "s32"}, {"count", threads}, {"init", {{"sequence", {{"start", 0}}}}}}},
       {"out", {{"type", "s32"}, {"count", 2 * threads}}}},
      {{{"buffer", "words"}}, {{"buffer", "out"}}}, {"words", "out"});
  INFO(first.output);
  REQUIRE(first.exit_code == 0);
  // The default platform's run, then the same workload through XPoint and the optical channel.
  for (const char* platform : {"", "hetero_two_level", "ohm_bw_planar"}) {
    INFO("platform " << platform);
    if (*platform != 0) {
      const CliResult r = run_ohmvp("run -q --platform " + std::string(platform) + " --workload " +
                                    dir + "/w.json --out " + dir + " --dump " + dir + "/d");
      INFO(r.output);
      REQUIRE(r.exit_code == 0);
    }
    const std::vector<int32_t> out = read_dump<int32_t>(dir, "out", 2 * threads);
    const std::vector<int32_t> words = read_dump<int32_t>(dir, "words", threads);
    for (int t = 0; t < threads; ++t) {
      const int other = (t + 32) % threads;
      CHECK(out[2 * t] == other);             // the initial word
      CHECK(out[2 * t + 1] == 1000 + other);  // written by another warp before the barrier
      CHECK(words[t] == 2000 + t);
    }
  }
}

TEST_CASE("cli: an acquiring load orders the plain load after it behind the L1 it empties") {
  // tests/data/ptx/coherence.cu: the consumer's L1 holds the data's line from before the
  // producer wrote it; the load of the data comes right after ld.acquire.gpu of the flag, with
  // nothing between them that waits for the acquire.
  const std::string dir = scratch_dir("acquire_handoff");
  const CliResult r =
      run_fixture(dir, "coherence.ptx", "acquire_handoff", 2, 32,
                  {{"flag", {{"type", "s32"}, {"count", 32}}},
                   {"data", {{"type", "s32"}, {"count", 32}}},
                   {"out", {{"type", "s32"}, {"count", 4}}}},
                  {{{"buffer", "flag"}}, {{"buffer", "data"}}, {{"buffer", "out"}}}, {"out"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::vector<int32_t> out = read_dump<int32_t>(dir, "out", 4);
  CHECK(out[2] == 0);  // the data before the flag, now in the consumer's L1
  CHECK(out[3] > 0);   // the flag came after some polls
  CHECK(out[0] == 1);
  CHECK(out[1] == 42);
  const auto stats = nlohmann::json::parse(read_text(dir + "/report.json"))["stats"];
  CHECK(stats["gpu.sm0"]["l1_fence_invalidations"]["value"] == 1);
}

TEST_CASE("cli: a lock taken by threads of one warp is handed over on the timed GPU") {
  // tests/data/ptx/warp_locks.cu: the critical section follows the spin loop, so the winner runs
  // only when the lanes spinning in its warp yield to it (independent thread scheduling).
  const std::string dir = scratch_dir("warp_locks");
  constexpr unsigned threads = 32;
  const CliResult r = run_fixture(
      dir, "warp_locks.ptx", "lock_after_loop", 1, threads,
      {{"lock", {{"type", "s32"}, {"count", 1}}},
       {"counter", {{"type", "s32"}, {"count", 1}}},
       {"order", {{"type", "s32"}, {"count", threads}}}},
      {{{"buffer", "lock"}}, {{"buffer", "counter"}}, {{"buffer", "order"}}}, {"counter", "order"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(read_dump<int32_t>(dir, "counter", 1)[0] == int32_t(threads));
  std::vector<int32_t> order = read_dump<int32_t>(dir, "order", threads);
  std::sort(order.begin(), order.end());
  for (unsigned t = 0; t < threads; ++t) CHECK(order[t] == int32_t(t));
  // Every thread but the last to win waited at the loop's exit until its spinners yielded.
  const auto stats = nlohmann::json::parse(read_text(dir + "/report.json"))["stats"];
  CHECK(stats["gpu.sm0"]["path_yields"]["value"] == threads - 1);

  // Then __syncthreads(), and __ballot_sync, __shfl_xor_sync and __syncthreads_count, over two
  // warps: the winners wait there for the spinners of their warp.
  const nlohmann::json lock_buffers = {{"lock", {{"type", "s32"}, {"count", 1}}},
                                       {"counter", {{"type", "s32"}, {"count", 1}}},
                                       {"out", {{"type", "s32"}, {"count", 6 * threads}}}};
  const nlohmann::json lock_args = {
      {{"buffer", "lock"}}, {{"buffer", "counter"}}, {{"buffer", "out"}}};
  for (const char* kernel : {"lock_then_barrier", "lock_then_warp_sync"}) {
    INFO(kernel);
    const CliResult after = run_fixture(dir, "warp_locks.ptx", kernel, 1, 2 * threads, lock_buffers,
                                        lock_args, {"out"});
    INFO(after.output);
    REQUIRE(after.exit_code == 0);
    const std::vector<int32_t> out = read_dump<int32_t>(dir, "out", 6 * threads);
    for (unsigned t = 0; t < 2 * threads; ++t) {
      if (std::string(kernel) == "lock_then_barrier") {
        CHECK(out[t] == int32_t(2 * threads));  // every critical section is done
      } else {
        CHECK(uint32_t(out[3 * t]) == 0xffffffffu);
        CHECK(out[3 * t + 1] == 31 * 32 / 2);
        CHECK(out[3 * t + 2] == int32_t(threads));  // the odd threads of 2 x 32
      }
    }
  }
}

TEST_CASE("cli: __syncwarp and shuffles in the arms of an if/else meet on the timed GPU") {
  // tests/data/ptx/divergent_sync.cu: each arm waits at its own warp-synchronous instruction for
  // the other, over two warps of an SM.
  const std::string dir = scratch_dir("divergent_sync");
  constexpr unsigned threads = 64;
  const CliResult tile =
      run_fixture(dir, "divergent_sync.ptx", "tile_swap_in_both_arms", 1, threads,
                  {{"out", {{"type", "s32"}, {"count", threads}}}}, {{{"buffer", "out"}}}, {"out"});
  INFO(tile.output);
  REQUIRE(tile.exit_code == 0);
  const std::vector<int32_t> swapped = read_dump<int32_t>(dir, "out", threads);
  for (unsigned t = 0; t < threads; ++t) {
    const int32_t lane = int32_t(t % 32);
    CHECK(swapped[t] == (lane < 16 ? (lane + 16) * 100 : (lane - 16) * 10));
  }
  const auto stats = nlohmann::json::parse(read_text(dir + "/report.json"))["stats"];
  CHECK(stats["gpu.sm0"]["path_yields"]["value"] == 2);  // once in each warp

  const CliResult exchange =
      run_fixture(dir, "divergent_sync.ptx", "exchange_in_both_arms", 1, threads,
                  {{"out", {{"type", "s32"}, {"count", threads}}},
                   {"ballots", {{"type", "u32"}, {"count", threads}}}},
                  {{{"buffer", "out"}}, {{"buffer", "ballots"}}}, {"out", "ballots"});
  INFO(exchange.output);
  REQUIRE(exchange.exit_code == 0);
  const std::vector<int32_t> shuffled = read_dump<int32_t>(dir, "out", threads);
  const std::vector<uint32_t> ballots = read_dump<uint32_t>(dir, "ballots", threads);
  for (unsigned t = 0; t < threads; ++t) {
    const int32_t source = int32_t((t + 1) % 32);
    CHECK(shuffled[t] == (source % 3 == 0 ? source + 1000 : -source));
    // lanes 0, 3, 6 (the first arm, lane < 8) and 25, 26, 28, 29, 31 (the other, lane >= 24)
    CHECK(ballots[t] == 0xb6000049u);
  }

  // A nested if/else's arms meet the outer else arm at their shuffles: out[64 + lane] is what
  // the first arm adds to its shuffled value (0 here: the buffer starts zeroed).
  const CliResult nested = run_fixture(
      dir, "divergent_sync.ptx", "shuffle_in_nested_arms", 1, threads,
      {{"out", {{"type", "s32"}, {"count", threads + 64}}}}, {{{"buffer", "out"}}}, {"out"});
  INFO(nested.output);
  REQUIRE(nested.exit_code == 0);
  const std::vector<int32_t> inner = read_dump<int32_t>(dir, "out", threads + 64);
  for (unsigned t = 0; t < threads; ++t) {
    const int32_t source = int32_t((t + 8) % 32);
    CHECK(inner[t] == source + (source < 8 ? 100 : source < 16 ? 200 : 300));
  }
}

TEST_CASE("cli: warp-aggregated atomics by __match_any_sync count every key on the timed GPU") {
  // tests/data/ptx/warp_match.cu: the threads of a warp holding one key elect a leader that adds
  // the group's size with one atomicAdd.
  const std::string dir = scratch_dir("warp_match");
  constexpr unsigned n = 1000, bin_count = 16;
  const nlohmann::json random_keys = {{"seed", 5}, {"min", 0}, {"max", bin_count - 1}};
  const CliResult r = run_fixture(
      dir, "warp_match.ptx", "aggregated_histogram", 4, 256,
      {{"keys", {{"type", "s32"}, {"count", n}, {"init", {{"random", random_keys}}}}},
       {"bins", {{"type", "s32"}, {"count", bin_count}}},
       {"atomics", {{"type", "s32"}, {"count", 1}}}},
      {{{"buffer", "keys"}}, {{"buffer", "bins"}}, {{"buffer", "atomics"}}, {{"s32", n}}},
      {"keys", "bins", "atomics"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::vector<int32_t> keys = read_dump<int32_t>(dir, "keys", n);
  std::vector<int32_t> expected_bins(bin_count);
  int32_t expected_atomics = 0;
  for (unsigned warp = 0; warp * 32 < n; ++warp) {
    std::vector<bool> seen(bin_count);
    for (unsigned t = warp * 32; t < std::min(n, warp * 32 + 32); ++t) {
      ++expected_bins[size_t(keys[t])];
      if (!seen[size_t(keys[t])]) seen[size_t(keys[t])] = true, ++expected_atomics;
    }
  }
  CHECK(read_dump<int32_t>(dir, "bins", bin_count) == expected_bins);
  CHECK(read_dump<int32_t>(dir, "atomics", 1)[0] == expected_atomics);
}

TEST_CASE("cli: generic pointers to __constant__ data read its copy on the timed GPU") {
  // tests/data/ptx/const_pointers.cu; the values are checked in test_simt_executor.
  const std::string dir = scratch_dir("const_pointers");
  const CliResult r = run_fixture(
      dir, "const_pointers.ptx", "const_pointers", 1, 32,
      {{"slots", {{"type", "u64"}, {"count", 32}}}, {"out", {{"type", "f32"}, {"count", 128}}}},
      {{{"buffer", "slots"}}, {{"buffer", "out"}}}, {"out"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::vector<float> out = read_dump<float>(dir, "out", 128);
  CHECK(out[4 * 2 + 1] == 2.5f);   // weights[2] through the generic pointer
  CHECK(out[4 * 3 + 1] == -1.0f);  // offsets[3]
  CHECK(out[4 * 5 + 3] == 1.0f);   // isspacep.const
  // Generic loads read the constant bank's copy through the caches like global loads: the
  // constant cache serves only the 8 ld.param/st.param of the kernel and the call.
  const auto stats = nlohmann::json::parse(read_text(dir + "/report.json"))["stats"];
  CHECK(stats["gpu.sm0"]["const_accesses"]["value"] == 8);
}

TEST_CASE("cli: variables initialised with addresses on the timed GPU") {
  // tests/data/ptx/address_initialisers.cu; every value is checked in test_simt_module_data.
  const std::string dir = scratch_dir("address_initialisers");
  const CliResult r =
      run_fixture(dir, "address_initialisers.ptx", "address_initialisers", 1, 4,
                  {{"out", {{"type", "s32"}, {"count", 32}}}}, {{{"buffer", "out"}}}, {"out"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::vector<int32_t> out = read_dump<int32_t>(dir, "out", 32);
  CHECK(out[8 * 2 + 0] == 'g');  // names[2]
  CHECK(out[8 * 3 + 2] == 3);    // *scale_at: a pointer in __constant__ read with ld.global
  CHECK(out[8 * 1 + 7] == -17);  // packed[1].apply: a byte-masked function pointer
}

TEST_CASE("cli: recursive device functions on the timed GPU") {
  // tests/data/ptx/recursion.cu; every value is checked in test_simt_recursion. Values 0..22:
  // the subtree sums below nodes 0 and 10.
  const std::string dir = scratch_dir("recursion");
  const nlohmann::json values = {
      {"type", "s32"}, {"count", 23}, {"init", {{"sequence", {{"start", 0}, {"step", 1}}}}}};
  const CliResult r =
      run_fixture(dir, "recursion.ptx", "recursion", 1, 40,
                  {{"values", values}, {"out", {{"type", "s32"}, {"count", 160}}}},
                  {{{"buffer", "values"}}, {{"u32", 23}}, {{"buffer", "out"}}}, {"out"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::vector<int32_t> out = read_dump<int32_t>(dir, "out", 160);
  CHECK(out[4 * 15] == 610);     // fib(15)
  CHECK(out[4 * 4 + 1] == 340);  // chain(null, 4, 4)
  CHECK(out[4 * 0 + 3] == 253);  // 0 + 1 + ... + 22
  CHECK(out[4 * 10 + 3] == 10 + 21 + 22);
}

TEST_CASE("cli: a workload's stack limit sets how deep a kernel may recurse") {
  // tests/data/ptx/recursion.cu: thread 3 of recursion_depth(197) runs deep(200), 200 recursive
  // activations of 16 bytes each (test_simt_recursion).
  const std::string dir = scratch_dir("recursion_depth");
  const auto run = [&](const nlohmann::json& limits) {
    return run_fixture(dir, "recursion.ptx", "recursion_depth", 1, 4,
                       {{"out", {{"type", "s32"}, {"count", 4}}}},
                       {{{"s32", 197}}, {{"buffer", "out"}}}, {"out"}, limits);
  };
  const CliResult small = run(nlohmann::json::object());
  CHECK(small.exit_code == 1);
  CHECK_THAT(small.output, Contains("call stack overflow") && Contains("thread (0,0,0)"));
  const CliResult large = run({{"stack_bytes", 3200}});
  INFO(large.output);
  REQUIRE(large.exit_code == 0);
  // deep(d) = (deep(d - 1) * 3 + d) % 1000, deep(0) = 1, for d = 197 + thread.
  CHECK(read_dump<int32_t>(dir, "out", 4) == std::vector<int32_t>{86, 456, 567, 901});
}

TEST_CASE("cli: buffers bound to module variables on the timed GPU") {
  // tests/data/ptx/symbols.cu: the host sets the __constant__ filter (the constant bank the
  // launch reads through ld.const) and the __device__ offsets, and reads the counter back.
  const std::string dir = scratch_dir("symbols");
  const CliResult r = run_fixture(
      dir, "symbols.ptx", "convolve", 2, 32,
      {{"in", {{"type", "f32"}, {"count", 64}, {"init", {{"sequence", {{"start", 0}}}}}}},
       {"out", {{"type", "f32"}, {"count", 64}}},
       {"filter", {{"type", "f32"}, {"count", 5}, {"symbol", "filter"}, {"init", {{"value", 2}}}}},
       {"offsets",
        {{"type", "s32"}, {"count", 4}, {"symbol", "offsets"}, {"init", {{"value", 7}}}}},
       {"calls", {{"type", "u32"}, {"count", 1}, {"symbol", "calls"}}}},
      {{{"buffer", "in"}}, {{"buffer", "out"}}, {{"s32", 64}}}, {"out", "calls"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(read_dump<float>(dir, "out", 64)[10] == 2 * (8 + 9 + 10 + 11 + 12) + 7);
  CHECK(read_dump<uint32_t>(dir, "calls", 1)[0] == 64);
}

TEST_CASE("cli: a failing assert() on the timed GPU is a simulation error that quotes it") {
  // tests/data/ptx/assertions.cu: thread 25 is the first whose value is below -1000.
  const std::string dir = scratch_dir("assertions");
  const nlohmann::json in = {
      {"type", "s32"}, {"count", 64}, {"init", {{"sequence", {{"start", -10}, {"step", -40}}}}}};
  const CliResult r =
      run_fixture(dir, "assertions.ptx", "checked_double", 1, 64,
                  {{"in", in}, {"out", {{"type", "s32"}, {"count", 64}}}},
                  {{{"buffer", "in"}}, {{"buffer", "out"}}, {{"u32", 64}}}, {"out"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output,
             Contains("ohmvp: simulation error: device fault in kernel 'checked_double'") &&
                 Contains("assertion `in[i] >= -1000` failed (assertions.cu:9") &&
                 Contains("thread (25,0,0)"));
  CHECK_FALSE(std::filesystem::exists(dir + "/report.json"));
}

TEST_CASE("cli: printf in a kernel on the timed GPU prints on stdout when the kernel is done") {
  // tests/data/ptx/device_printf.cu (the text of every conversion is checked in
  // test_simt_executor): the arguments are read from the threads' .local storage through the
  // L2s once the warp's stores are complete.
  const std::string dir = scratch_dir("device_printf");
  write_text(dir + "/name.bin", std::string("timed\0", 6));
  const CliResult r = run_fixture(
      dir, "device_printf.ptx", "print_values", 1, 40,
      {{"name", {{"type", "u8"}, {"count", 6}, {"init", {{"file", dir + "/name.bin"}}}}},
       {"values", {{"type", "s32"}, {"count", 3}, {"init", {{"sequence", {{"start", 10}}}}}}}},
      {{{"buffer", "name"}}, {{"buffer", "values"}}, {{"s32", 3}}}, {"values"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("t=0 value=   10 hex=0xa unsigned=10 char=a long=10000000070 "
                                "float=2.500 short=10000\n") &&
                           Contains("t=39 value=   10 hex=0xa") &&
                           Contains("lane  7 reports +5.50e+00\n") &&
                           Contains("[timed] [left  |   tru] 100%\n"));
  // Thread 0's lines come in the order it printed them, before the summary.
  CHECK(r.output.find("t=0 value") < r.output.find("[timed]"));
  CHECK(r.output.find("[timed]") < r.output.find("OhmVP"));
}

TEST_CASE("cli: a workload's printf FIFO limit drops what does not fit, and says so") {
  const std::string dir = scratch_dir("printf_fifo");
  write_text(dir + "/name.bin", std::string("timed\0", 6));
  const CliResult r = run_fixture(
      dir, "device_printf.ptx", "print_values", 1, 40,
      {{"name", {{"type", "u8"}, {"count", 6}, {"init", {{"file", dir + "/name.bin"}}}}},
       {"values", {{"type", "s32"}, {"count", 3}, {"init", {{"sequence", {{"start", 10}}}}}}}},
      {{{"buffer", "name"}}, {{"buffer", "values"}}, {{"s32", 3}}}, {"values"},
      {{"printf_fifo_bytes", 200}});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Contains("t=0 value=   10") &&
                           Contains("printf calls of kernel 'print_values' were dropped: the "
                                    "device printf buffer (200 bytes per launch) was full"));
  CHECK_THAT(r.output, !Contains("t=39 value"));
}

TEST_CASE("cli: function pointers and virtual calls run on the timed GPU") {
  // tests/data/ptx/function_pointers.cu; each warp's lanes call three functions through one
  // indirect call, in turn.
  const std::string dir = scratch_dir("function_pointers");
  constexpr unsigned threads = 64;
  const CliResult r = run_fixture(dir, "function_pointers.ptx", "dispatch", 1, threads,
                                  {{"in",
                                    {{"type", "f32"},
                                     {"count", threads},
                                     {"init", {{"sequence", {{"start", -2.0}, {"step", 0.5}}}}}}},
                                   {"out", {{"type", "f32"}, {"count", 3 * threads}}}},
                                  {{{"buffer", "in"}}, {{"buffer", "out"}}}, {"out"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::vector<float> out = read_dump<float>(dir, "out", 3 * threads);
  for (unsigned t = 0; t < threads; ++t) {
    const float x = -2.0f + 0.5f * float(t);
    INFO("thread " << t);
    CHECK(out[3 * t] == (t % 3 == 0 ? x * x : t % 3 == 1 ? -x : 0.5f * x));
    CHECK(out[3 * t + 1] == (t % 2 == 0 ? x * x : 3.0f * x * x));
    CHECK(out[3 * t + 2] == x * x);
  }
}

TEST_CASE("cli: malloc, free, new and delete in a kernel run on the timed GPU") {
  // tests/data/ptx/device_heap.cu; the runtime sets the device heap aside at this launch.
  const std::string dir = scratch_dir("device_heap");
  constexpr unsigned threads = 64;
  const CliResult r = run_fixture(dir, "device_heap.ptx", "heap_users", 2, threads / 2,
                                  {{"out", {{"type", "s32"}, {"count", 3 * threads}}}},
                                  {{{"buffer", "out"}}, {{"u64", uint64_t{1} << 30}}}, {"out"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::vector<int32_t> out = read_dump<int32_t>(dir, "out", 3 * threads);
  for (unsigned t = 0; t < threads; ++t) {
    INFO("thread " << t);
    CHECK(out[3 * t] == int32_t(t * (t + 1) / 2));
    CHECK(out[3 * t + 1] == (t % 2 == 0 ? 3 : 4));
    CHECK(out[3 * t + 2] == 1);
  }
}

TEST_CASE("cli: char, short and __half parameters, alone and in a struct, reach the kernel") {
  // tests/data/ptx/narrow_args.cu: .u8/.u16 parameters, a __half (.b8[2]) and a struct
  // {signed char, short, int}; the kernel writes each back widened.
  const std::string dir = scratch_dir("narrow_args");
  const CliResult r = run_fixture(dir, "narrow_args.ptx", "narrow_args", 1, 32,
                                  {{"out", {{"type", "s32"}, {"count", 8}}}},
                                  {{{"buffer", "out"}},
                                   {{"s8", -5}},
                                   {{"s16", -300}},
                                   {{"u8", 200}},
                                   {{"u16", 60000}},
                                   {{"f16", 1.5}},
                                   {{"struct", {{{"s8", -7}}, {{"s16", 1234}}, {{"s32", -99}}}}}},
                                  {"out"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::vector<int32_t> out = read_dump<int32_t>(dir, "out", 8);
  float half_widened = 0;
  std::memcpy(&half_widened, &out[4], 4);
  CHECK(out[0] == -5);
  CHECK(out[1] == -300);
  CHECK(out[2] == 200);
  CHECK(out[3] == 60000);
  CHECK(half_widened == 1.5f);
  CHECK(out[5] == -7);
  CHECK(out[6] == 1234);
  CHECK(out[7] == -99);
}

TEST_CASE("cli: __nanosleep suspends the warp for its nanoseconds on the timed GPU") {
  // tests/data/ptx/warp_locks.cu: %globaltimer read around __nanosleep(ns).
  const std::string dir = scratch_dir("nanosleep");
  for (const unsigned ns : {0u, 5000u, 2000000u}) {
    INFO(ns << " ns");
    const CliResult r = run_fixture(dir, "warp_locks.ptx", "sleep_between_timer_reads", 1, 32,
                                    {{"out", {{"type", "u64"}, {"count", 32}}}},
                                    {{{"buffer", "out"}}, {{"u32", ns}}}, {"out"});
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const uint64_t slept = read_dump<uint64_t>(dir, "out", 32)[0];
    const uint64_t expected = std::min(ns, 1000000u);  // the PTX ISA's longest sleep: 1 ms
    CHECK(slept >= expected);
    CHECK(slept < expected + 50);  // and the few cycles of the instructions around it
  }
}

TEST_CASE("cli: atom.add.f16 and a bf16 widened by mov run on the timed GPU") {
  // tests/data/ptx/packed_integer.cu; the functional results are checked in test_simt_executor.
  const std::string dir = scratch_dir("packed_integer");
  nlohmann::json args = nlohmann::json::array();
  for (const char* buffer : {"a", "b", "out", "sum", "bf16", "wide"})
    args.push_back({{"buffer", buffer}});
  const CliResult r = run_fixture(
      dir, "packed_integer.ptx", "packed_ops", 1, 32,
      {{"a",
        {{"type", "u32"}, {"count", 32}, {"init", {{"sequence", {{"start", 1}, {"step", 3}}}}}}},
       {"b", {{"type", "u32"}, {"count", 32}}},
       {"out", {{"type", "u32"}, {"count", 13 * 32}}},
       {"sum", {{"type", "f16"}, {"count", 1}}},
       {"bf16", {{"type", "u16"}, {"count", 32}, {"init", {{"sequence", {{"start", 16256}}}}}}},
       {"wide", {{"type", "f32"}, {"count", 32}}}},
      args, {"out", "sum", "wide"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::string sum = read_text(dir + "/d/sum.bin");
  REQUIRE(sum.size() == 2);
  CHECK(uint8_t(sum[0]) == 0x00);
  CHECK(uint8_t(sum[1]) == 0x4a);  // 12.0 in binary16
  const std::vector<uint32_t> wide = read_dump<uint32_t>(dir, "wide", 32);
  for (uint32_t t = 0; t < 32; ++t) CHECK(wide[t] == (16256 + t) << 16);
}

TEST_CASE("cli: a two-level scheduler smaller than a CTA's warps gets them all past a barrier") {
  // matmul's CTAs are 256 threads, 8 warps: with one active warp per sub-core, warps waiting at
  // __syncthreads leave the set for those that have yet to arrive.
  const std::string dir = scratch_dir("two_level_barrier");
  for (const char* size : {"1", "2"}) {
    INFO("active_set_size " << size);
    const CliResult r = run_ohmvp(
        std::string("run -q --workload matmul --verify --set gpu.warp_scheduler.policy=two_level "
                    "--set gpu.warp_scheduler.active_set_size=") +
        size + " --out " + dir);
    INFO(r.output);
    CHECK(r.exit_code == 0);
  }
}

TEST_CASE("cli: a device fault stops the run with exit 1 naming kernel, CTA, thread and buffer") {
  const std::string dir = scratch_dir("kernel_fault");
  write_text(dir + "/oob.json", vecadd_workload(1 << 20));
  const CliResult r = run_ohmvp("run -q --workload " + dir + "/oob.json --out " + dir + "/out");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("vecadd") && Contains("CTA") && Contains("thread"));
  // a[8192] and b[8192] are the next buffers' first elements; c[8192] is past every buffer. The
  // first warp of CTA 32 or later (256 threads each) to reach its store faults: which one
  // depends on the timing.
  const std::regex fault(
      "unmapped device address 0x([0-9a-f]+) \\(global\\) at CTA \\(([0-9]+),0,0\\) thread "
      "\\(([0-9]+),0,0\\); that is (just|[0-9]+ bytes) past the end of buffer 'c' \\(8192 f32 at "
      "0x20000\\), where its element ([0-9]+) would be");
  std::smatch m;
  REQUIRE(std::regex_search(r.output, m, fault));
  const uint64_t cta = std::stoull(m[2]);
  const uint64_t thread = std::stoull(m[3]);
  const uint64_t element = std::stoull(m[5]);
  CHECK(cta >= 32);
  CHECK(thread % 32 == 0);
  CHECK(element == 256 * cta + thread);
  CHECK(std::stoull(m[1], nullptr, 16) == 0x20000 + 4 * element);
  CHECK(m[4] == (element == 8192 ? "just" : std::to_string(4 * (element - 8192)) + " bytes"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out/report.json"));
  // Folders the failed run made and left without a file go; one holding its VCD stays.
  CHECK(run_ohmvp("run -q --workload " + dir + "/oob.json --out " + dir + "/new/a").exit_code == 1);
  CHECK_FALSE(std::filesystem::exists(dir + "/new"));
  CHECK(run_ohmvp("run -q --workload " + dir + "/oob.json --out " + dir + "/kept --vcd " + dir +
                  "/kept/t.vcd")
            .exit_code == 1);
  CHECK(std::filesystem::exists(dir + "/kept/t.vcd"));
  // A VCD's folder is made, and goes with the run on bad input or stays holding the VCD.
  CHECK(run_ohmvp("run -q --workload " + dir + "/oob.json --out " + dir + "/out --vcd " + dir +
                  "/waves/a/t.vcd")
            .exit_code == 1);
  CHECK(std::filesystem::exists(dir + "/waves/a/t.vcd"));
  write_text(dir + "/afile", "");
  const CliResult not_folder = run_ohmvp("run -q --workload " + dir + "/oob.json --out " + dir +
                                         "/out --dump " + dir + "/afile");
  CHECK(not_folder.exit_code == 2);
  CHECK_THAT(not_folder.output, Contains("--dump: cannot create output folder " + dir + "/afile"));
  // An earlier run's dump files go too: they would read as this run's outputs.
  std::filesystem::create_directories(dir + "/dump");
  write_text(dir + "/dump/c.bin", "earlier");
  write_text(dir + "/dump/index.json", "{}");
  write_text(dir + "/dump/notes.txt", "the user's");
  CHECK(run_ohmvp("run -q --workload " + dir + "/oob.json --out " + dir + "/out --dump " + dir +
                  "/dump")
            .exit_code == 1);
  CHECK_FALSE(std::filesystem::exists(dir + "/dump/c.bin"));
  CHECK_FALSE(std::filesystem::exists(dir + "/dump/index.json"));
  CHECK(std::filesystem::exists(dir + "/dump/notes.txt"));
}

// The faulting warp's SM still holds the loads of the warps before it, unsent: they drain, and
// the run ends with the fault (it used to wait on them forever and end as a stall).
TEST_CASE("cli: a load past a buffer's end faults while other warps' loads are queued") {
  const std::string dir = scratch_dir("kernel_fault_queued");
  auto workload = shipped_kernel_workload("saxpy");
  workload["buffers"]["x"]["count"] = 100;
  workload["buffers"]["y"]["count"] = 128;
  workload["launches"][0]["grid"] = {1, 1, 1};
  workload["launches"][0]["block"] = {128, 1, 1};
  workload["launches"][0]["args"][0] = {{"u32", 101}};
  write_text(dir + "/w.json", workload.dump());
  const CliResult r = run_ohmvp("run -q --workload " + dir + "/w.json --out " + dir + "/out");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("device fault in kernel 'saxpy'") &&
                           Contains("at CTA (0,0,0) thread (100,0,0); that is just past the end "
                                    "of buffer 'x' (100 f32 at") &&
                           !Contains("stalled"));
}

TEST_CASE("cli: a store at the top of the address space is a device fault, not a wrap") {
  // 0xfffffffffffffffc + 4 wraps to 0: the range check must not let it through to the last buffer.
  const std::string dir = scratch_dir("top_of_memory");
  write_text(dir + "/k.ptx",
             ".version 7.0\n.target sm_70\n.address_size 64\n"
             ".visible .entry k(.param .u64 k_param_0)\n{\n  .reg .f32 %f<2>;\n"
             "  .reg .b64 %rd<3>;\n  mov.u64 %rd2, -4;\n  mov.f32 %f1, 0f3F800000;\n"
             "  st.global.f32 [%rd2], %f1;\n  ret;\n}\n");
  write_text(dir + "/w.json",
             R"({"ptx": "k.ptx", "buffers": {"a": {"type": "f32", "count": 1}},
                 "launches": [{"kernel": "k", "grid": [1], "block": [1],
                               "args": [{"buffer": "a"}]}], "outputs": ["a"]})");
  const CliResult r = run_ohmvp("run -q --workload " + dir + "/w.json --out " + dir + "/out");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("unmapped device address 0xfffffffffffffffc (global)") &&
                           Contains("far from every buffer: a corrupted pointer?"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out/report.json"));
}

TEST_CASE("cli: a kernel that never ends stops at the time limit with exit 1 naming the kernel") {
  const std::string dir = scratch_dir("kernel_forever");
  const std::string workload = vecadd_ending_in(dir, "$L_forever:\n\tbra.uni $L_forever;", 32);
  // An earlier run's report in the same folder does not outlive the failed run.
  REQUIRE(run_ohmvp("run -q --out " + dir + "/out").exit_code == 0);
  const CliResult r =
      run_ohmvp("run -q --workload " + workload + " --time-limit 250us --out " + dir + "/out");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_FALSE(std::filesystem::exists(dir + "/out/report.json"));
  // Where its warps are: all eight at the branch to itself.
  CHECK_THAT(r.output, Contains("simulated time reached the time limit of 250 us (--time-limit): "
                                "kernel 'vecadd' is running; its 8 warps are at " +
                                dir +
                                "/w.ptx:53 'bra.uni @21' (8 warps); a kernel that never "
                                "ends, or a run that needs a larger --time-limit"));
  for (const char* bad : {"5", "5x", "0ms", "-1ms", "1e3ms"}) {
    INFO(bad);
    const CliResult refused = run_ohmvp("run -q --workload " + workload + " --time-limit " + bad);
    CHECK(refused.exit_code == 2);
    CHECK_THAT(refused.output, Contains(std::string("--time-limit '") + bad + "'"));
  }
  // Below the resolution: named so, not rounded to 2 ps.
  CHECK_THAT(run_ohmvp("run -q --workload " + workload + " --time-limit 1.5ps").output,
             Contains("--time-limit '1.5ps': not a whole number of ps"));
  // Memory traffic takes a limit only when one is given (random_mix ends at 617 us).
  const CliResult traffic =
      run_ohmvp("run -q -p ddr4_2400 -w random_mix --time-limit 100us --out " +
                scratch_dir("traffic_time_limit"));
  CHECK(traffic.exit_code == 1);
  CHECK_THAT(traffic.output, Contains("simulated time reached the time limit of 100 us "
                                      "(--time-limit): ") &&
                                 Contains(" of 100000 requests done; a run that needs a larger "
                                          "--time-limit"));
  CHECK(run_ohmvp("run -q -p ddr4_2400 -w random_mix --time-limit 1ms --out " +
                  scratch_dir("traffic_in_time"))
            .exit_code == 0);
}

TEST_CASE("cli: a time limit names where the warps of every launch and every GPU are") {
  const std::string dir = scratch_dir("kernel_forever_twice");
  auto workload = nlohmann::json::parse(
      read_text(vecadd_ending_in(dir, "$L_forever:\n\tbra.uni $L_forever;", 32)));
  // Two launches of the endless kernel at once, on two streams: one place, their warps together.
  nlohmann::json launch = workload["launches"][0];
  workload["launches"] = nlohmann::json::array();
  for (int stream : {1, 2}) {
    launch["stream"] = stream;
    workload["launches"].push_back(launch);
  }
  workload["non_blocking_streams"] = {1, 2};
  write_text(dir + "/twice.json", workload.dump());
  const CliResult twice =
      run_ohmvp("run -q -w " + dir + "/twice.json --time-limit 50us --out " + dir + "/out");
  INFO(twice.output);
  CHECK(twice.exit_code == 1);
  // (Some warps have not reached the loop: the schedulers keep issuing the greedy ones.)
  CHECK_THAT(twice.output, Contains("kernels 'vecadd' and 'vecadd' are running; their 16 warps are "
                                    "at " +
                                    dir + "/w.ptx:53 'bra.uni @21' ("));
  const std::string& text = twice.output;
  CHECK(text.find("w.ptx:53") == text.rfind("w.ptx:53"));
  // On another GPU: GPU 0 ran its vecadd to the end, GPU 1 spins.
  const CliResult other = run_ohmvp("run -q -p multi_gpu_huvm -w vecadd --gpu-workload 1=" + dir +
                                    "/w.json --time-limit 50us --out " + dir + "/out");
  INFO(other.output);
  CHECK(other.exit_code == 1);
  CHECK_THAT(other.output, Contains("(--time-limit): GPU 0: no kernel is running (copies or the "
                                    "memory's migrations are); GPU 1: kernel 'vecadd' is running; "
                                    "its 8 warps are at " +
                                    dir + "/w.ptx:53 'bra.uni @21' (8 warps); a kernel"));
}

TEST_CASE("cli: a kernel that never ends stops when its VCD reaches --vcd-limit, well formed") {
  const std::string dir = scratch_dir("kernel_vcd_limit");
  const std::string workload = vecadd_ending_in(dir, "$L_forever:\n\tbra.uni $L_forever;", 32);
  REQUIRE(run_ohmvp("run -q --out " + dir + "/out").exit_code == 0);
  const CliResult r = run_ohmvp("run -q --workload " + workload + " --out " + dir + "/out --vcd " +
                                dir + "/t.vcd --vcd-limit 200KiB");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_FALSE(std::filesystem::exists(dir + "/out/report.json"));
  CHECK_THAT(r.output, Contains("the VCD " + dir +
                                "/t.vcd reached its size limit of 200 KiB "
                                "(--vcd-limit) at ") &&
                           Contains(" simulated: kernel 'vecadd' is running; its 8 warps are "
                                    "at ") &&
                           Contains("; a kernel that never ends, or a run that needs a larger "
                                    "--vcd-limit"));
  REQUIRE(std::filesystem::exists(dir + "/t.vcd"));
  CHECK_FALSE(std::filesystem::exists(dir + "/t.vcd.tmp"));
  const auto size = std::filesystem::file_size(dir + "/t.vcd");
  CHECK(size > 100 * 1024);
  CHECK(size <= 200 * 1024 + 24);  // and the closing time line
  if (std::system("command -v vcd2fst >/dev/null 2>&1") == 0)
    CHECK(std::system(("vcd2fst " + dir + "/t.vcd " + dir + "/t.fst >/dev/null 2>&1").c_str()) ==
          0);
  // Memory traffic is bounded the same way.
  const CliResult traffic = run_ohmvp("run -q -p ddr4_2400 -w random_mix --out " + dir +
                                      "/out2 --vcd " + dir + "/r.vcd --vcd-limit 100kB");
  CHECK(traffic.exit_code == 1);
  CHECK_THAT(traffic.output, Contains("reached its size limit of 100 kB (--vcd-limit) at ") &&
                                 Contains(" requests done; a run that needs a larger --vcd-limit"));
  CHECK(std::filesystem::file_size(dir + "/r.vcd") <= 100'000 + 24);
  for (const char* bad : {"5", "0MB", "2 gb"}) {
    INFO(bad);
    const CliResult refused = run_ohmvp("run -q --workload " + workload + " --vcd " + dir +
                                        "/x.vcd --vcd-limit '" + bad + "'");
    CHECK(refused.exit_code == 2);
    CHECK_THAT(refused.output, Contains(std::string("--vcd-limit '") + bad + "'"));
  }
  const CliResult without_vcd = run_ohmvp("run -q --workload " + workload + " --vcd-limit 1MB");
  CHECK(without_vcd.exit_code == 2);
  CHECK_THAT(without_vcd.output, Contains("--vcd-limit bounds the VCD file; give --vcd FILE too"));
  CHECK_FALSE(std::filesystem::exists(dir + "/x.vcd"));
}

TEST_CASE("cli: a barrier deadlock stops the run with exit 1 as a stall") {
  // Warp 0 waits at barrier 0, the CTA's other seven at barrier 1: each barrier waits for all
  // eight warps, nothing issues again.
  const std::string dir = scratch_dir("kernel_deadlock");
  const std::string workload =
      vecadd_ending_in(dir,
                       "{\n\t.reg .pred %first;\n\tsetp.lt.u32 %first, %r5, 32;\n"
                       "\t@%first bra.uni $L_zero;\n\tbar.sync 1;\n\tbra.uni $L_done;\n"
                       "$L_zero:\n\tbar.sync 0;\n$L_done:\n\t}\n\tret;",
                       32);
  const CliResult r = run_ohmvp("run -q --workload " + workload + " --out " + dir);
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("simulation stalled at ") &&
                           Contains(": nothing progressed for the last 1 ms (no instruction "
                                    "issued, no CTA ended, no DRAM command or XPoint media access, "
                                    "no unified-memory fault waiting for its batch or page "
                                    "moving): a deadlock; kernel 'vecadd' is running; its 8 warps "
                                    "are at " +
                                    dir + "/w.ptx:56 'bar.sync 1', waiting (7 warps) and " + dir +
                                    "/w.ptx:59 'bar.sync 0', waiting (1)"));
}

TEST_CASE("cli: a kernel that computes for milliseconds without touching memory is not a stall") {
  // One warp counts to 200,000 before it returns: about 1.3 ms of issue with no memory access
  // and no CTA ending, longer than the 1 ms a run may go without progress.
  const std::string dir = scratch_dir("kernel_compute_bound");
  const std::string workload =
      vecadd_ending_in(dir,
                       "{\n\t.reg .b32 %count;\n\t.reg .pred %again;\n\tmov.u32 %count, 0;\n"
                       "$L_count:\n\tadd.u32 %count, %count, 1;\n"
                       "\tsetp.lt.u32 %again, %count, 200000;\n"
                       "\t@%again bra.uni $L_count;\n\t}\n\tret;",
                       32);
  const CliResult r = run_ohmvp("run -q --workload " + workload + " --out " + dir);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto summary = nlohmann::json::parse(read_text(dir + "/report.json"))["summary"];
  CHECK(summary["simulated_ns"].get<double>() > 1e6);
}

TEST_CASE("cli: page faults over a slow host link are a wait, not a stall") {
  const std::string dir = scratch_dir("slow_pcie");
  // 1 MB/s: each 4 KiB page takes about 4 ms to cross, longer than the 1 ms stall window.
  const CliResult r = run_ohmvp(
      "run -q -p origin_planar --set host.pcie.bandwidth_gb_per_s=0.001 "
      "--out " +
      dir);
  INFO(r.output);
  CHECK(r.exit_code == 0);
}

TEST_CASE("cli: a paged platform, without XPoint, reports no XPoint figures rather than 0") {
  const std::string dir = scratch_dir("paged_figures");
  const CliResult r = run_ohmvp("run -q -p origin_planar --out " + dir);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto summary = nlohmann::json::parse(read_text(dir + "/report.json"))["summary"];
  CHECK(summary.contains("migrations"));
  CHECK_FALSE(summary.contains("xpoint_wear_max_over_mean"));
  CHECK_FALSE(summary.contains("xpoint_media_utilisation"));
  CHECK_THAT(r.output, Contains("DRAM hit rate") && !Contains("XPoint"));
}

TEST_CASE("cli: a run that runs out of host memory says so, exit 1") {
  const std::string dir = scratch_dir("host_memory");
  auto workload = shipped_kernel_workload("vecadd");
  workload["buffers"]["c"]["count"] = 1u << 28;  // 1 GiB, copied through the memory at load
  write_text(dir + "/w.json", workload.dump());
  const CliResult r = run_ohmvp_within(600000, "run -q --workload " + dir + "/w.json --out " + dir);
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Contains("ohmvp: out of host memory"));

  // Registers, taken inside the simulation (a SystemC process) when a CTA starts.
  std::string ptx = read_text(shipped("testbenches/kernels/vecadd.ptx"));
  const size_t declarations = ptx.find(".reg .b32");
  REQUIRE(declarations != std::string::npos);
  ptx.insert(declarations, ".reg .b32 %many<1000000>;\n\t");
  write_text(dir + "/many.ptx", ptx);
  workload = shipped_kernel_workload("vecadd");
  workload["ptx"] = dir + "/many.ptx";
  write_text(dir + "/many.json", workload.dump());
  const CliResult registers =
      run_ohmvp_within(600000, "run -q --workload " + dir + "/many.json --out " + dir);
  INFO(registers.output);
  CHECK(registers.exit_code == 1);
  CHECK_THAT(registers.output, Contains("ohmvp: out of host memory"));
}

TEST_CASE("cli: bad kernel input is exit 2 naming the file and line") {
  const std::string dir = scratch_dir("kernel_bad_input");
  SECTION("unknown PTX instruction") {
    const std::string workload = vecadd_ending_in(dir, "frobnicate.b32 %r1, %r1;", 4096);
    // Found before the outputs are opened: none is made.
    const CliResult r = run_ohmvp("run -q --workload " + workload + " --out " + dir +
                                  "/out/report --vcd " + dir + "/t.vcd --dump " + dir + "/dump");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("w.ptx:") && Contains("frobnicate"));
    for (const char* made : {"/out", "/t.vcd", "/dump"})
      CHECK_FALSE(std::filesystem::exists(dir + made));
  }
  SECTION("outputs that would overwrite an input or each other; an earlier VCD survives") {
    const std::string workload = vecadd_ending_in(dir, "ret;", 4096);
    const CliResult ptx = run_ohmvp("run -q --workload " + workload + " --vcd " + dir + "/w.ptx");
    INFO(ptx.output);
    CHECK(ptx.exit_code == 2);
    CHECK_THAT(ptx.output,
               Contains("--vcd " + dir + "/w.ptx is ") && Contains("an input of this run"));
    const CliResult clash = run_ohmvp("run -q --out " + dir + "/o --vcd " + dir + "/o/report.json");
    CHECK(clash.exit_code == 2);
    CHECK_THAT(clash.output, Contains("--vcd " + dir + "/o/report.json and the report " + dir +
                                      "/o/report.json are the same file"));
    // Nor may the temporary file an output is written as before its rename (X.tmp): it would
    // overwrite the input it lands on, or lose the output it is.
    write_text(dir + "/copy.json.tmp", read_text(workload));
    const CliResult temporary =
        run_ohmvp("run -q --workload " + dir + "/copy.json.tmp --vcd " + dir + "/copy.json");
    CHECK(temporary.exit_code == 2);
    CHECK_THAT(temporary.output, Contains("--vcd's temporary file " + dir + "/copy.json.tmp is ") &&
                                     Contains("an input of this run"));
    CHECK(read_text(dir + "/copy.json.tmp") == read_text(workload));
    const CliResult lost =
        run_ohmvp("run -q --out " + dir + "/o --vcd " + dir + "/o/report.json.tmp");
    CHECK(lost.exit_code == 2);
    CHECK_THAT(lost.output, Contains("--vcd " + dir +
                                     "/o/report.json.tmp and the report's "
                                     "temporary file " +
                                     dir +
                                     "/o/report.json.tmp are the same "
                                     "file"));
    // A temporary file that cannot be written is found before the run (which would end at
    // the time limit, exit code 1), not after it.
    for (const std::string blocked : {"/b/report.json.tmp", "/b/dump/c.bin.tmp"}) {
      std::filesystem::create_directories(dir + blocked);
      const CliResult early =
          run_ohmvp("run -q --out " + dir + "/b --dump " + dir + "/b/dump --time-limit 1ps");
      INFO(early.output);
      CHECK(early.exit_code == 2);
      CHECK_THAT(early.output, Contains("temporary file " + dir + blocked +
                                        ": a folder, not a file; the output is written there "
                                        "first and renamed into place"));
      std::filesystem::remove(dir + blocked);
    }
    // A kernel the GPU's warps cannot run (tensor-core instructions need 32 lanes) is found
    // before the outputs are opened.
    const CliResult narrow = run_ohmvp("run -q --workload wmma_gemm --set gpu.warp_size=16 --out " +
                                       dir + "/o --vcd " + dir + "/narrow.vcd");
    INFO(narrow.output);
    CHECK(narrow.exit_code == 2);
    CHECK_THAT(narrow.output, Contains("need a warp of 32 lanes"));
    CHECK_FALSE(std::filesystem::exists(dir + "/narrow.vcd"));
    // Found once the outputs are opened (an argument of the wrong width): they are removed, and
    // an earlier VCD of that name stays as it was.
    auto wide = nlohmann::json::parse(vecadd_workload(4096));
    wide["launches"][0]["args"][3] = {{"u64", 4096}};
    write_text(dir + "/wide.json", wide.dump());
    write_text(dir + "/t.vcd", "earlier\n");
    const CliResult late = run_ohmvp("run -q --workload " + dir + "/wide.json --out " + dir +
                                     "/x/../o --vcd " + dir + "/t.vcd");
    INFO(late.output);
    CHECK(late.exit_code == 2);
    CHECK_THAT(late.output, Contains("wide.json: launches[0]: launch of 'vecadd': "));
    CHECK(read_text(dir + "/t.vcd") == "earlier\n");
    CHECK_FALSE(std::filesystem::exists(dir + "/t.vcd.tmp"));
    CHECK_FALSE(std::filesystem::exists(dir + "/o"));
    CHECK_FALSE(std::filesystem::exists(dir + "/x"));
  }
  SECTION("a launch with too few arguments, into an existing folder") {
    auto workload = nlohmann::json::parse(vecadd_workload(4096));
    workload["launches"][0]["args"].erase(3);
    write_text(dir + "/w.json", workload.dump());
    std::filesystem::create_directories(dir + "/out");
    const CliResult r = run_ohmvp("run -q --workload " + dir + "/w.json --out " + dir +
                                  "/out --vcd " + dir + "/out/t.vcd");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(
        r.output,
        Contains("w.json: launches[0]: launch of 'vecadd': kernel 'vecadd' takes 4 arguments"));
    CHECK(std::filesystem::exists(dir + "/out"));
    CHECK(std::filesystem::is_empty(dir + "/out"));
    // With --verify too it is the workload's error, not the C++ reference's.
    const CliResult verify = run_ohmvp("run -q --verify --workload " + dir + "/w.json");
    CHECK(verify.exit_code == 2);
    CHECK_THAT(verify.output, Contains("w.json: launches[0]: launch of 'vecadd': kernel 'vecadd' "
                                       "takes 4 arguments; the launch gives 3"));
  }
  SECTION("a float for an integer parameter") {
    auto workload = nlohmann::json::parse(vecadd_workload(4096));
    workload["launches"][0]["args"][3] = {{"f32", 4096.0}};
    write_text(dir + "/w.json", workload.dump());
    const CliResult r = run_ohmvp("run -q --workload " + dir + "/w.json --out " + dir + "/out");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output,
               Contains("w.json: launches[0]: launch of 'vecadd': kernel 'vecadd' parameter 3 "
                        "(vecadd_param_3) is .u32; got a value of type f32 (expected "
                        "an integer type)"));
  }
  SECTION("a texture binding CUDA does not have; a texture of the other geometry") {
    auto blur = shipped_kernel_workload("blur_tex2d");
    const auto run_with = [&](const nlohmann::json& texture) {
      blur["launches"][0]["args"][0]["texture"] = texture;
      write_text(dir + "/w.json", blur.dump());
      return run_ohmvp("run -q --workload " + dir + "/w.json --out " + dir + "/out");
    };
    nlohmann::json wrapped = blur["launches"][0]["args"][0]["texture"];
    wrapped["address"] = "wrap";
    const CliResult wrap = run_with(wrapped);
    INFO(wrap.output);
    CHECK(wrap.exit_code == 2);
    CHECK_THAT(wrap.output,
               Contains("w.json: launches[0]: launch of 'blur_tex2d': texture over 'image': "
                        "address \"wrap\" needs normalized coordinates (\"normalized\": true), "
                        "as in CUDA"));
    CHECK_FALSE(std::filesystem::exists(dir + "/out"));
    const CliResult one_d = run_with({{"buffer", "image"}, {"width", 128}});
    INFO(one_d.output);
    CHECK(one_d.exit_code == 1);
    CHECK_THAT(one_d.output, Contains("texture of another geometry: tex.2d fetches from a 1-D "
                                      "texture"));
  }
  SECTION("a kernel the PTX does not have, a float argument beyond its type") {
    auto workload = nlohmann::json::parse(vecadd_workload(4096));
    workload["launches"][0]["kernel"] = "vecad";
    write_text(dir + "/w.json", workload.dump());
    const CliResult r = run_ohmvp("run -q --workload " + dir + "/w.json --out " + dir + "/out");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("w.json: launches[0]: launch of 'vecad': ") &&
                             Contains("vecadd.ptx: no kernel (.entry) named 'vecad'; did you "
                                      "mean 'vecadd'?"));
    auto saxpy = shipped_kernel_workload("saxpy");
    for (auto& arg : saxpy["launches"][0]["args"])
      if (arg.contains("f32")) arg["f32"] = 1e300;
    write_text(dir + "/s.json", saxpy.dump());
    const CliResult f = run_ohmvp("run -q --workload " + dir + "/s.json --out " + dir + "/out");
    INFO(f.output);
    CHECK(f.exit_code == 2);
    CHECK_THAT(f.output, Contains("s.json: launches[0].args[") &&
                             Contains("].f32: value 1e+300 is beyond the range of f32"));
  }
  SECTION("kernel workload on a platform without a GPU") {
    const CliResult r = run_ohmvp("run -q --platform ddr4_2400 --workload vecadd --out " + dir);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("no GPU"));
  }
  SECTION("--dump with a memory workload") {
    const CliResult r =
        run_ohmvp("run -q --workload stream_read --dump " + dir + "/d --out " + dir + "/o");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("--dump"));
  }
}

TEST_CASE("cli: the tensor-core GEMM on titanv reports HMMA, TFLOPS and utilization") {
  const std::string dir = scratch_dir("tensor_gemm");
  const CliResult run = run_ohmvp("run -q --platform titanv --workload wmma_gemm --vcd " + dir +
                                  "/t.vcd --out " + dir);
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.output, Contains("tensor cores"));
  const auto report = nlohmann::json::parse(read_text(dir + "/report.json"));
  const auto& summary = report["summary"];
  // 64 x 64 x 64 through the shared kernel and again through the global one: 2 x 64 wmma.mma
  // of 16 HMMA steps each (mixed precision on Volta).
  CHECK(summary["hmma"] == 2 * 64 * 16);
  // Each wmma.mma is 16 x 16 x 16 multiply-adds and holds its sub-core's tensor cores 32 cycles;
  // the titanv clock runs at 687 ps, over 80 SMs of 4 sub-cores.
  const double cycles = summary["cycles"].get<double>();
  CHECK(summary["tensor_tflops"].get<double>() ==
        Approx(2.0 * 128 * 16 * 16 * 16 / (cycles * 687e-12) * 1e-12));
  CHECK(summary["tensor_utilization"].get<double>() == Approx(128 * 32 / (cycles * 80 * 4)));
  CHECK(read_text(dir + "/t.vcd").find("tensor_hmma") != std::string::npos);
}

TEST_CASE("cli: a VCD does not change a tensor-core run whose SMs sleep past the VCD's looks") {
  // On slow memory an SM sleeps for longer than the run monitor's 10 us between looks, which move
  // the VCD's horizon; a matrix multiply's return to 0 must be on record by then.
  const std::string dir = scratch_dir("tensor_vcd_slow");
  const std::string args = "run -q --platform hetero_two_level --workload wmma_peak --out ";
  CHECK(traced_and_plain(args, dir).find("tensor_hmma") != std::string::npos);
}

TEST_CASE("cli: a Volta platform refuses integer wmma before the run, naming what it needs") {
  const std::string dir = scratch_dir("tensor_int_volta");
  const CliResult run =
      run_ohmvp("run -q --platform titanv --workload " +
                shipped("tests/data/workloads/wmma_gemm_s8.json") + " --out " + dir);
  INFO(run.output);
  CHECK(run.exit_code == 2);
  CHECK_THAT(run.output, Contains("wmma_gemm.ptx:") && Contains("kernel 'wmma_gemm_s8' uses "
                                                                "integer wmma"));
  CHECK_THAT(run.output, Contains("needs compute capability 7.2 (sm_72) or later; this GPU is "
                                  "7.0 (sm_70, Volta) (gpu.compute_capability)"));
  CHECK_FALSE(std::filesystem::exists(dir + "/report.json"));
  // A GPU with the instructions but tensor cores without the mode refuses it before the run too.
  const CliResult modeless =
      run_ohmvp("run -q --platform turing --set gpu.tensor_core.s32.sets=0 --workload " +
                shipped("tests/data/workloads/wmma_gemm_s8.json") + " --out " + dir);
  INFO(modeless.output);
  CHECK(modeless.exit_code == 2);
  CHECK_THAT(modeless.output, Contains("kernel 'wmma_gemm_s8' uses a matrix multiply ('wmma.mma") &&
                                  Contains("in the s32 mode, which this GPU's tensor cores lack "
                                           "(gpu.tensor_core.s32.sets is 0)"));
  CHECK_FALSE(std::filesystem::exists(dir + "/report.json"));
  const CliResult turing =
      run_ohmvp("run -q --platform turing --workload " +
                shipped("tests/data/workloads/wmma_gemm_s8.json") + " --out " + dir);
  INFO(turing.output);
  CHECK(turing.exit_code == 0);
}

TEST_CASE("cli: a C++ kernel launched by a short name; its fault named as C++ writes it") {
  // tests/data/ptx/kernel_names.cu: blas::scale<2> scales every second float.
  const std::string dir = scratch_dir("kernel_names");
  const nlohmann::json data = {
      {"type", "f32"}, {"count", 4}, {"init", {{"sequence", {{"start", 1}, {"step", 1}}}}}};
  const CliResult r = run_fixture(dir, "kernel_names.ptx", "scale<2>", 1, 2, {{"data", data}},
                                  {{{"buffer", "data"}}, {{"f32", 0.5}}}, {"data"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(read_dump<float>(dir, "data", 4) == std::vector<float>{0.5f, 2, 1.5f, 4});

  const CliResult fault =
      run_fixture(dir, "kernel_names.ptx", "reach", 1, 1, {{"data", data}},
                  {{{"buffer", "data"}}, {{"s32", 2}}, {{"s32", 1 << 24}}}, {"data"});
  INFO(fault.output);
  CHECK(fault.exit_code == 1);
  CHECK_THAT(fault.output, Contains("device fault in kernel 'reach(int*, int, int)'") &&
                               Contains("in 'strided_sum(int const*, int, int)'"));
  const CliResult ambiguous = run_fixture(dir, "kernel_names.ptx", "fill", 1, 1, {{"data", data}},
                                          {{{"buffer", "data"}}, {{"f32", 1}}}, {"data"});
  CHECK(ambiguous.exit_code == 2);
  CHECK_THAT(ambiguous.output, Contains("kernel name 'fill' fits 2 kernels"));
}

TEST_CASE("cli: a struct argument holding device pointers, textures of 4- and 2-element texels") {
  // tests/data/ptx/parameter_blocks.cu
  const std::string dir = scratch_dir("parameter_blocks");
  const nlohmann::json sequence = {{"sequence", {{"start", 1}, {"step", 1}}}};
  const nlohmann::json x = {{"type", "f32"}, {"count", 8}, {"init", sequence}};
  const CliResult scaled = run_fixture(
      dir, "parameter_blocks.ptx", "scale_arrays", 1, 8,
      {{"x", x}, {"y", {{"type", "f32"}, {"count", 8}}}},
      {{{"struct", {{{"buffer", "x"}}, {{"buffer", "y"}}, {{"s32", 6}}, {{"f32", 2.5}}}}}}, {"y"});
  INFO(scaled.output);
  REQUIRE(scaled.exit_code == 0);
  CHECK(read_dump<float>(dir, "y", 8) == std::vector<float>{2.5f, 5, 7.5f, 10, 12.5f, 15, 0, 0});
  // Pointers past a buffer's start (d_x + 2, d_y + 4), in a struct and as an argument.
  const nlohmann::json offset_x = {{"buffer", "x"}, {"offset", 2}};
  const CliResult shifted = run_fixture(
      dir, "parameter_blocks.ptx", "scale_arrays", 1, 8,
      {{"x", x}, {"y", {{"type", "f32"}, {"count", 8}}}},
      {{{"struct", {offset_x, {{"buffer", "y"}, {"offset", 4}}, {{"s32", 3}}, {{"f32", 2}}}}}},
      {"y"});
  INFO(shifted.output);
  REQUIRE(shifted.exit_code == 0);
  CHECK(read_dump<float>(dir, "y", 8) == std::vector<float>{0, 0, 0, 0, 6, 8, 10, 0});
  const CliResult negated =
      run_fixture(dir, "parameter_blocks.ptx", "transform<Negate>", 1, 4,
                  {{"x", x}, {"y", {{"type", "f32"}, {"count", 8}}}},
                  {offset_x, {{"buffer", "y"}}, {{"struct", nlohmann::json::array()}}}, {"y"});
  INFO(negated.output);
  REQUIRE(negated.exit_code == 0);
  CHECK(read_dump<float>(dir, "y", 8) == std::vector<float>{-3, -4, -5, -6, 0, 0, 0, 0});
  const CliResult beyond = run_fixture(
      dir, "parameter_blocks.ptx", "transform<Negate>", 1, 4,
      {{"x", x}, {"y", {{"type", "f32"}, {"count", 8}}}},
      {{{"buffer", "x"}, {"offset", 9}}, {{"buffer", "y"}}, {{"struct", nlohmann::json::array()}}},
      {"y"});
  CHECK(beyond.exit_code == 2);
  CHECK_THAT(beyond.output,
             Contains("launches[0].args[0].offset: value 9 out of range; expected 0 to 8"));

  const nlohmann::json texels = {{"type", "f32"}, {"count", 16}, {"init", sequence}};
  const nlohmann::json texture = {{"buffer", "texels"}, {"width", 4}, {"channels", 4}};
  const CliResult float4 =
      run_fixture(dir, "parameter_blocks.ptx", "fetch_float4", 1, 4,
                  {{"texels", texels}, {"out", {{"type", "f32"}, {"count", 16}}}},
                  {{{"texture", texture}}, {{"buffer", "out"}}, {{"s32", 4}}}, {"out"});
  INFO(float4.output);
  REQUIRE(float4.exit_code == 0);
  std::vector<float> expected(16);
  for (size_t i = 0; i < 16; ++i) expected[i] = static_cast<float>(i + 1);
  CHECK(read_dump<float>(dir, "out", 16) == expected);

  nlohmann::json ints = texels;
  ints["type"] = "s32";
  const nlohmann::json pairs = {{"buffer", "texels"}, {"width", 8}, {"channels", 2}};
  const CliResult int2 =
      run_fixture(dir, "parameter_blocks.ptx", "fetch_int2", 1, 8,
                  {{"texels", ints}, {"out", {{"type", "s32"}, {"count", 16}}}},
                  {{{"texture", pairs}}, {{"buffer", "out"}}, {{"s32", 8}}}, {"out"});
  INFO(int2.output);
  REQUIRE(int2.exit_code == 0);
  CHECK(read_dump<int32_t>(dir, "out", 16)[15] == 16);

  // uchar4 texels 0, 51, 102, 153 under cudaReadModeNormalizedFloat: 0, 0.2, 0.4, 0.6.
  const nlohmann::json bytes = {
      {"type", "u8"}, {"count", 4}, {"init", {{"sequence", {{"start", 0}, {"step", 51}}}}}};
  nlohmann::json normalized = {
      {"buffer", "texels"}, {"width", 1}, {"channels", 4}, {"read_mode", "normalized_float"}};
  const CliResult unit_range =
      run_fixture(dir, "parameter_blocks.ptx", "fetch_normalized", 1, 1,
                  {{"texels", bytes}, {"out", {{"type", "f32"}, {"count", 4}}}},
                  {{{"texture", normalized}}, {{"buffer", "out"}}, {{"s32", 1}}}, {"out"});
  INFO(unit_range.output);
  REQUIRE(unit_range.exit_code == 0);
  CHECK(read_dump<float>(dir, "out", 4) == std::vector<float>{0, 0.2f, 0.4f, 0.6f});
  normalized["buffer"] = "floats";
  const CliResult float_texels = run_fixture(
      dir, "parameter_blocks.ptx", "fetch_normalized", 1, 1,
      {{"floats", {{"type", "f32"}, {"count", 4}}}, {"out", {{"type", "f32"}, {"count", 4}}}},
      {{{"texture", normalized}}, {{"buffer", "out"}}, {{"s32", 1}}}, {"out"});
  CHECK(float_texels.exit_code == 2);
  CHECK_THAT(float_texels.output, Contains("normalized_float reads 8- and 16-bit integer texels"));

  nlohmann::json too_wide = pairs;
  too_wide["width"] = 9;
  const CliResult refused =
      run_fixture(dir, "parameter_blocks.ptx", "fetch_int2", 1, 8,
                  {{"texels", ints}, {"out", {{"type", "s32"}, {"count", 16}}}},
                  {{{"texture", too_wide}}, {{"buffer", "out"}}, {{"s32", 8}}}, {"out"});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.output, Contains("9 x 1 texels of 2 elements exceed buffer 'texels' (16 "
                                      "elements)"));

  // A 3-D texture of 4 x 5 x 6 texels holding 0, 1, 2, ...: texel (x, y, z) is z * 20 + y * 4 + x.
  const nlohmann::json volume_texels = {
      {"type", "f32"}, {"count", 120}, {"init", {{"sequence", {{"start", 0}, {"step", 1}}}}}};
  nlohmann::json volume = {{"buffer", "texels"}, {"width", 4}, {"height", 5}, {"depth", 6}};
  const nlohmann::json volume_buffers = {{"texels", volume_texels},
                                         {"out", {{"type", "f32"}, {"count", 4}}}};
  const CliResult fetched =
      run_fixture(dir, "parameter_blocks.ptx", "fetch_volume", 1, 4, volume_buffers,
                  {{{"texture", volume}}, {{"buffer", "out"}}, {{"s32", 4}}}, {"out"});
  INFO(fetched.output);
  REQUIRE(fetched.exit_code == 0);
  CHECK(read_dump<float>(dir, "out", 4) == std::vector<float>{44, 69, 94, 119});
  volume.erase("depth");
  const CliResult flat =
      run_fixture(dir, "parameter_blocks.ptx", "fetch_volume", 1, 4, volume_buffers,
                  {{{"texture", volume}}, {{"buffer", "out"}}, {{"s32", 4}}}, {"out"});
  CHECK(flat.exit_code == 1);
  CHECK_THAT(flat.output, Contains("tex.3d fetches from a 2-D texture"));
}

TEST_CASE("cli: a parameter block of nested structs with an __align__(16) member") {
  // tests/data/ptx/parameter_blocks.cu, run_job: out[i] = scale * in[i] + shift + tag over
  // [begin, end).
  const std::string dir = scratch_dir("nested_structs");
  const nlohmann::json buffers = {
      {"x", {{"type", "f32"}, {"count", 8}, {"init", {{"sequence", {{"start", 0}, {"step", 1}}}}}}},
      {"y", {{"type", "f32"}, {"count", 8}}}};
  const nlohmann::json range = {{"struct", {{{"s32", 2}}, {{"s32", 6}}}}};
  nlohmann::json affine = {{"struct", {{{"f32", 2}}, {{"f32", 0.5}}}}, {"align", 16}};
  const auto job = [&](const nlohmann::json& affine_field) {
    return nlohmann::json{
        {{"struct", {{{"buffer", "x"}}, range, affine_field, {{"buffer", "y"}}, {{"s8", -1}}}}}};
  };
  const CliResult r =
      run_fixture(dir, "parameter_blocks.ptx", "run_job", 1, 8, buffers, job(affine), {"y"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(read_dump<float>(dir, "y", 8) == std::vector<float>{0, 0, 3.5f, 5.5f, 7.5f, 9.5f, 0, 0});
  // Without "align" the struct is 40 bytes, not the parameter's 48: refused, with the way out.
  affine.erase("align");
  const CliResult unaligned =
      run_fixture(dir, "parameter_blocks.ptx", "run_job", 1, 8, buffers, job(affine), {"y"});
  CHECK(unaligned.exit_code == 2);
  CHECK_THAT(unaligned.output, Contains("is 48 bytes; got a value of 40 bytes") &&
                                   Contains("__align__(N) as \"align\": N"));
}

TEST_CASE("cli: a cooperative launch synchronises its whole grid; a plain launch cannot") {
  // tests/data/ptx/grid_sync.cu: cooperative groups' this_grid().sync() between phases.
  const std::string dir = scratch_dir("grid_sync");
  const int count = 1000;
  const auto workload = [&](const std::string& kernel, unsigned grid, bool cooperative,
                            const nlohmann::json& args) {
    nlohmann::json launch = {
        {"kernel", kernel}, {"grid", {grid, 1, 1}}, {"block", {128, 1, 1}}, {"args", args}};
    if (cooperative) launch["cooperative"] = true;
    const nlohmann::json buffers = {
        {"values", {{"type", "s32"}, {"count", count}}},
        {"out", {{"type", "s32"}, {"count", count}, {"init", {{"value", -1}}}}}};
    write_text(dir + "/w.json", nlohmann::json({{"type", "kernel"},
                                                {"ptx", shipped("tests/data/ptx/grid_sync.ptx")},
                                                {"buffers", buffers},
                                                {"launches", {launch}},
                                                {"outputs", {"out"}}})
                                    .dump());
    return run_ohmvp("run -q --workload " + dir + "/w.json --out " + dir + " --dump " + dir + "/d");
  };
  const nlohmann::json rotate_args = {
      {{"buffer", "values"}}, {{"buffer", "out"}}, {{"s32", count}}};
  const CliResult synced = workload("rotate_twice", 8, true, rotate_args);
  INFO(synced.output);
  REQUIRE(synced.exit_code == 0);
  const std::vector<int32_t> out = read_dump<int32_t>(dir, "out", count);
  for (int i = 0; i < count; ++i) {
    INFO("i = " << i);
    REQUIRE(out[i] == ((i + 1) % count + 129) % count * 3 + 1);
  }

  const CliResult valid = workload("grid_valid", 4, true, {{{"buffer", "out"}}});
  REQUIRE(valid.exit_code == 0);
  CHECK(read_dump<int32_t>(dir, "out", count)[0] == 1);
  CHECK(read_dump<int32_t>(dir, "out", count)[511] == 1);
  const CliResult plain_valid = workload("grid_valid", 4, false, {{{"buffer", "out"}}});
  REQUIRE(plain_valid.exit_code == 0);
  CHECK(read_dump<int32_t>(dir, "out", count)[0] == 0);
  CHECK(read_dump<int32_t>(dir, "out", count)[511] == 0);

  // Without a grid workspace, sync() traps, as on the hardware.
  const CliResult plain = workload("rotate_twice", 8, false, rotate_args);
  CHECK(plain.exit_code == 1);
  CHECK_THAT(plain.output, Contains("device fault in kernel 'rotate_twice'") &&
                               Contains("trap (the code reads cooperative groups' grid "
                                        "workspace: this_grid().sync() traps unless the launch "
                                        "is cooperative: a workload launch's \"cooperative\": "
                                        "true, LaunchConfig::cooperative in C++"));
  // A grid that cannot be resident at once is refused before it runs.
  const CliResult too_large = workload("rotate_twice", 100000, true, rotate_args);
  CHECK(too_large.exit_code == 2);
  CHECK_THAT(too_large.output, Contains("a cooperative launch of 100000 blocks needs them all "
                                        "resident at once;"));
}

TEST_CASE("cli: a __grid_constant__ parameter read through a generic pointer") {
  // tests/data/ptx/grid_constant.cu: cvta.param gives the parameter's generic address, which a
  // function loads from.
  const std::string dir = scratch_dir("grid_constant");
  nlohmann::json fields = nlohmann::json::array();
  for (int k = 0; k < 16; ++k) fields.push_back({{"f32", 0.5 * k}});
  fields.push_back({{"s32", 20}});
  const CliResult r = run_fixture(
      dir, "grid_constant.ptx", "grid_constant", 1, 32,
      {{"out", {{"type", "f32"}, {"count", 32}}}, {"global", {{"type", "f32"}, {"count", 1}}}},
      {{{"struct", fields}}, {{"buffer", "out"}}, {{"buffer", "global"}}}, {"out"});
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::vector<float> out = read_dump<float>(dir, "out", 32);
  for (int i = 0; i < 20; ++i) CHECK(out[i] == 0.5f * (i % 16) + 100.0f);
  CHECK(out[20] == 0.0f);
}

TEST_CASE("cli: gpu.load_order issues the same instructions in another order") {
  // spmv's unrolled row loop loads four column indices, values and x[column]s with an FMA after
  // each: hoisted, every load of an iteration goes out before its first FMA.
  const std::string dir = scratch_dir("load_order");
  std::map<std::string, nlohmann::json> summaries;
  for (const char* order : {"hoisted", "as_written"}) {
    INFO(order);
    const CliResult r =
        run_ohmvp(std::string("run -q --workload spmv --verify --set gpu.load_order=") + order +
                  " --out " + dir + "/" + order);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    summaries[order] =
        nlohmann::json::parse(read_text(dir + "/" + order + "/report.json"))["summary"];
  }
  const nlohmann::json& hoisted = summaries["hoisted"];
  const nlohmann::json& as_written = summaries["as_written"];
  CHECK(hoisted["warp_instructions"] == as_written["warp_instructions"]);
  CHECK(hoisted["thread_instructions"] == as_written["thread_instructions"]);
  CHECK(hoisted["cycles"] != as_written["cycles"]);
}

TEST_CASE(
    "cli: a workload on streams overlaps copies with kernels, repeats exactly, and traces "
    "its copies") {
  const std::string dir = scratch_dir("streams_run");
  const std::string args = "run -q -p gpu_small --workload vecadd_streams --verify --out ";
  CHECK_THAT(traced_and_plain(args, dir),
             Contains("copies_to_device $end") && Contains("copies_to_host $end"));

  // Its loop over the chunks written out, the loop_index numbers as literals.
  const auto shipped = shipped_kernel_workload("vecadd_streams");
  const nlohmann::json& loop = shipped["launches"][0]["repeat"];
  REQUIRE(loop["count"] == 4);
  const auto written_out = [&loop](bool on_default_stream) {
    nlohmann::json steps = nlohmann::json::array();
    for (int64_t i = 0; i < 4; ++i) {
      const auto literal = [i](const nlohmann::json& number) {
        return number.is_object() ? nlohmann::json(i * number.value("times", int64_t{1}) +
                                                   number.value("plus", int64_t{0}))
                                  : number;
      };
      for (nlohmann::json step : loop["steps"]) {
        nlohmann::json& body = step.contains("kernel") ? step : step.begin().value();
        for (const char* key : {"first", "count", "stream"})
          if (body.contains(key)) body[key] = literal(body[key]);
        if (on_default_stream) body["stream"] = 0;
        if (step.contains("kernel"))
          for (auto& arg : step["args"])
            if (arg.contains("offset")) arg["offset"] = literal(arg["offset"]);
        steps.push_back(step);
      }
    }
    steps.push_back({{"synchronize", nlohmann::json::object()}});
    return steps;
  };
  const auto run_steps = [&](const std::string& name, const nlohmann::json& steps) {
    auto workload = shipped;
    workload["name"] = "vecadd_streams";  // its reference
    workload["launches"] = steps;
    write_text(dir + "/" + name + ".json", workload.dump());
    const CliResult result = run_ohmvp("run -q -p gpu_small --workload " + dir + "/" + name +
                                       ".json --verify --out " + dir + "/" + name);
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    return nlohmann::json::parse(read_text(dir + "/" + name + "/report.json"));
  };
  const auto streams = nlohmann::json::parse(read_text(dir + "/a/report.json"));
  const auto expanded = run_steps("expanded", written_out(false));
  CHECK(expanded["summary"] == streams["summary"]);
  CHECK(expanded["launches"] == streams["launches"]);
  CHECK(expanded["launches"][3]["stream"] == 4);
  // The same steps, every one on the default stream: one after another, so longer.
  const auto in_order = run_steps("serial", written_out(true));
  const double overlapped = streams["summary"]["simulated_ns"].get<double>();
  const double one_by_one = in_order["summary"]["simulated_ns"].get<double>();
  CHECK(overlapped < 0.9 * one_by_one);
  // The same bytes cross PCIe either way.
  CHECK(streams["stats"]["host"]["host_to_device_bytes"]["value"] == 2 * 32768 * 4);
  CHECK(in_order["stats"]["host"]["host_to_device_bytes"]["value"] == 2 * 32768 * 4);
}

TEST_CASE("cli: kernels of different streams run at once unless the GPU holds one grid") {
  const std::string dir = scratch_dir("streams_grids");
  // Four kernels, one a stream, all at once.
  const std::string args = "run -q -p gpu_small --workload vecadd_concurrent --verify --out ";
  // Traced: gpu.grids_running reaches 2 (the VCD writes a 16-bit value as b<binary> <code>).
  const std::string vcd = traced_and_plain(args, dir);
  const std::string var = "$var wire 16 ";
  const size_t named = vcd.find(" grids_running $end");
  REQUIRE(named != std::string::npos);
  const size_t code_at = vcd.rfind(var, named) + var.size();
  CHECK(vcd.find("\nb10 " + vcd.substr(code_at, named - code_at) + "\n") != std::string::npos);
  const CliResult one_grid = run_ohmvp(args + dir + "/o --set gpu.max_resident_grids=1");
  INFO(one_grid.output);
  REQUIRE(one_grid.exit_code == 0);
  const auto launches = [&](const std::string& run) {
    return nlohmann::json::parse(read_text(dir + run + "/report.json"))["launches"];
  };
  const auto overlapping = [](const nlohmann::json& runs) {
    for (size_t i = 0; i < runs.size(); ++i)
      for (size_t j = i + 1; j < runs.size(); ++j) {
        const uint64_t si = runs[i]["start_cycle"], sj = runs[j]["start_cycle"];
        const uint64_t ei = si + runs[i]["cycles"].get<uint64_t>();
        const uint64_t ej = sj + runs[j]["cycles"].get<uint64_t>();
        if (si < ej && sj < ei) return true;
      }
    return false;
  };
  CHECK(overlapping(launches("/a")));
  CHECK_FALSE(overlapping(launches("/o")));

  const CliResult none = run_ohmvp(args + dir + "/n --set gpu.max_resident_grids=0");
  CHECK(none.exit_code != 0);
  CHECK_THAT(none.output, Contains("gpu.max_resident_grids"));

  // A fifth launch on stream 0 waits for the four when their streams block, not when they are
  // non-blocking.
  auto workload = shipped_kernel_workload("vecadd_concurrent");
  workload["name"] = "vecadd_concurrent";  // its reference
  nlohmann::json last = workload["launches"].back();
  last.erase("stream");
  workload["launches"].push_back(last);
  const auto last_overlaps = [&](const std::string& run) {
    write_text(dir + "/" + run + ".json", workload.dump());
    const CliResult result = run_ohmvp("run -q -p gpu_small --workload " + dir + "/" + run +
                                       ".json --verify --out " + dir + "/" + run);
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    auto all = launches("/" + run);
    const nlohmann::json fifth = all.back();
    all.erase(all.size() - 1);
    for (const auto& other : all)
      if (overlapping(nlohmann::json::array({other, fifth}))) return true;
    return false;
  };
  CHECK_FALSE(last_overlaps("blocking"));
  workload["non_blocking_streams"] = {1, 2, 3, 4};
  CHECK(last_overlaps("non_blocking"));
}

TEST_CASE("cli: a stream of greater priority has its kernel's CTAs go first") {
  const std::string dir = scratch_dir("stream_priorities");
  auto workload = shipped_kernel_workload("vecadd_concurrent");
  workload["name"] = "vecadd_concurrent";  // its reference
  // Runs the workload as it is now, as <name>.json into <out>.
  const auto run = [&](const std::string& name, const std::string& out,
                       const std::string& options) {
    write_text(dir + "/" + name + ".json", workload.dump());
    return run_ohmvp("run -q -p gpu_small --workload " + dir + "/" + name +
                     ".json --verify --out " + dir + "/" + out + options);
  };
  const auto launches_of = [&](const std::string& name) {
    const CliResult result = run(name, name, "");
    INFO(result.output);
    REQUIRE(result.exit_code == 0);
    return nlohmann::json::parse(read_text(dir + "/" + name + "/report.json"))["launches"];
  };
  // A priority beyond the GPU's range is refused by its JSON path, before anything runs.
  const auto refused = [&](const std::string& name) {
    const CliResult result = run(name, name + "_refused", " --set gpu.greatest_stream_priority=0");
    CHECK(result.exit_code != 0);
    CHECK_FALSE(std::filesystem::exists(dir + "/" + name + "_refused/report.json"));
    return result.output;
  };

  workload["stream_priorities"] = {{"4", -1}};
  // Each grid fills the GPU; the four are handed over at once. The last launched, on stream 4,
  // starts first and ends first (the report lists launches as they end).
  const auto launches = launches_of("w");
  REQUIRE(launches.size() == 4);
  CHECK(launches[0]["priority"] == -1);
  CHECK(launches[0]["stream"] == 4);
  for (size_t i = 1; i < 4; ++i) {
    CHECK(launches[i]["priority"] == 0);
    CHECK(launches[i]["stream"] == i);
    CHECK(launches[i]["start_cycle"].get<uint64_t>() > launches[0]["start_cycle"].get<uint64_t>());
  }
  CHECK(launches[0]["grid"] == nlohmann::json::array({32, 1, 1}));
  CHECK_THAT(refused("w"), Contains("w.json: stream_priorities.4: priority -1 is beyond this "
                                    "GPU's greatest, 0 (gpu.greatest_stream_priority); expected "
                                    "0 to 0"));

  // The launch's own priority instead (cudaLaunchAttributePriority): the same order.
  workload.erase("stream_priorities");
  workload["launches"][3]["priority"] = -1;
  const auto by_launch = launches_of("l");
  CHECK(by_launch[0]["priority"] == -1);
  CHECK(by_launch[0]["start_cycle"] == launches[0]["start_cycle"]);
  CHECK_THAT(refused("l"), Contains("l.json: launches[3].priority: priority -1 is beyond"));
}

namespace {

// The shipped vecadd with `before` ahead of its launch, which goes on stream 2, run verified
// against its reference (which replays the steps) in `dir`: the report.
nlohmann::json vecadd_on_stream_2_after(const std::string& dir, const nlohmann::json& before) {
  auto workload = shipped_kernel_workload("vecadd");
  workload["name"] = "vecadd";  // its reference
  nlohmann::json launch = workload["launches"][0];
  launch["stream"] = 2;
  workload["launches"] = before;
  workload["launches"].push_back(launch);
  write_text(dir + "/w.json", workload.dump());
  const CliResult run =
      run_ohmvp("run -q -p gpu_small --workload " + dir + "/w.json --verify --out " + dir + "/o");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  return nlohmann::json::parse(read_text(dir + "/o/report.json"));
}

}  // namespace

TEST_CASE("cli: a device-to-device copy on a stream moves the bytes the kernel after it reads") {
  // Streams 1 and 2 are not ordered with each other: the host waits for stream 1 first.
  const auto report = vecadd_on_stream_2_after(
      scratch_dir("device_copy_stream"),
      nlohmann::json::parse(R"([{"copy": {"from": "a", "to": "b", "stream": 1}},
                                {"synchronize": {"stream": 1}}])"));
  // b starts from its own seed: only the copy makes the kernel's c equal the reference's a + a.
  CHECK(report["verification"]["matches"] == true);
}

TEST_CASE("cli: a fill on a stream sets the buffer before the stream's next kernel reads it") {
  const auto report = vecadd_on_stream_2_after(
      scratch_dir("fill_stream"),
      nlohmann::json::parse(R"([{"fill": {"buffer": "b", "value": 0.5, "stream": 2}}])"));
  // b starts from its own seed: only the fill makes the kernel's c equal the reference's a + 0.5.
  CHECK(report["verification"]["matches"] == true);
  // The workload's stream 2 is the runtime's first made.
  CHECK(report["launches"][0]["stream"] == 2);
}

TEST_CASE("cli: a fill on a stream of a variable not aligned to its elements is refused") {
  const std::string dir = scratch_dir("fill_stream_misaligned");
  // `odd` follows a one-byte variable: at an odd address, where 2-byte memsets cannot start.
  write_text(dir + "/k.ptx",
             ".version 7.0\n.target sm_70\n.address_size 64\n"
             ".global .align 1 .b8 pad[1];\n.global .align 1 .b8 odd[8];\n"
             ".visible .entry k()\n{\n  ret;\n}\n");
  const auto workload = [&dir](const std::string& fill) {
    write_text(dir + "/w.json",
               R"({"ptx": "k.ptx", "buffers": {"o": {"type": "u16", "count": 4, "symbol": "odd"}},
                   "launches": [{"fill": )" +
                   fill + R"(}, {"kernel": "k", "grid": [1], "block": [1], "args": []}],
                   "outputs": ["o"]})");
    return run_ohmvp("run -q -p gpu_small --workload " + dir + "/w.json --out " + dir + "/out");
  };
  const CliResult refused = workload(R"({"buffer": "o", "value": 258, "stream": 2})");
  INFO(refused.output);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.output,
             Contains("w.json: launches[0]: fill of buffer 'o' (variable 'odd') on stream 2: it "
                      "is at 0x") &&
                 Contains(", not aligned to the 2-byte elements cuMemsetD16Async sets; leave out "
                          "'stream' for a synchronous fill"));
  CHECK_FALSE(std::filesystem::exists(dir + "/out"));
  // The synchronous fill writes the bytes wherever they are.
  const CliResult synchronous = workload(R"({"buffer": "o", "value": 258})");
  INFO(synchronous.output);
  CHECK(synchronous.exit_code == 0);
}

TEST_CASE("cli: a stream that waits for another's event reads what that stream copied in") {
  const std::string dir = scratch_dir("stream_wait_event");
  auto workload = shipped_kernel_workload("vecadd_streams");
  workload["name"] = "vecadd_streams";  // its reference
  nlohmann::json launch = workload["launches"][0]["repeat"]["steps"][2];
  launch["stream"] = 2;
  launch["grid"] = {128, 1, 1};
  launch["args"] = nlohmann::json::parse(
      R"([{"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"}, {"u32": 32768}])");
  // The inputs go in on stream 1, the kernel runs on stream 2, the output comes back on 3.
  const auto run = [&](const std::string& name, bool wait) {
    nlohmann::json steps = nlohmann::json::parse(R"([
      {"record": {"event": "start", "stream": 1}},
      {"to_device": {"buffer": "a", "stream": 1}},
      {"to_device": {"buffer": "b", "stream": 1}},
      {"record": {"event": "copied", "stream": 1}}])");
    if (wait) steps.push_back({{"wait_event", {{"event", "copied"}, {"stream", 2}}}});
    steps.push_back(launch);
    for (const char* step :
         {R"({"record": {"event": "added", "stream": 2}})",
          R"({"wait_event": {"event": "added", "stream": 3}})",
          R"({"to_host": {"buffer": "c", "stream": 3}})",
          R"({"record": {"event": "done", "stream": 3}})", R"({"synchronize": {"event": "done"}})"})
      steps.push_back(nlohmann::json::parse(step));
    workload["launches"] = steps;
    write_text(dir + "/" + name + ".json", workload.dump());
    return run_ohmvp("run -q -p gpu_small --workload " + dir + "/" + name +
                     ".json --verify --out " + dir + "/" + name);
  };
  const CliResult waited = run("waited", true);
  INFO(waited.output);
  REQUIRE(waited.exit_code == 0);
  const auto report = nlohmann::json::parse(read_text(dir + "/waited/report.json"));
  CHECK(report["verification"]["matches"] == true);
  const nlohmann::json& events = report["events"];
  for (const char* name : {"start", "copied", "added", "done"}) CHECK(events[name]["records"] == 1);
  // Two 128 KiB copies at the link's rate before the kernel, one after it.
  CHECK(events["copied"]["ns"].get<double>() > events["start"]["ns"].get<double>() + 10000);
  CHECK(events["added"]["ns"].get<double>() > events["copied"]["ns"].get<double>());
  CHECK(events["done"]["ns"].get<double>() > events["added"]["ns"].get<double>() + 5000);
  // The text summary lists them as they completed.
  CHECK_THAT(waited.output, Contains("\nevent start at 0.000 us\nevent copied at ") &&
                                Contains(" us\nevent added at ") &&
                                Contains(" us\nevent done at "));
  // Without the wait the kernel does not wait for the copies: it adds zeros.
  const CliResult raced = run("raced", false);
  CHECK(raced.exit_code == 1);
  CHECK_THAT(raced.output, Contains("outputs differ from the C++ reference"));
}

TEST_CASE("cli: a synchronous read beside a non-blocking stream's kernel waits for it, then ends") {
  // bfs with its expand kernel on a non-blocking stream: the flag's read waits for the memory to
  // go quiet while that kernel reads, and the memory's last read response makes it quiet.
  const std::string dir = scratch_dir("flag_beside_non_blocking");
  auto workload = shipped_kernel_workload("bfs");
  workload["non_blocking_streams"] = {1};
  auto& loop = workload["launches"][1]["repeat_until_zero"];
  loop["max_iterations"] = 1;
  REQUIRE(loop["steps"][1]["kernel"] == "bfs_expand");
  loop["steps"][1]["stream"] = 1;
  write_text(dir + "/w.json", workload.dump());
  const CliResult r = run_ohmvp("run -q -p gpu_small --workload " + dir +
                                "/w.json --time-limit 1ms --out " + dir + "/o");
  INFO(r.output);
  CHECK(r.exit_code == 0);
}

TEST_CASE("cli: a workload that queues copies without end stops at --time-limit") {
  const std::string dir = scratch_dir("streams_endless");
  auto workload = shipped_kernel_workload("vecadd_streams");
  workload["launches"] = nlohmann::json::parse(
      R"([{"repeat": {"count": 4294967296, "steps": [
            {"to_device": {"buffer": "a", "first": 0, "count": 32, "stream": 1}}]}}])");
  write_text(dir + "/w.json", workload.dump());
  const CliResult run = run_ohmvp("run -q -p gpu_small --workload " + dir +
                                  "/w.json --time-limit 20us --out " + dir + "/o");
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.output, Contains("simulated time reached the time limit of 20 us") &&
                             Contains("no kernel is running (copies or the memory's migrations "
                                      "are)"));
}
