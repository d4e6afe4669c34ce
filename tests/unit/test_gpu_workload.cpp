#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <set>

#include "modules/common/errors.h"
#include "modules/common/json_file.h"
#include "modules/host/gpu_workload.h"
#include "modules/host/gpu_workload_runner.h"
#include "modules/host/half_float.h"
#include "testbenches/references/reference.h"
#include "tests/unit/gpu_workload_fixture.h"

using namespace ohmvp;
using ohmvp::test::example_workload;
using ohmvp::test::TempFolder;
using ohmvp::test::workloads_dir;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> shipped_kernel_workloads() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(workloads_dir()))
    if (entry.path().extension() == ".json" && is_kernel_workload(load_json_file(entry.path())))
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The message of the ConfigError that loading `json` (written to a file) throws.
std::string load_error(const nlohmann::json& json, const TempFolder& folder) {
  const fs::path file = folder.write("bad.json", json.dump());
  try {
    load_gpu_workload(file);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "(no error)";
}

template <class T>
T element(const std::vector<uint8_t>& bytes, size_t index) {
  T value;
  std::memcpy(&value, bytes.data() + index * sizeof(T), sizeof(T));
  return value;
}

void collect_kernels(const std::vector<WorkloadStep>& steps, std::set<std::string>& names) {
  for (const WorkloadStep& step : steps) {
    if (step.kind == WorkloadStep::Kind::launch) names.insert(step.launch.kernel);
    collect_kernels(step.steps, names);
  }
}

}  // namespace

TEST_CASE("every shipped kernel workload loads, its PTX defines its kernels, it has a reference",
          "[workload]") {
  const std::vector<fs::path> files = shipped_kernel_workloads();
  REQUIRE(files.size() >= 19);
  for (const fs::path& file : files) {
    INFO(file.string());
    const GpuWorkload workload = load_gpu_workload(file);
    REQUIRE(fs::is_regular_file(workload.ptx));
    // "../kernels/x.ptx" beside the workload: the path messages print has no "..".
    CHECK(workload.ptx.string().find("..") == std::string::npos);
    std::ifstream stream(workload.ptx);
    const std::string ptx((std::istreambuf_iterator<char>(stream)),
                          std::istreambuf_iterator<char>());
    CHECK(ptx.find(".target sm_75") != std::string::npos);
    const reference::Reference* ref = reference::find_reference(workload.name);
    REQUIRE(ref != nullptr);
    std::set<std::string> kernels;
    collect_kernels(workload.steps, kernels);
    for (const std::string& kernel : kernels) {
      INFO(kernel);
      CHECK(ptx.find(".entry " + kernel + "(") != std::string::npos);
      CHECK(ref->kernels.count(kernel) == 1);
    }
    CHECK_FALSE(workload.outputs.empty());
    for (const auto& tolerance : ref->tolerances) CHECK(workload.find_buffer(tolerance.buffer));
  }
}

TEST_CASE("kernel workloads are told apart from traffic and trace workloads", "[workload]") {
  CHECK(is_kernel_workload(example_workload()));
  CHECK(is_kernel_workload(nlohmann::json{{"type", "kernel"}}));
  CHECK_FALSE(is_kernel_workload(load_json_file(workloads_dir() / "stream_read.json")));
  CHECK_FALSE(is_kernel_workload(load_json_file(workloads_dir() / "trace_example.json")));
  CHECK_FALSE(is_kernel_workload(nlohmann::json::array()));
  // No type, "ptx" misspelt: its buffers and launches still say what it is.
  nlohmann::json misspelt = example_workload();
  misspelt.erase("type");
  misspelt["ptxx"] = misspelt["ptx"];
  misspelt.erase("ptx");
  CHECK(is_kernel_workload(misspelt));
  CHECK_FALSE(is_kernel_workload(nlohmann::json{{"traffic", nlohmann::json::object()}}));
}

TEST_CASE("the issue's example workload loads as written", "[workload]") {
  TempFolder folder;
  const GpuWorkload w =
      load_gpu_workload(folder.write("vecadd_example.json", example_workload().dump()));
  CHECK(w.name == "vecadd_example");
  REQUIRE(w.buffers.size() == 3);
  REQUIRE(w.steps.size() == 1);
  const KernelLaunch& launch = w.steps[0].launch;
  CHECK(launch.kernel == "vecadd");
  CHECK(launch.grid == std::array<uint32_t, 3>{4, 1, 1});
  CHECK(launch.block == std::array<uint32_t, 3>{256, 1, 1});
  REQUIRE(launch.args.size() == 4);
  CHECK(launch.args[3].kind == KernelArg::Kind::scalar);
  CHECK(launch.args[3].bits == 1024);
  CHECK(w.outputs == std::vector<std::string>{"c"});
  CHECK(w.limits.stack_bytes == 1024);  // CUDA's defaults unless "limits" sets them
  CHECK(w.limits.malloc_heap_bytes == uint64_t{8} << 20);
}

TEST_CASE("a workload sets the device limits as cudaDeviceSetLimit would", "[workload]") {
  TempFolder folder;
  nlohmann::json json = example_workload();
  json["limits"] = {
      {"stack_bytes", 8192}, {"malloc_heap_bytes", 1 << 16}, {"printf_fifo_bytes", 100}};
  const GpuWorkload w = load_gpu_workload(folder.write("limits.json", json.dump()));
  CHECK(w.limits.stack_bytes == 8192);
  CHECK(w.limits.malloc_heap_bytes == 1 << 16);
  CHECK(w.limits.printf_fifo_bytes == 100);
}

TEST_CASE("relative paths resolve against the workload file's folder", "[workload]") {
  TempFolder folder;
  fs::copy_file(test::kernels_dir() / "vecadd.ptx", folder.path() / "vecadd.ptx");
  std::vector<uint8_t> b_bytes(1024 * 4);
  for (size_t i = 0; i < b_bytes.size(); ++i) b_bytes[i] = static_cast<uint8_t>(i * 7);
  folder.write("b.bin", std::string(b_bytes.begin(), b_bytes.end()));
  nlohmann::json json = example_workload();
  json["ptx"] = "vecadd.ptx";
  json["buffers"]["b"]["init"] = {{"file", "b.bin"}};
  const GpuWorkload w = load_gpu_workload(folder.write("w.json", json.dump()));
  CHECK(w.ptx == folder.path() / "vecadd.ptx");
  CHECK(initial_bytes(w, *w.find_buffer("b")) == b_bytes);
}

