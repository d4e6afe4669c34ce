#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "modules/common/errors.h"
#include "modules/host/functional_workload_executor.h"
#include "modules/host/gpu_workload.h"
#include "tests/unit/gpu_workload_fixture.h"

using namespace ohmvp;
using ohmvp::test::TempFolder;

namespace {

// tests/data/ptx/symbols.cu over 64 inputs 0, 1, 2, ...: its filter, offsets and counter
// bound to buffers; `filter_init` the filter buffer's init, none to keep the variable's.
nlohmann::json symbols_workload(const nlohmann::json& filter_init) {
  nlohmann::json filter = {{"type", "f32"}, {"count", 5}, {"symbol", "filter"}};
  if (!filter_init.is_null()) filter["init"] = filter_init;
  return {{"ptx", std::string(OHMVP_SOURCE_DIR) + "/tests/data/ptx/symbols.ptx"},
          {"buffers",
           {{"in", {{"type", "f32"}, {"count", 64}, {"init", {{"sequence", {{"start", 0}}}}}}},
            {"out", {{"type", "f32"}, {"count", 64}}},
            {"filter", filter},
            {"offsets",
             {{"type", "s32"},
              {"count", 4},
              {"symbol", "offsets"},
              {"init", {{"sequence", {{"start", 100}, {"step", 10}}}}}}},
            {"calls", {{"type", "u32"}, {"count", 1}, {"symbol", "calls"}}}}},
          {"launches",
           {{{"kernel", "convolve"},
             {"grid", {2}},
             {"block", {32}},
             {"args", {{{"buffer", "in"}}, {{"buffer", "out"}}, {{"s32", 64}}}}}}},
          {"outputs", {"out", "calls", "filter"}}};
}

template <class T>
std::vector<T> values(const std::vector<uint8_t>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

}  // namespace

TEST_CASE("workload symbols: buffers bound to __constant__ and __device__ variables",
          "[workload]") {
  TempFolder folder;
  SECTION("the variables' own initial values when the buffer has no init") {
    const GpuWorkload w =
        load_gpu_workload(folder.write("w.json", symbols_workload(nullptr).dump()));
    const FunctionalRun run = run_workload_functionally(w, 32);
    const std::vector<float> out = values<float>(run.outputs.at("out"));
    CHECK(out[10] == 8 + 9 + 10 + 11 + 12 + 120.0f);  // filter of ones, offsets[2]
    CHECK(out[0] == 0 + 1 + 2 + 100.0f);
    CHECK(values<uint32_t>(run.outputs.at("calls")) == std::vector<uint32_t>{64});
    CHECK(values<float>(run.outputs.at("filter")) == std::vector<float>(5, 1.0f));
  }
  SECTION("an init replaces the __constant__ bytes the launches read, as cudaMemcpyToSymbol") {
    const GpuWorkload w =
        load_gpu_workload(folder.write("w.json", symbols_workload({{"value", 0.5}}).dump()));
    const std::vector<float> out =
        values<float>(run_workload_functionally(w, 32).outputs.at("out"));
    CHECK(out[10] == 0.5f * (8 + 9 + 10 + 11 + 12) + 120.0f);
  }
}

TEST_CASE("workload symbols: a variable the module lacks or too small is a clear error",
          "[workload]") {
  TempFolder folder;
  nlohmann::json json = symbols_workload(nullptr);
  json["buffers"]["filter"]["symbol"] = "filtre";
  GpuWorkload w = load_gpu_workload(folder.write("w.json", json.dump()));
  CHECK_THROWS_WITH(run_workload_functionally(w, 32),
                    Catch::Contains("w.json: buffers.filter.symbol: ") &&
                        Catch::Contains("symbols.ptx has no module-scope .global or .const "
                                        "variable 'filtre'"));
  json = symbols_workload(nullptr);
  json["buffers"]["filter"]["count"] = 6;
  w = load_gpu_workload(folder.write("w.json", json.dump()));
  CHECK_THROWS_WITH(run_workload_functionally(w, 32),
                    Catch::Contains("buffers.filter.symbol: the buffer's 24 bytes do not fit in "
                                    "'filter' (20 bytes)"));
  json = symbols_workload(nullptr);
  json["buffers"]["filter"]["symbol"] = "";
  CHECK_THROWS_WITH(load_gpu_workload(folder.write("w.json", json.dump())),
                    Catch::Contains("buffers.filter.symbol: expected the name of a module-scope "
                                    "__device__ or __constant__ variable"));
}

TEST_CASE("workload symbols: a copy on a stream between two buffers of one variable is refused",
          "[workload]") {
  TempFolder folder;
  nlohmann::json json = symbols_workload(nullptr);
  json["buffers"]["filter2"] = {{"type", "f32"}, {"count", 5}, {"symbol", "filter"}};
  json["launches"] = {{{"copy", {{"from", "filter"}, {"to", "filter2"}, {"stream", 1}}}}};
  CHECK_THROWS_WITH(load_gpu_workload(folder.write("w.json", json.dump())),
                    Catch::Contains("w.json: launches[0].copy.to: 'filter2' and 'filter' are both "
                                    "the variable 'filter'; an asynchronous copy's source and "
                                    "destination may not overlap"));
  json["launches"][0]["copy"].erase("stream");  // a synchronous copy may
  CHECK_NOTHROW(load_gpu_workload(folder.write("w.json", json.dump())));
}