TEST_CASE("loader errors name the file, the JSON path and what was expected", "[workload]") {
  TempFolder folder;
  const std::string file = (folder.path() / "bad.json").string();
  struct Case {
    std::function<void(nlohmann::json&)> change;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {[](nlohmann::json& w) { w.erase("ptx"); }, {"ptx: expected the path of a PTX file"}},
      {[](nlohmann::json& w) { w["ptx"] = "missing.ptx"; }, {"ptx: no such file"}},
      {[](nlohmann::json& w) { w["ptx"] = "."; }, {"ptx: a folder, not a file"}},
      {[](nlohmann::json& w) { w["outputs"].push_back(w["outputs"][0]); },
       {"outputs[1]: buffer '", "' is listed twice"}},
      {[](nlohmann::json& w) { w["buffers"][""] = w["buffers"]["a"]; },
       {"buffers: buffer name '': expected 1 to 128 letters, digits"}},
      {[](nlohmann::json& w) { w["buffers"]["../x"] = w["buffers"]["a"]; },
       {"buffers: buffer name '../x': expected"}},
      {[](nlohmann::json& w) { w["outptus"] = w["outputs"]; },
       {"unknown key 'outptus'", "did you mean 'outputs'"}},
      {[](nlohmann::json& w) {
         w["outptus"] = w["outputs"];
         w.erase("outputs");
       },
       {"unknown key 'outptus' at top level; did you mean 'outputs'?"}},
      {[](nlohmann::json& w) {
         w["buffers"]["a"]["cnt"] = w["buffers"]["a"]["count"];
         w["buffers"]["a"].erase("count");
       },
       {"unknown key 'cnt' at buffers.a; did you mean 'count'?"}},
      {[](nlohmann::json& w) { w["type"] = "traffic"; }, {"type: unknown value 'traffic'"}},
      {[](nlohmann::json& w) {
         w["limits"] = {{"stak_bytes", 4096}};
       },
       {"unknown key 'stak_bytes' at limits", "did you mean 'stack_bytes'"}},
      {[](nlohmann::json& w) {
         w["limits"] = {{"stack_bytes", 8}};
       },
       {"limits.stack_bytes", "8", "16", "524288"}},
      {[](nlohmann::json& w) {
         w["limits"] = {{"printf_fifo_bytes", -1}};
       },
       {"limits.printf_fifo_bytes"}},
      {[](nlohmann::json& w) { w["buffers"]["a"]["type"] = "f31"; },
       {"buffers.a.type", "did you mean 'f32'"}},
      {[](nlohmann::json& w) { w["buffers"]["a"].erase("count"); }, {"buffers.a.count: required"}},
      {[](nlohmann::json& w) { w["buffers"]["a"]["init"] = "zeros"; },
       {"buffers.a.init: expected \"zero\""}},
      {[](nlohmann::json& w) {
         w["buffers"]["a"]["init"] = {{"randon", 1}};
       },
       {"buffers.a.init", "did you mean 'random'"}},
      {[](nlohmann::json& w) { w["buffers"]["a"]["init"]["random"]["min"] = 2; },
       {"buffers.a.init.random.max: must not be below min"}},
      {[](nlohmann::json& w) { w["buffers"]["a"]["init"]["random"].erase("seed"); },
       {"buffers.a.init.random.seed: required"}},
      {[](nlohmann::json& w) {
         w["buffers"]["c"] = {{"type", "u8"}, {"count", 4}, {"init", {{"value", 256}}}};
       },
       {"buffers.c.init.value", "255"}},
      {[](nlohmann::json& w) {
         w["buffers"]["c"]["init"] = {{"file", "nothere.bin"}};
       },
       {"buffers.c.init.file: cannot read"}},
      {[](nlohmann::json& w) {
         w["buffers"]["c"]["init"] = {{"file", "/dev/null"}};
       },
       {"buffers.c.init.file: cannot read /dev/null: not a regular file"}},
      {[](nlohmann::json& w) {
         w["launches"][0]["args"][2] = {{"buffer", "cc"}};
       },
       {"launches[0].args[2].buffer: no buffer named 'cc'", "did you mean 'c'"}},
      {[](nlohmann::json& w) {
         w["launches"][0]["args"][3] = {{"u32", -1}};
       },
       {"launches[0].args[3].u32", "expected unsigned integer"}},
      {[](nlohmann::json& w) {
         w["launches"][0]["args"][3] = {{"u23", 1}};
       },
       {"launches[0].args[3]", "did you mean 'u32'"}},
      {[](nlohmann::json& w) {
         w["launches"][0]["args"][3] = {{"s32", {{"loop_index", "k"}}}};
       },
       {"launches[0].args[3].s32.loop_index", "no enclosing repeat"}},
      {[](nlohmann::json& w) {
         w["launches"][0]["grid"] = {0, 1, 1};
       },
       {"launches[0].grid[0]: expected a positive 32-bit integer"}},
      {[](nlohmann::json& w) {
         w["launches"][0]["block"] = {1024, 2, 1};
       },
       {"launches[0].block: has 2048 threads"}},
      {[](nlohmann::json& w) { w["launches"][0]["shared_byte"] = 4; },
       {"unknown key 'shared_byte' at launches[0]", "did you mean 'shared_bytes'"}},
      {[](nlohmann::json& w) { w["launches"][0].erase("kernel"); },
       {"launches[0]: expected a launch (with 'kernel')"}},
      {[](nlohmann::json& w) { w["launches"] = nlohmann::json::array(); },
       {"launches: expected a non-empty array"}},
      {[](nlohmann::json& w) {
         w["launches"].push_back({{"prefetch", {{"buffer", "a"}}}});
       },
       {"launches[1].prefetch.buffer: 'a' is not managed; cudaMemPrefetchAsync moves managed"}},
      {[](nlohmann::json& w) {
         w["buffers"]["a"]["managed"] = true;
         w["launches"].push_back({{"prefetch", {{"buffer", "a"}, {"to", "cpu"}}}});
       },
       {"launches[1].prefetch.to: is 'cpu'; expected 'gpu' or 'host'"}},
      {[](nlohmann::json& w) {
         w["launches"].push_back({{"advise", {{"buffer", "a"}, {"advice", "read_mostly"}}}});
       },
       {"launches[1].advise.buffer: 'a' is not managed; cudaMemAdvise advises managed"}},
      {[](nlohmann::json& w) {
         w["buffers"]["a"]["managed"] = true;
         w["launches"].push_back({{"advise", {{"buffer", "a"}}}});
       },
       {"launches[1].advise.advice: required: 'read_mostly', 'preferred_location_host', "
        "'accessed_by' or an unset_ one"}},
      {[](nlohmann::json& w) {
         w["buffers"]["a"]["managed"] = true;
         w["launches"].push_back({{"advise", {{"buffer", "a"}, {"advice", "accessed"}}}});
       },
       {"launches[1].advise.advice: unknown value 'accessed'", "did you mean 'accessed_by'"}},
      {[](nlohmann::json& w) {
         w["buffers"]["a"]["managed"] = true;
         w["launches"].push_back({{"advise", {{"buffer", "a"}, {"advise", "read_mostly"}}}});
       },
       {"unknown key 'advise' at launches[1].advise", "did you mean 'advice'"}},
      {[](nlohmann::json& w) {
         w["launches"][0] = {{"copy", {{"from", "a"}, {"to", "d"}}}};
       },
       {"launches[0].copy.to: no buffer named 'd'"}},
      {[](nlohmann::json& w) {
         w["launches"][0] = {
             {"repeat_until_zero", {{"buffer", "a"}, {"steps", {w["launches"][0]}}}}};
       },
       {"launches[0].repeat_until_zero.max_iterations: required"}},
      {[](nlohmann::json& w) {
         w["launches"][0]["args"][0] = {{"texture", {{"buffer", "a"}, {"width", 2048}}}};
       },
       {"launches[0].args[0].texture.width", "exceed buffer 'a'"}},
      {[](nlohmann::json& w) {
         w["buffers"]["a"]["type"] = "f64";
         w["launches"][0]["args"][0] = {{"texture", {{"buffer", "a"}, {"width", 4}}}};
       },
       {"launches[0].args[0].texture.buffer: buffer 'a' holds f64; textures hold f32"}},
      {[](nlohmann::json& w) {
         w["outputs"] = {"c", "e"};
       },
       {"outputs[1]: no buffer named 'e'"}},
      {[](nlohmann::json& w) {
         w["generators"] = {{"g", {{"kind", "csr_graph"}, {"nodes", 8}}}};
       },
       {"generators.g.seed: required"}},
      {[](nlohmann::json& w) {
         w["generators"] = {{"g", {{"kind", "csr_graph"}, {"node", 8}, {"seed", 1}}}};
       },
       {"unknown key 'node' at generators.g; did you mean 'nodes'?"}},
      {[](nlohmann::json& w) {
         w["generators"] = {{"g",
                             {{"kind", "csr_matrix"},
                              {"rows", 8},
                              {"columns", 8},
                              {"min_nonzeros", 3},
                              {"max_nonzero", 4},
                              {"seed", 1}}}};
       },
       {"unknown key 'max_nonzero' at generators.g; did you mean 'max_nonzeros'?"}},
      {[](nlohmann::json& w) {
         w["generators"] = {{"g", {{"kind", "csr_matrix"}, {"rows", 8}, {"seed", 1}}}};
       },
       {"generators.g.columns: required"}},
      {[](nlohmann::json& w) {
         w["generators"] = {{"g", {{"kind", "csr_tree"}, {"nodes", 8}}}};
       },
       {"generators.g.kind: unknown value 'csr_tree'"}},
      {[](nlohmann::json& w) {
         w["generators"] = {{"g", {{"kind", "csr_graph"}, {"nodes", 8}, {"seed", 1}}}};
         w["buffers"]["c"] = {
             {"type", "s32"},
             {"count", 8},
             {"init", {{"generator", {{"name", "g"}, {"output", "row_offsets"}}}}}};
       },
       {"buffers.c.count: is 8 but generator 'g' produces 9"}},
      {[](nlohmann::json& w) {
         w["generators"] = {{"g", {{"kind", "csr_graph"}, {"nodes", 8}, {"seed", 1}}}};
         w["buffers"]["c"] = {
             {"type", "f32"},
             {"init", {{"generator", {{"name", "h"}, {"output", "row_offsets"}}}}}};
       },
       {"buffers.c.init.generator.name: no generator named 'h'"}},
      {[](nlohmann::json& w) {
         w["generators"] = {{"g", {{"kind", "csr_graph"}, {"nodes", 8}, {"seed", 1}}}};
         w["buffers"]["c"] = {{"type", "f32"},
                              {"init", {{"generator", {{"name", "g"}, {"output", "values"}}}}}};
       },
       {"buffers.c.init.generator.output: expected 'row_offsets', 'column_indices' or 'weights'"}},
      {[](nlohmann::json& w) {
         w["generators"] = {{"g",
                             {{"kind", "csr_graph"},
                              {"nodes", 8},
                              {"max_degree", 2},
                              {"weight_max", 1000},
                              {"seed", 1}}}};
         w["buffers"]["c"] = {{"type", "u8"},
                              {"init", {{"generator", {{"name", "g"}, {"output", "weights"}}}}}};
       },
       {"buffers.c.init.generator.name: generator 'g' draws weights in [0, 1000), beyond the "
        "range of u8"}},
      {[](nlohmann::json& w) {
         w["launches"].push_back({{"fill", {{"bufer", "c"}, {"value", 0}}}});
       },
       {"unknown key 'bufer' at launches[1].fill; did you mean 'buffer'?"}},
      {[](nlohmann::json& w) { w["name"] = ""; },
       {"name: is empty; expected the workload's name (or leave it out: the file's)"}},
      {[](nlohmann::json& w) {
         w["launches"].push_back({{"fill", {{"value", 0}}}});
       },
       {"launches[1].fill.buffer: required: the name of a buffer"}},
      {[](nlohmann::json& w) {
         w["launches"][0]["grid"] = {2147483648u, 1, 1};
       },
       {"launches[0].grid: x is at most 2^31 - 1"}},
      {[](nlohmann::json& w) {
         w["launches"][0] = {
             {"repeat", {{"count", 2}, {"index", ""}, {"steps", {w["launches"][0]}}}}};
       },
       {"launches[0].repeat.index: is empty"}},
      {[](nlohmann::json& w) {
         const nlohmann::json inner = {
             {"repeat", {{"count", 2}, {"index", "i"}, {"steps", {w["launches"][0]}}}}};
         w["launches"][0] = {{"repeat", {{"count", 2}, {"index", "i"}, {"steps", {inner}}}}};
       },
       {"launches[0].repeat.steps[0].repeat.index: 'i' already names an enclosing loop's counter"}},
      {[](nlohmann::json& w) {
         w["generators"] = {{"g", {{"kind", "csr_graph"}, {"nodes", 8}, {"seed", 1}}}};
         w["buffers"]["c"] = {{"type", "u32"}, {"init", {{"generator", {{"name", "g"}}}}}};
       },
       {"buffers.c.init.generator.output: required"}},
      {[](nlohmann::json& w) {
         w["buffers"]["a"]["init"] = {{"random", {{"seed", 1}, {"min", -1e300}, {"max", 1}}}};
       },
       {"buffers.a.init.random.min: value -1e+300 is beyond the range of f32"}},
      {[](nlohmann::json& w) {
         w["buffers"]["a"]["type"] = "f16";
         w["buffers"]["a"]["init"] = {{"sequence", {{"start", 0}, {"step", 100}}}};
       },
       {"buffers.a.init.sequence.step: the sequence reaches", "beyond the range of f16"}},
      {[](nlohmann::json& w) {
         w["buffers"]["a"]["type"] = "f16";
         w["buffers"]["a"]["init"] = {{"sequence", {{"start", 1e6}, {"step", 0}}}};
       },
       {"buffers.a.init.sequence.start: the sequence reaches 1000000.0",
        "beyond the range of f16"}},
      {[](nlohmann::json& w) {
         w["launches"][0]["args"][0] = {{"struct", {{{"u32", 1}}}}, {"align", 12}};
       },
       {"launches[0].args[0].align: expected a power of two (the N of __align__(N)), got 12"}},
      {[](nlohmann::json& w) {
         w["launches"][0]["args"][0] = {{"struct", {{{"u32", 1}}}}, {"align", 8192}};
       },
       {"launches[0].args[0].align"}},
      {[](nlohmann::json& w) {
         w["launches"][0]["args"][0] = {
             {"struct", {{{"struct", {{{"texture", {{"buffer", "a"}, {"width", 4}}}}}}}}}};
       },
       {"launches[0].args[0].struct[0].struct[0]: a struct field must be a buffer"}},
      {[](nlohmann::json& w) {
         w["launches"][0]["args"][0] = {{"struct", nlohmann::json::array()}, {"alignment", 4}};
       },
       {"launches[0].args[0]: expected one of"}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    nlohmann::json json = example_workload();
    cases[i].change(json);
    const std::string message = load_error(json, folder);
    INFO("case " << i << ": " << message);
    CHECK(message.rfind(file + ": ", 0) == 0);
    for (const std::string& part : cases[i].expected)
      CHECK(message.find(part) != std::string::npos);
  }
}

TEST_CASE("a file init must hold exactly the buffer's bytes", "[workload]") {
  TempFolder folder;
  folder.write("short.bin", std::string(100, 'x'));
  nlohmann::json json = example_workload();
  json["buffers"]["b"]["init"] = {{"file", "short.bin"}};
  const std::string message = load_error(json, folder);
  CHECK(message.find("buffers.b.init.file") != std::string::npos);
  CHECK(message.find("holds 100 bytes; the buffer needs exactly 4096") != std::string::npos);
}

TEST_CASE("expected outputs take a buffer's init forms and float tolerances, by JSON path",
          "[workload]") {
  TempFolder folder;
  nlohmann::json json = example_workload();
  json["outputs"] = {"a", "c"};
  json["expected"] = {{"c", {{"values", {{"value", 1.5}}}, {"relative", 1e-6}}},
                      {"a", {{"values", "zero"}}}};
  const GpuWorkload workload = load_gpu_workload(folder.write("w.json", json.dump()));
  REQUIRE(workload.expected.size() == 2);
  CHECK(workload.expected[0].buffer == "a");
  CHECK(workload.expected[0].values.kind == BufferInit::Kind::zero);
  CHECK(workload.expected[1].buffer == "c");
  CHECK(workload.expected[1].values.kind == BufferInit::Kind::value);
  CHECK(workload.expected[1].relative == 1e-6);
  CHECK(workload.expected[1].absolute == 0);

  const auto refused = [&folder](const nlohmann::json& expected, const char* message) {
    nlohmann::json bad = example_workload();
    bad["buffers"]["n"] = {{"type", "u32"}, {"count", 4}};
    bad["outputs"] = {"c", "n"};
    bad["expected"] = expected;
    CHECK_THAT(load_error(bad, folder), Catch::Contains(message));
  };
  refused({{"cc", {{"values", "zero"}}}},
          "bad.json: expected: 'cc' is not one of the outputs; did you mean 'c'?");
  refused({{"a", {{"values", "zero"}}}}, "expected: 'a' is not one of the outputs");
  refused({{"c", {{"value", "zero"}}}},
          "unknown key 'value' at expected.c; did you mean 'values'?");
  refused({{"c", nlohmann::json::object()}}, "expected.c.values: required");
  refused({{"c", {{"values", {{"file", "missing.bin"}}}}}}, "expected.c.values.file: cannot read");
  refused({{"c", {{"values", {{"generator", {{"name", "g"}, {"output", "values"}}}}}}}},
          "expected.c.values: a generator makes inputs");
  refused({{"c", {{"values", "zero"}, {"absolute", -1}}}},
          "expected.c.absolute: expected a finite number of at least 0, got -1");
  refused({{"n", {{"values", "zero"}, {"relative", 0.1}}}},
          "expected.n.relative: a tolerance is for float outputs; 'n' is u32 and must match "
          "exactly");
  refused(nlohmann::json::array(), "expected: expected an object: output name -> ");
  folder.write("short.bin", std::string(100, 'x'));
  refused({{"n", {{"values", {{"file", "short.bin"}}}}}}, "expected.n.values.file: ");
  refused({{"n", {{"values", {{"file", "short.bin"}}}}}},
          "short.bin holds 100 bytes; the buffer needs exactly 16");
}

TEST_CASE("buffer initialisers produce deterministic little-endian bytes", "[workload]") {
  TempFolder folder;
  nlohmann::json json = example_workload();
  json["buffers"] = nlohmann::json::parse(R"({
    "a": {"type": "f32", "count": 1024, "init": {"random": {"seed": 1, "min": -1, "max": 1}}},
    "b": {"type": "f32", "count": 1024, "init": {"random": {"seed": 1, "min": -1, "max": 1}}},
    "c": {"type": "f32", "count": 1024, "init": {"random": {"seed": 2, "min": -1, "max": 1}}},
    "i": {"type": "s16", "count": 4096, "init": {"random": {"seed": 3, "min": -5, "max": 5}}},
    "u": {"type": "u64", "count": 64, "init": {"random": {"seed": 4, "min": 0, "max": 18446744073709551615}}},
    "h": {"type": "f16", "count": 3, "init": {"sequence": {"start": 1, "step": 0.0001}}},
    "v": {"type": "u16", "count": 3, "init": {"value": 258}},
    "d": {"type": "f64", "count": 4, "init": {"sequence": {"start": -1.5, "step": 0.5}}},
    "w": {"type": "u64", "count": 2, "init": {"sequence": {"start": 2e19, "step": -3e19}}},
    "n": {"type": "s8", "count": 2, "init": {"sequence": {"start": 130.7, "step": -260}}},
    "z": {"type": "s8", "count": 2}})");
  const GpuWorkload w = load_gpu_workload(folder.write("w.json", json.dump()));
  const auto bytes = initial_buffers(w);
  CHECK(bytes.at("a") == bytes.at("b"));
  CHECK(bytes.at("a") != bytes.at("c"));
  CHECK(bytes == initial_buffers(load_gpu_workload(folder.path() / "w.json")));
  for (size_t k = 0; k < 1024; ++k) {
    const float value = element<float>(bytes.at("a"), k);
    REQUIRE(value >= -1.0f);
    REQUIRE(value <= 1.0f);
  }
  std::set<int16_t> seen;
  for (size_t k = 0; k < 4096; ++k) seen.insert(element<int16_t>(bytes.at("i"), k));
  CHECK(seen.size() == 11);
  CHECK(*seen.begin() == -5);
  CHECK(*seen.rbegin() == 5);
  CHECK(bytes.at("u").size() == 64 * 8);
  // 1 + 0.0001 is closer to 1 than to 1 + 2^-10 in half precision; 1.0002 too.
  CHECK(element<uint16_t>(bytes.at("h"), 0) == 0x3C00);
  CHECK(element<uint16_t>(bytes.at("h"), 1) == 0x3C00);
  CHECK(bytes.at("v") == std::vector<uint8_t>{2, 1, 2, 1, 2, 1});
  CHECK(element<double>(bytes.at("d"), 3) == 0.0);
  CHECK(bytes.at("z") == std::vector<uint8_t>{0, 0});
  // Integers beyond the type wrap modulo 2^64 and then to its width, as documented.
  CHECK(element<uint64_t>(bytes.at("w"), 0) == 1553255926290448384ull);  // 2e19 - 2^64
  CHECK(element<uint64_t>(bytes.at("w"), 1) == 8446744073709551616ull);  // 2^64 - 1e19
  CHECK(bytes.at("n") == std::vector<uint8_t>{130, static_cast<uint8_t>(-129)});
}

TEST_CASE("half conversion rounds to nearest even", "[workload]") {
  CHECK(float_to_half_bits(1.0f) == 0x3C00);
  CHECK(float_to_half_bits(-2.0f) == 0xC000);
  CHECK(float_to_half_bits(65504.0f) == 0x7BFF);
  CHECK(float_to_half_bits(65520.0f) == 0x7C00);               // the tie rounds up to infinity
  CHECK(float_to_half_bits(1.0f + 0x1.0p-11f) == 0x3C00);      // tie between 1 and 1+2^-10: even
  CHECK(float_to_half_bits(1.0f + 3 * 0x1.0p-11f) == 0x3C02);  // tie: up to the even one
  CHECK(float_to_half_bits(0x1.0p-24f) == 0x0001);             // smallest subnormal
  CHECK(float_to_half_bits(0x1.0p-25f) == 0x0000);             // tie with zero: even
  CHECK(float_to_half_bits(0x1.8p-25f) == 0x0001);
  CHECK(float_to_half_bits(0x1.ffcp-15f) == 0x0400);  // rounds up into the normals
  CHECK((float_to_half_bits(std::nanf("")) & 0x7C00) == 0x7C00);
  for (uint32_t bits = 0; bits < 0x7C00; ++bits)
    REQUIRE(float_to_half_bits(half_bits_to_float(static_cast<uint16_t>(bits))) == bits);
}

namespace {

CsrShape csr_shape(uint64_t rows, uint64_t columns, uint64_t min_per_row, uint64_t max_per_row,
                   uint64_t seed) {
  CsrShape shape;
  shape.rows = rows;
  shape.columns = columns;
  shape.min_per_row = min_per_row;
  shape.max_per_row = max_per_row;
  shape.seed = seed;
  return shape;
}

}  // namespace

TEST_CASE("CSR generators are deterministic and valid", "[workload]") {
  CsrShape shape = csr_shape(500, 500, 1, 9, 42);
  shape.allow_diagonal = false;
  const GeneratedCsr a = generate_csr(shape);
  const GeneratedCsr b = generate_csr(shape);
  CHECK(a.row_offsets == b.row_offsets);
  CHECK(a.column_indices == b.column_indices);
  CHECK(a.values == b.values);
  shape.seed = 43;
  CHECK(generate_csr(shape).column_indices != a.column_indices);
  REQUIRE(a.row_offsets.size() == 501);
  CHECK(a.row_offsets.front() == 0);
  CHECK(a.row_offsets.back() == a.column_indices.size());
  std::set<uint64_t> degrees;
  for (uint64_t r = 0; r < 500; ++r) {
    REQUIRE(a.row_offsets[r] <= a.row_offsets[r + 1]);
    const uint64_t degree = a.row_offsets[r + 1] - a.row_offsets[r];
    degrees.insert(degree);
    REQUIRE(degree >= 1);
    REQUIRE(degree <= 9);
    for (uint64_t e = a.row_offsets[r]; e < a.row_offsets[r + 1]; ++e) {
      REQUIRE(a.column_indices[e] < 500);
      REQUIRE(a.column_indices[e] != r);  // no self loops
      if (e > a.row_offsets[r]) REQUIRE(a.column_indices[e - 1] < a.column_indices[e]);
      REQUIRE(a.values[e] >= 0.0);
      REQUIRE(a.values[e] < 1.0);
    }
  }
  CHECK(degrees.size() == 9);

  // A row asking for more entries than columns gets all of them.
  const GeneratedCsr full = generate_csr(csr_shape(3, 4, 10, 10, 1));
  CHECK(full.row_offsets == std::vector<uint64_t>{0, 4, 8, 12});
  CHECK(std::vector<uint64_t>(full.column_indices.begin(), full.column_indices.begin() + 4) ==
        std::vector<uint64_t>{0, 1, 2, 3});
}

TEST_CASE("a CSR generator draws long rows distinct and stops at its entry bound", "[workload]") {
  CsrShape shape = csr_shape(4, 5000, 4000, 4990, 7);
  const GeneratedCsr csr = generate_csr(shape);
  for (uint64_t r = 0; r < 4; ++r) {
    REQUIRE(csr.row_offsets[r + 1] - csr.row_offsets[r] >= 4000);
    for (uint64_t e = csr.row_offsets[r] + 1; e < csr.row_offsets[r + 1]; ++e)
      REQUIRE(csr.column_indices[e - 1] < csr.column_indices[e]);
  }
  CHECK(fewest_entries(shape) == 16000);
  CHECK(generate_csr(shape, csr.column_indices.size()).has_value());
  CHECK_FALSE(generate_csr(shape, csr.column_indices.size() - 1).has_value());
  shape.allow_diagonal = false;  // a graph: as many columns as rows
  shape.rows = 3;
  shape.columns = 3;
  CHECK(fewest_entries(shape) == 6);  // two columns a row once the diagonal is left out
  CHECK(generate_csr(shape).column_indices.size() == 6);
}

TEST_CASE("a CSR shape whose draws surely exceed a bound is known without drawing it",
          "[workload]") {
  // 1000 rows of 0 to 100 entries: 50,000 on average; Hoeffding's shortfall for 1e-30 is
  // 100 sqrt(1000 x 34.55) = 18,588.
  const CsrShape shape = csr_shape(1000, 1000, 0, 100, 3);
  CHECK(surely_more_entries_than(shape, 31000));
  CHECK_FALSE(surely_more_entries_than(shape, 31500));
  const uint64_t drawn = generate_csr(shape).column_indices.size();
  CHECK(drawn > 31500);
  // Rows of a fixed count: the mean is the count, with no shortfall.
  CHECK(surely_more_entries_than(csr_shape(10, 10, 4, 4, 1), 39));
  CHECK_FALSE(surely_more_entries_than(csr_shape(10, 10, 4, 4, 1), 40));
  // Without the diagonal a graph's rows have one column fewer to draw from.
  CsrShape graph = csr_shape(10, 10, 10, 10, 1);
  graph.allow_diagonal = false;
  CHECK_FALSE(surely_more_entries_than(graph, 90));
  CHECK(surely_more_entries_than(graph, 89));
}

TEST_CASE("buffers beyond the memory are refused before the generators build them", "[workload]") {
  const TempFolder folder;
  nlohmann::json json = example_workload();
  const fs::path file = folder.write("w.json", json.dump());
  const auto error_at = [&](const nlohmann::json& w, uint64_t memory_bytes) {
    folder.write("w.json", w.dump());
    try {
      load_gpu_workload(file, memory_bytes);
    } catch (const ConfigError& error) {
      return std::string(error.what());
    }
    return std::string("(no error)");
  };
  uint64_t footprint = 0;
  for (const BufferSpec& buffer : load_gpu_workload(file).buffers) footprint += buffer.size_bytes();
  CHECK(error_at(json, footprint) == "(no error)");
  CHECK(error_at(json, footprint - 1) ==
        file.string() + ": buffers: need " + std::to_string(footprint) +
            " bytes but the memory holds " + std::to_string(footprint - 1));

  // Two billion rows: refused from the row offsets alone, without drawing a row.
  json["generators"] = {{"g", {{"kind", "csr_graph"}, {"nodes", 1u << 31}, {"seed", 1}}}};
  json["buffers"]["offsets"] = {
      {"type", "u64"}, {"init", {{"generator", {{"name", "g"}, {"output", "row_offsets"}}}}}};
  CHECK(error_at(json, 1u << 30) == file.string() + ": buffers: need at least " +
                                        std::to_string(footprint + 8 * ((uint64_t{1} << 31) + 1)) +
                                        " bytes but the memory holds 1073741824");

  // Rows that may be empty: the generator stops once its entries cannot fit.
  json["generators"]["g"] = {{"kind", "csr_matrix"},
                             {"rows", 4},
                             {"columns", 1u << 31},
                             {"max_nonzeros", 1u << 31},
                             {"seed", 1}};
  json["buffers"]["columns"] = {
      {"type", "u32"}, {"init", {{"generator", {{"name", "g"}, {"output", "column_indices"}}}}}};
  CHECK(error_at(json, footprint + 40 + 4000) ==
        file.string() +
            ": generators.g: generates more entries than fit: with the other buffers they would "
            "need more than the " +
            std::to_string(footprint + 40 + 4000) + " bytes the memory holds");

  // Rows whose draws surely overflow the memory: refused before any is drawn (built, they would
  // take tens of gigabytes of host memory first).
  json["generators"]["g"] = {
      {"kind", "csr_graph"}, {"nodes", 1u << 20}, {"max_degree", 100000}, {"seed", 1}};
  CHECK(error_at(json, uint64_t{6} << 30) ==
        file.string() +
            ": generators.g: generates more entries than fit: with the other buffers they would "
            "need more than the 6442450944 bytes the memory holds");

  // A generator no buffer uses is not built at all.
  nlohmann::json unused = example_workload();
  unused["generators"] = {
      {"g", {{"kind", "csr_graph"}, {"nodes", 1u << 31}, {"max_degree", 1000}, {"seed", 1}}}};
  CHECK(error_at(unused, footprint) == "(no error)");

  // A graph that fits gets its counts as before.
  json["generators"]["g"] = {
      {"kind", "csr_graph"}, {"nodes", 64}, {"min_degree", 2}, {"max_degree", 2}, {"seed", 1}};
  CHECK(error_at(json, footprint + 65 * 8 + 128 * 4) == "(no error)");
  CHECK(error_at(json, footprint + 65 * 8 + 128 * 4 - 1) ==
        file.string() + ": buffers: need at least " + std::to_string(footprint + 65 * 8 + 128 * 4) +
            " bytes but the memory holds " + std::to_string(footprint + 65 * 8 + 128 * 4 - 1));
}

TEST_CASE("generated buffers get their counts from the generator", "[workload]") {
  const GpuWorkload w = load_gpu_workload(workloads_dir() / "spmv.json");
  const BufferSpec& offsets = *w.find_buffer("row_offsets");
  const BufferSpec& columns = *w.find_buffer("column_indices");
  const BufferSpec& values = *w.find_buffer("values");
  CHECK(offsets.count == 2049);
  CHECK(columns.count == values.count);
  const auto bytes = initial_buffers(w);
  CHECK(element<int32_t>(bytes.at("row_offsets"), 2048) == static_cast<int32_t>(columns.count));
  for (size_t k = 0; k < columns.count; ++k) {
    REQUIRE(element<int32_t>(bytes.at("column_indices"), k) >= 0);
    REQUIRE(element<int32_t>(bytes.at("column_indices"), k) < 1024);
  }
}

namespace {

// Records what the runner asks for; the watched flag turns zero after `flag_turns` reads.
class RecordingExecutor : public WorkloadExecutor {
 public:
  explicit RecordingExecutor(uint64_t flag_turns) : m_flag_turns(flag_turns) {}
  void launch(const KernelLaunch& launch, const std::vector<ResolvedArg>& args,
              uint32_t stream) override {
    std::string line = launch.kernel;
    for (const ResolvedArg& arg : args) {
      if (arg.kind == KernelArg::Kind::buffer && arg.byte_offset != 0)
        line += " " + arg.buffer + "+" + std::to_string(arg.byte_offset);
      if (arg.kind == KernelArg::Kind::scalar) line += " " + std::to_string(arg.bits);
      if (arg.kind == KernelArg::Kind::structure)
        line += " struct" + std::to_string(arg.bytes.size());
    }
    log.push_back(line + (stream != 0 ? " on " + std::to_string(stream) : ""));
    if (!args.empty() && args.back().kind == KernelArg::Kind::structure)
      last_struct = args.back().bytes;
  }
  void copy(const std::string& from, const std::string& to,
            std::optional<uint32_t> stream) override {
    log.push_back("copy " + from + " " + to + (stream ? " on " + std::to_string(*stream) : ""));
  }
  void fill(const std::string& buffer, uint64_t bits, std::optional<uint32_t> stream) override {
    log.push_back("fill " + buffer + " " + std::to_string(bits) +
                  (stream ? " on " + std::to_string(*stream) : ""));
  }
  uint64_t read_element(const std::string& buffer, uint64_t index) override {
    log.push_back("read " + buffer + "[" + std::to_string(index) + "]");
    return ++m_reads >= m_flag_turns ? 0 : 1;
  }
  void to_device(const std::string& buffer, uint64_t offset, const uint8_t*, uint64_t size,
                 uint32_t stream) override {
    log.push_back("to_device " + buffer + " " + std::to_string(offset) + " " +
                  std::to_string(size) + " bytes on " + std::to_string(stream));
  }
  void to_host(const std::string& buffer, uint64_t offset, uint64_t bytes,
               uint32_t stream) override {
    log.push_back("to_host " + buffer + " " + std::to_string(offset) + " " + std::to_string(bytes) +
                  " bytes on " + std::to_string(stream));
  }
  void prefetch(const std::string& buffer, bool to_host, std::optional<uint32_t> stream) override {
    log.push_back("prefetch " + buffer + (to_host ? " to host" : " to gpu") +
                  (stream ? " on " + std::to_string(*stream) : ""));
  }
  void synchronize(std::optional<uint32_t> stream) override {
    log.push_back(stream ? "synchronize " + std::to_string(*stream) : "synchronize device");
  }
  void record_event(const std::string& event, uint32_t stream) override {
    log.push_back("record " + event + " on " + std::to_string(stream));
  }
  void wait_event(const std::string& event, uint32_t stream) override {
    log.push_back("wait " + event + " on " + std::to_string(stream));
  }
  void synchronize_event(const std::string& event) override {
    log.push_back("synchronize event " + event);
  }
  std::vector<std::string> log;
  std::vector<uint8_t> last_struct;

 private:
  uint64_t m_flag_turns;
  uint64_t m_reads = 0;
};

GpuWorkload control_workload(const TempFolder& folder, uint64_t max_iterations) {
  nlohmann::json json = example_workload();
  json["buffers"]["flag"] = {{"type", "u32"}, {"count", 2}};
  json["launches"] = nlohmann::json::parse(R"([
    {"repeat": {"count": 2, "index": "i", "steps": [
      {"repeat": {"count": 2, "index": "j", "steps": [
        {"kernel": "k", "grid": [1], "block": [32], "args": [
          {"u32": {"loop_index": "i"}}, {"s64": {"loop_index": "j"}}, {"u32": {"count_of": "a"}}]}]}}]}},
    {"repeat_until_zero": {"buffer": "flag", "element": 1, "max_iterations": 5, "steps": [
      {"fill": {"buffer": "flag", "value": 7}},
      {"copy": {"from": "a", "to": "b"}}]}},
    {"kernel": "s", "grid": [1], "block": [1], "args": [
      {"struct": [{"u32": 1}, {"f64": 2.0}, {"s32": -1}]}]}])");
  json["launches"][1]["repeat_until_zero"]["max_iterations"] = max_iterations;
  return load_gpu_workload(folder.write("control.json", json.dump()));
}

}  // namespace

// Refuses every copy as the runtime refuses a bad argument.
class RefusingExecutor : public RecordingExecutor {
 public:
  RefusingExecutor() : RecordingExecutor(1) {}
  void copy(const std::string&, const std::string&, std::optional<uint32_t>) override {
    throw std::invalid_argument("device copy: refused");
  }
};

TEST_CASE("control steps: a call the runtime refuses is an error at its step", "[workload]") {
  TempFolder folder;
  RefusingExecutor executor;
  CHECK_THROWS_MATCHES(
      run_workload_steps(control_workload(folder, 5), executor), ConfigError,
      Catch::Message((folder.path() / "control.json").string() +
                     ": launches[1].repeat_until_zero.steps[1]: device copy: refused"));
}

TEST_CASE("control steps: nested repeats, loop indices, until-zero loops, copy, fill, structs",
          "[workload]") {
  TempFolder folder;
  RecordingExecutor executor(3);
  run_workload_steps(control_workload(folder, 5), executor);
  const std::vector<std::string> expected = {
      "k 0 0 1024",  "k 0 1 1024",   "k 1 0 1024",   "k 1 1 1024", "fill flag 7",
      "copy a b",    "read flag[1]", "fill flag 7",  "copy a b",   "read flag[1]",
      "fill flag 7", "copy a b",     "read flag[1]", "s struct24", "synchronize device"};
  CHECK(executor.log == expected);
  // u32 at 0, padding, f64 at 8, s32 at 16, padding to the 8-byte alignment.
  REQUIRE(executor.last_struct.size() == 24);
  CHECK(executor.last_struct[0] == 1);
  double two;
  std::memcpy(&two, executor.last_struct.data() + 8, 8);
  CHECK(two == 2.0);
  CHECK(executor.last_struct[16] == 0xFF);
  CHECK(executor.last_struct[19] == 0xFF);
}

TEST_CASE("struct arguments nest and take __align__(N) as C lays them out", "[workload]") {
  TempFolder folder;
  nlohmann::json json = example_workload();
  // struct Job { u8 tag; struct { u16 a; u64 b; } inner; struct __align__(16) { f32 s; } f;
  //              struct {} empty; }: tag at 0, inner at 8 (a at 8, b at 16), f at 32, empty at
  //              48, the whole padded to 64.
  json["launches"] = nlohmann::json::parse(R"([
    {"kernel": "s", "grid": [1], "block": [1], "args": [{"struct": [
      {"u8": 7},
      {"struct": [{"u16": 513}, {"u64": 9}]},
      {"struct": [{"f32": 1.5}], "align": 16},
      {"struct": []}]}]}])");
  RecordingExecutor executor(1);
  run_workload_steps(load_gpu_workload(folder.write("nested.json", json.dump())), executor);
  const std::vector<uint8_t>& bytes = executor.last_struct;
  REQUIRE(bytes.size() == 64);
  CHECK(bytes[0] == 7);
  CHECK(element<uint16_t>(bytes, 4) == 513);
  CHECK(element<uint64_t>(bytes, 2) == 9);
  CHECK(element<float>(bytes, 8) == 1.5f);
  size_t nonzero = 0;
  for (uint8_t byte : bytes) nonzero += byte != 0;
  CHECK(nonzero == 6);  // 7, the two bytes of 513, 9 and the two of 1.5f: padding is zero
}

TEST_CASE("a repeat_until_zero loop that never ends is a clear error", "[workload]") {
  TempFolder folder;
  RecordingExecutor executor(100);
  try {
    run_workload_steps(control_workload(folder, 4), executor);
    FAIL("expected a SimulationError");
  } catch (const SimulationError& error) {
    const std::string message = error.what();
    CHECK(message.find("control.json: launches[1]: buffer 'flag' element 1 is still non-zero "
                       "after 4 iterations") != std::string::npos);
  }
}

TEST_CASE(
    "stream steps: copies in parts on streams, launches and device copies on streams, "
    "synchronize",
    "[workload]") {
  TempFolder folder;
  nlohmann::json json = example_workload();
  json["buffers"]["a"]["copy_in"] = false;
  json["buffers"]["m"] = {{"type", "f32"}, {"count", 16}, {"managed", true}};
  json["launches"] = nlohmann::json::parse(R"([
    {"to_device": {"buffer": "a", "first": 256, "count": 512, "stream": 2}},
    {"to_device": {"buffer": "b", "stream": 1}},
    {"kernel": "vecadd", "grid": [4], "block": [256], "stream": 2,
     "args": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"}, {"u32": 1024}]},
    {"to_host": {"buffer": "c", "first": 1000}},
    {"copy": {"from": "c", "to": "a", "stream": 3}},
    {"prefetch": {"buffer": "m", "stream": 4}},
    {"fill": {"buffer": "b", "value": 2.0, "stream": 5}},
    {"synchronize": {"stream": 2}},
    {"synchronize": {}}])");
  const GpuWorkload w = load_gpu_workload(folder.write("streams.json", json.dump()));
  CHECK(w.steps[2].launch.stream.literal == 2);
  RecordingExecutor executor(1);
  run_workload_steps(w, executor);
  const std::vector<std::string> expected = {"to_device a 1024 2048 bytes on 2",
                                             "to_device b 0 4096 bytes on 1",
                                             "vecadd 1024 on 2",
                                             "to_host c 4000 96 bytes on 0",
                                             "copy c a on 3",
                                             "prefetch m to gpu on 4",
                                             "fill b 1073741824 on 5",
                                             "synchronize 2",
                                             "synchronize device",
                                             "synchronize device"};  // the steps' end
  CHECK(executor.log == expected);
  // The device starts with zeros where the host's contents are not copied in.
  const auto device = initial_buffers(w);
  CHECK(device.at("a") == std::vector<uint8_t>(4096, 0));
  CHECK(device.at("b") == initial_bytes(w, *w.find_buffer("b")));
}

TEST_CASE("stream steps: bad ranges, streams and buffers are refused by JSON path", "[workload]") {
  TempFolder folder;
  const auto refused = [&folder](const char* launches, const char* expected) {
    nlohmann::json json = example_workload();
    json["launches"] = nlohmann::json::parse(launches);
    CHECK_THAT(load_error(json, folder), Catch::Contains(expected));
  };
  refused(R"([{"to_device": {"buffer": "a", "first": 1024}}])", "launches[0].to_device.first: ");
  refused(R"([{"to_device": {"buffer": "a", "first": 1000, "count": 25}}])",
          "launches[0].to_device.count: ");
  refused(R"([{"to_host": {"buffer": "a", "stream": 1024}}])", "launches[0].to_host.stream: ");
  refused(R"([{"to_host": {"buffer": "d"}}])", "no buffer named 'd'");
  refused(R"([{"to_host": {"buffer": "a", "strem": 1}}])", "did you mean 'stream'");
  refused(R"([{"synchronize": {"stream": -1}}])", "launches[0].synchronize.stream: ");
  refused(R"([{"to_device": {"buffer": "a"}, "synchronize": {}}])",
          "has both 'to_device' and 'synchronize'");
  refused(R"([{"kernel": "vecadd", "grid": [1], "block": [1], "stream": 5000, "args": []}])",
          "launches[0].stream: ");
  refused(R"([{"advise": {"buffer": "a", "advice": "read_mostly", "stream": 1}}])",
          "launches[0].advise.stream: 'advise' steps are synchronous calls on stream 0; only "
          "launches, copy, fill, prefetch, to_device and to_host take a stream");
  refused(R"([{"fill": {"buffer": "a", "value": 0}, "stream": 1}])",
          "launches[0].stream: goes inside 'fill'");
  refused(R"([{"fill": {"buffer": "a", "value": 0, "stream": 1024}}])",
          "launches[0].fill.stream: ");
  refused(R"([{"copy": {"from": "a", "to": "a", "stream": 1}}])",
          "launches[0].copy.to: is 'from' too; an asynchronous copy's source and destination "
          "may not overlap");
  refused(R"([{"copy": {"from": "a", "to": "b", "stream": 1024}}])", "launches[0].copy.stream: ");
  refused(R"([{"copy": {"from": "a", "to": "b"}, "stream": 1}])",
          "launches[0].stream: goes inside 'copy'");
  refused(R"([{"to_device": {"buffer": "a"}, "stream": 1}])",
          "launches[0].stream: goes inside 'to_device'");
  refused(R"([{"repeat": {"count": 2, "steps": [{"synchronize": {}}], "stream": 3}}])",
          "launches[0].repeat.stream: 'repeat' takes no stream: the steps inside it name theirs");
  nlohmann::json managed = example_workload();
  managed["buffers"]["a"]["managed"] = true;
  managed["buffers"]["a"]["copy_in"] = false;
  CHECK_THAT(load_error(managed, folder),
             Catch::Contains("buffers.a.copy_in: is false, but the buffer is managed"));
}

TEST_CASE("loop-indexed numbers: a chunk's first element, count, offset, stream and scalars",
          "[workload]") {
  TempFolder folder;
  nlohmann::json json = example_workload();
  json["launches"] = nlohmann::json::parse(R"([{"repeat": {"count": 4, "index": "i", "steps": [
    {"to_device": {"buffer": "a", "first": {"loop_index": "i", "times": 256},
                   "count": 256, "stream": {"loop_index": "i", "plus": 1}}},
    {"to_device": {"buffer": "b", "first": {"loop_index": "i", "times": 256}}},
    {"kernel": "vecadd", "grid": [1], "block": [256], "stream": {"loop_index": "i", "plus": 1},
     "args": [{"buffer": "a", "offset": {"loop_index": "i", "times": 256}}, {"buffer": "b"},
              {"buffer": "c"}, {"u32": {"loop_index": "i", "times": -256, "plus": 1024}}]},
    {"synchronize": {"stream": {"loop_index": "i", "times": 1, "plus": 1}}}]}}])");
  RecordingExecutor executor(1);
  run_workload_steps(load_gpu_workload(folder.write("loop.json", json.dump())), executor);
  std::vector<std::string> expected;
  for (int i = 0; i < 4; ++i) {
    const std::string on = std::to_string(i + 1), at = std::to_string(1024 * i);
    expected.push_back("to_device a " + at + " 1024 bytes on " + on);
    // Without a count: the rest of the buffer from each turn's first element.
    expected.push_back("to_device b " + at + " " + std::to_string(4096 - 1024 * i) + " bytes on 0");
    expected.push_back("vecadd" + (i == 0 ? std::string() : " a+" + at) + " " +
                       std::to_string(1024 - 256 * i) + " on " + on);
    expected.push_back("synchronize " + on);
  }
  expected.push_back("synchronize device");
  CHECK(executor.log == expected);

  // Every value over the loop's turns is checked before the run, by JSON path.
  const auto refused = [&folder](const char* step, const char* message, uint64_t turns = 4) {
    nlohmann::json bad = example_workload();
    bad["launches"] = nlohmann::json::array(
        {{{"repeat",
           {{"count", turns}, {"index", "i"}, {"steps", {nlohmann::json::parse(step)}}}}}});
    CHECK_THAT(load_error(bad, folder), Catch::Contains(message));
  };
  const char* path = "launches[0].repeat.steps[0].";
  refused(R"({"to_device": {"buffer": "a", "first": {"loop_index": "i", "times": 256}}})",
          (std::string(path) + "to_device.first: goes from 0 to 1024 over the 5 turns of loop "
                               "'i'; expected 0 to 1023")
              .c_str(),
          5);
  refused(R"({"to_device": {"buffer": "a", "first": {"loop_index": "j"}}})",
          "to_device.first.loop_index: no enclosing repeat step has \"index\": \"j\"");
  refused(R"({"to_device": {"buffer": "a", "first": {"times": 2}}})",
          "to_device.first.loop_index: required: the \"index\" of an enclosing repeat step");
  refused(R"({"to_device": {"buffer": "a", "first": {"loop_index": "i", "time": 2}}})",
          "did you mean 'times'");
  refused(R"({"to_host": {"buffer": "a", "first": {"loop_index": "i", "times": 256},
              "count": 512}})",
          "to_host.count: reaches element 1280 (first + count) on a turn of its loop; buffer 'a' "
          "holds 1024");
  refused(R"({"synchronize": {"stream": {"loop_index": "i", "plus": 1021}}})",
          "synchronize.stream: goes from 1021 to 1024 over the 4 turns of loop 'i'; expected 0 "
          "to 1023");
  refused(R"({"kernel": "vecadd", "grid": [1], "block": [1], "args": [{"buffer": "a"},
              {"buffer": "b", "offset": {"loop_index": "i", "times": -1}}, {"buffer": "c"},
              {"u32": 1}]})",
          "args[1].offset: goes from -3 to 0 over the 4 turns of loop 'i'; expected 0 to 1024");
  refused(R"({"kernel": "vecadd", "grid": [1], "block": [1], "args": [{"buffer": "a"},
              {"buffer": "b"}, {"buffer": "c"}, {"u8": {"loop_index": "i"}}]})",
          "args[3].u8: goes from 0 to 299 over the 300 turns of loop 'i'; expected 0 to 255", 300);
  // Beyond 64 bits on the last of 2^32 turns.
  refused(R"({"kernel": "vecadd", "grid": [1], "block": [1], "args": [{"buffer": "a"},
              {"buffer": "b"}, {"buffer": "c"},
              {"s64": {"loop_index": "i", "times": -2147483648, "plus": -1099511627776}}]})",
          "args[3].s64: goes from -9223373134218919936 to -1099511627776 over the 4294967296 turns "
          "of loop 'i'; "
          "expected -9223372036854775808 to 9223372036854775807",
          uint64_t{1} << 32);
  refused(R"({"kernel": "vecadd", "grid": [1], "block": [1], "args": [{"buffer": "a"},
              {"buffer": "b"}, {"buffer": "c"}, {"f32": {"loop_index": "i"}}]})",
          "args[3].f32: 'count_of' and 'loop_index' give integers; use an integer type");
}

TEST_CASE("event steps: record, wait_event and synchronize with an event, checked by JSON path",
          "[workload]") {
  TempFolder folder;
  nlohmann::json json = example_workload();
  json["launches"] = nlohmann::json::parse(R"([
    {"record": {"event": "start"}},
    {"repeat": {"count": 2, "index": "i", "steps": [
      {"wait_event": {"event": "copied", "stream": {"loop_index": "i", "plus": 2}}},
      {"record": {"event": "copied", "stream": 1}}]}},
    {"synchronize": {"event": "copied"}}])");
  RecordingExecutor executor(1);
  run_workload_steps(load_gpu_workload(folder.write("events.json", json.dump())), executor);
  const std::vector<std::string> expected = {
      "record start on 0",  "wait copied on 2",         "record copied on 1", "wait copied on 3",
      "record copied on 1", "synchronize event copied", "synchronize device"};  // the steps' end
  CHECK(executor.log == expected);

  const auto refused = [&folder](const char* launches, const char* message) {
    nlohmann::json bad = example_workload();
    bad["launches"] = nlohmann::json::parse(launches);
    CHECK_THAT(load_error(bad, folder), Catch::Contains(message));
  };
  refused(R"([{"wait_event": {"event": "x", "stream": 1}}])",
          "launches[0].wait_event.event: no record step records event 'x'");
  refused(R"([{"record": {"event": "x"}}, {"synchronize": {"event": "y"}}])",
          "launches[1].synchronize.event: no record step records event 'y'");
  refused(R"([{"record": {"stream": 1}}])", "launches[0].record.event: required: the event's name");
  refused(R"([{"record": {"event": ""}}])",
          "launches[0].record.event: is empty; expected the event's name");
  refused(R"([{"record": {"event": "x"}, "stream": 1}])",
          "launches[0].stream: goes inside 'record'");
  refused(R"([{"record": {"event": "x", "stream": 1024}}])", "launches[0].record.stream: ");
  refused(R"([{"record": {"event": "x"}}, {"synchronize": {"event": "x", "stream": 1}}])",
          "launches[1].synchronize.event: is given with 'stream'; synchronize with one stream, "
          "one event, or (with neither) the device");
  refused(R"([{"record": {"event": "x", "evnt": 1}}])", "did you mean 'event'");
  refused(R"([{"recrod": {"event": "x"}}])",
          "launches[0]: expected a launch (with 'kernel') or one of 'repeat', "
          "'repeat_until_zero', 'copy', 'fill', 'prefetch', 'advise', 'to_device', 'to_host', "
          "'synchronize', 'record', 'wait_event'; did you mean 'record'?");
}

TEST_CASE("fill on a stream: the cuMemsetD8/D16/D32Async that repeats the value", "[workload]") {
  CHECK(memset_element(0xab, 1)->bytes == 1);
  CHECK(memset_element(0x3c00, 2)->value == 0x3c00);  // f16 1.0
  CHECK(memset_element(0x3c00, 2)->bytes == 2);
  CHECK(memset_element(0x40000000, 4)->bytes == 4);
  CHECK(memset_element(0, 8)->bytes == 4);  // 0.0 and 0 repeat four zero bytes
  CHECK(memset_element(0x1234567812345678, 8)->value == 0x12345678);
  CHECK_FALSE(memset_element(0x3ff0000000000000, 8));  // f64 1.0
  TempFolder folder;
  nlohmann::json json = example_workload();
  json["buffers"]["d"] = {{"type", "f64"}, {"count", 8}};
  json["launches"].push_back({{"fill", {{"buffer", "d"}, {"value", 0.0}, {"stream", 1}}}});
  CHECK(load_gpu_workload(folder.write("f.json", json.dump())).steps[1].stream->literal == 1);
  json["launches"][1]["fill"]["value"] = 1.0;
  CHECK_THAT(load_error(json, folder),
             Catch::Contains("launches[1].fill.value: is an 8-byte value whose two halves "
                             "differ; a fill on a stream is cuMemsetD8/D16/D32Async"));
  json["launches"][1]["fill"].erase("stream");
  CHECK_FALSE(load_gpu_workload(folder.write("f.json", json.dump())).steps[1].stream);
}

TEST_CASE("non_blocking_streams: the stream numbers made non-blocking, checked by JSON path",
          "[workload]") {
  TempFolder folder;
  nlohmann::json json = example_workload();
  json["non_blocking_streams"] = {3, 1};
  CHECK(load_gpu_workload(folder.write("nb.json", json.dump())).non_blocking_streams ==
        std::set<uint32_t>{1, 3});
  const auto refused = [&folder](const nlohmann::json& streams, const char* expected) {
    nlohmann::json bad = example_workload();
    bad["non_blocking_streams"] = streams;
    CHECK_THAT(load_error(bad, folder), Catch::Contains(expected));
  };
  refused(nlohmann::json::array({0}),
          "non_blocking_streams[0]: expected one of the stream numbers 1 to 1023 (0 is the "
          "default stream), got 0");
  refused(nlohmann::json::array({1024}), "non_blocking_streams[0]: expected one of the");
  refused(nlohmann::json::array({"2"}), "non_blocking_streams[0]: expected one of the");
  refused(nlohmann::json::array({2, 2}), "non_blocking_streams[1]: stream 2 is listed twice");
  refused(2, "non_blocking_streams: expected an array of stream numbers");
}

TEST_CASE("stream_priorities: the streams' priorities, checked by JSON path", "[workload]") {
  TempFolder folder;
  nlohmann::json json = example_workload();
  json["stream_priorities"] = {{"3", -2}, {"1", 0}};
  CHECK(load_gpu_workload(folder.write("sp.json", json.dump())).stream_priorities ==
        std::map<uint32_t, int>{{1, 0}, {3, -2}});
  const auto refused = [&folder](const nlohmann::json& priorities, const char* expected) {
    nlohmann::json bad = example_workload();
    bad["stream_priorities"] = priorities;
    CHECK_THAT(load_error(bad, folder), Catch::Contains(expected));
  };
  refused({{"0", -1}},
          "stream_priorities.0: expected a stream number 1 to 1023 as the key (0, the default "
          "stream, has the least priority, 0)");
  refused({{"1024", -1}}, "stream_priorities.1024: expected a stream number 1 to 1023");
  refused({{"01", -1}}, "stream_priorities.01: expected a stream number");
  refused({{"s1", -1}}, "stream_priorities.s1: expected a stream number");
  refused({{"2", 1}},
          "stream_priorities.2: expected a stream priority: 0 (the least) or a negative integer "
          "(greater), got 1");
  refused({{"2", -1.5}}, "stream_priorities.2: expected a stream priority");
  refused({{"2", "high"}}, "stream_priorities.2: expected a stream priority");
  refused({{"2", -3000000000LL}}, "stream_priorities.2: expected a stream priority");
  refused({{"2", 18446744073709551615ULL}},
          "stream_priorities.2: expected a stream priority: 0 (the least) or a negative integer "
          "(greater), got 18446744073709551615");
  refused(nlohmann::json::array({-1}),
          "stream_priorities: expected an object from stream numbers to priorities");
  // A launch's own priority.
  json = example_workload();
  json["launches"][0]["priority"] = -2;
  CHECK(load_gpu_workload(folder.write("lp.json", json.dump())).steps[0].launch.priority == -2);
  json["launches"][0]["priority"] = 1;
  CHECK_THAT(load_error(json, folder),
             Catch::Contains("launches[0].priority: expected a stream priority: 0 (the least) or "
                             "a negative integer (greater), got 1"));
}
