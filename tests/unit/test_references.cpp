#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <numeric>
#include <queue>

#include "modules/common/errors.h"
#include "modules/common/json_file.h"
#include "modules/host/gpu_workload.h"
#include "modules/host/half_float.h"
#include "testbenches/references/reference.h"
#include "tests/unit/gpu_workload_fixture.h"

using namespace ohmvp;
using namespace ohmvp::reference;
using ohmvp::test::TempFolder;
namespace fs = std::filesystem;

namespace {

template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <class T>
std::vector<T> values_of(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// A tiny workload named `name` (so it finds that reference) over `ptx`, run by the reference.
struct Tiny {
  Tiny(const std::string& name, const std::string& ptx) {
    json["ptx"] = (test::kernels_dir() / ptx).string();
    json["buffers"] = nlohmann::json::object();
    json["launches"] = nlohmann::json::array();
    json["outputs"] = nlohmann::json::array();
    file = fs::path("/tiny") / (name + ".json");
  }

  template <class T>
  Tiny& buffer(const std::string& name, const char* type, const std::vector<T>& values) {
    json["buffers"][name] = {{"type", type}, {"count", values.size()}};
    initial[name] = bytes_of(values);
    if (json["outputs"].empty()) json["outputs"].push_back(name);
    return *this;
  }

  Tiny& step(const std::string& text) {
    json["launches"].push_back(nlohmann::json::parse(text));
    return *this;
  }

  BufferBytes run() {
    workload = parse_gpu_workload(json, file);
    const Reference* reference = find_reference(workload.name);
    REQUIRE(reference != nullptr);
    return compute_expected(*reference, workload, initial);
  }

  nlohmann::json json;
  fs::path file;
  BufferBytes initial;
  GpuWorkload workload;
};

}  // namespace

TEST_CASE("vecadd and saxpy references", "[reference]") {
  Tiny vecadd("vecadd", "vecadd.ptx");
  vecadd.buffer<float>("a", "f32", {1, 2, 3, 4}).buffer<float>("b", "f32", {10, 20, 30, 40});
  vecadd.buffer<float>("c", "f32", {99, 99, 99, 99});
  vecadd.step(R"({"kernel": "vecadd", "grid": [1], "block": [8],
                  "args": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"}, {"u32": 3}]})");
  CHECK(values_of<float>(vecadd.run().at("c")) == std::vector<float>{11, 22, 33, 99});

  // Two threads over five elements (grid-stride), and one fused rounding: with a = x = 1 + 2^-12
  // and y = -(1 + 2^-11), fma gives 2^-24 where a separate multiply and add would give 0.
  Tiny saxpy("saxpy", "saxpy.ptx");
  const float a = 1.0f + 0x1.0p-12f;
  saxpy.buffer<float>("x", "f32", {1, 2, 3, 4, a})
      .buffer<float>("y", "f32", {1, 1, 1, 1, -(1.0f + 0x1.0p-11f)});
  saxpy.step(R"({"kernel": "saxpy", "grid": [1], "block": [2],
                 "args": [{"u32": 5}, {"f32": 1.000244140625}, {"buffer": "x"}, {"buffer": "y"}]})");
  const std::vector<float> y = values_of<float>(saxpy.run().at("y"));
  CHECK(y[0] == std::fma(a, 1.0f, 1.0f));
  CHECK(y[4] == 0x1.0p-24f);
}

TEST_CASE("reduction references: shared tree, shuffle, atomic", "[reference]") {
  std::vector<float> in(64);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i + 1);
  Tiny t("reduction", "reduction.ptx");
  t.buffer<float>("partial", "f32", {0, 0}).buffer<float>("in", "f32", in);
  t.buffer<float>("shuffled", "f32", {0}).buffer<float>("total", "f32", {0.5f});
  t.step(R"({"kernel": "reduce_shared", "grid": [2], "block": [4], "shared_bytes": 16,
             "args": [{"buffer": "in"}, {"buffer": "partial"}, {"u32": 16}]})");
  t.step(R"({"kernel": "reduce_shuffle", "grid": [1], "block": [32], "shared_bytes": 128,
             "args": [{"buffer": "in"}, {"buffer": "shuffled"}, {"u32": 64}]})");
  t.step(R"({"kernel": "reduce_atomic", "grid": [2], "block": [4], "shared_bytes": 16,
             "args": [{"buffer": "in"}, {"buffer": "total"}, {"u32": 16}]})");
  const BufferBytes out = t.run();
  CHECK(values_of<float>(out.at("partial")) == std::vector<float>{36, 100});  // 1..8, 9..16
  CHECK(values_of<float>(out.at("shuffled")) == std::vector<float>{2080});    // 1..64
  CHECK(values_of<float>(out.at("total")) == std::vector<float>{136.5f});

  Tiny bad("reduction", "reduction.ptx");
  bad.buffer<float>("in", "f32", in).buffer<float>("partial", "f32", {0});
  bad.step(R"({"kernel": "reduce_shared", "grid": [1], "block": [4], "shared_bytes": 4,
               "args": [{"buffer": "in"}, {"buffer": "partial"}, {"u32": 8}]})");
  CHECK_THROWS_WITH(bad.run(), Catch::Contains("dynamic shared memory"));
}

TEST_CASE("matmul and transpose references", "[reference]") {
  Tiny m("matmul", "matmul.ptx");
  m.buffer<float>("c", "f32", {0, 0, 0, 0}).buffer<float>("a", "f32", {1, 2, 3, 4, 5, 6});
  m.buffer<float>("b", "f32", {7, 8, 9, 10, 11, 12});
  m.step(R"({"kernel": "matmul_tiled", "grid": [1], "block": [16, 16], "args": [
             {"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"},
             {"struct": [{"s32": 2}, {"s32": 3}, {"s32": 2}]}]})");
  CHECK(values_of<float>(m.run().at("c")) == std::vector<float>{58, 64, 139, 154});

  Tiny t("transpose", "transpose.ptx");
  t.buffer<float>("out", "f32", {0, 0, 0, 0, 0, 0}).buffer<float>("in", "f32", {0, 1, 2, 3, 4, 5});
  t.step(R"({"kernel": "transpose_tiled", "grid": [1], "block": [32, 8], "args": [
             {"buffer": "out"}, {"buffer": "in"}, {"s32": 3}, {"s32": 2}]})");
  CHECK(values_of<float>(t.run().at("out")) == std::vector<float>{0, 3, 1, 4, 2, 5});
}

TEST_CASE("histogram and min/max references", "[reference]") {
  Tiny h("histogram", "histogram.ptx");
  h.buffer<uint32_t>("bins", "u32", {0, 0, 0, 0})
      .buffer<uint32_t>("values", "u32", {0, 5, 6, 7, 9});
  h.buffer<uint8_t>("bytes", "u8", {3, 3, 255})
      .buffer<uint32_t>("byte_bins", "u32", std::vector<uint32_t>(256));
  h.buffer<uint32_t>("minimum", "u32", {0xFFFFFFFFu}).buffer<uint32_t>("maximum", "u32", {0});
  h.step(R"({"kernel": "histogram_global", "grid": [1], "block": [2], "args": [
             {"buffer": "values"}, {"buffer": "bins"}, {"u32": 5}, {"u32": 4}]})");
  h.step(R"({"kernel": "histogram_shared", "grid": [2], "block": [1], "args": [
             {"buffer": "bytes"}, {"buffer": "byte_bins"}, {"u32": 3}]})");
  h.step(R"({"kernel": "minmax_atomic", "grid": [1], "block": [8], "args": [
             {"buffer": "values"}, {"buffer": "minimum"}, {"buffer": "maximum"}, {"u32": 5}]})");
  const BufferBytes out = h.run();
  CHECK(values_of<uint32_t>(out.at("bins")) == std::vector<uint32_t>{1, 2, 1, 1});
  const std::vector<uint32_t> byte_bins = values_of<uint32_t>(out.at("byte_bins"));
  CHECK(byte_bins[3] == 2);
  CHECK(byte_bins[255] == 1);
  CHECK(values_of<uint32_t>(out.at("minimum"))[0] == 0);
  CHECK(values_of<uint32_t>(out.at("maximum"))[0] == 9);
}

TEST_CASE("scan reference: Blelloch blocks, scanned block sums, offsets", "[reference]") {
  Tiny s("scan", "scan.ptx");
  s.buffer<int32_t>("out", "s32", std::vector<int32_t>(8))
      .buffer<int32_t>("in", "s32", {3, 1, 7, 0, 4, 1, 6, 3});
  s.buffer<int32_t>("sums", "s32", {0, 0}).buffer<int32_t>("scanned", "s32", {0, 0});
  s.step(R"({"kernel": "scan_blocks", "grid": [2], "block": [2], "shared_bytes": 16, "args": [
             {"buffer": "in"}, {"buffer": "out"}, {"buffer": "sums"}, {"u32": 8}]})");
  s.step(R"({"kernel": "scan_blocks", "grid": [1], "block": [1], "shared_bytes": 8, "args": [
             {"buffer": "sums"}, {"buffer": "scanned"}, {"u64": 0}, {"u32": 2}]})");
  s.step(R"({"kernel": "add_block_offsets", "grid": [2], "block": [2], "args": [
             {"buffer": "out"}, {"buffer": "scanned"}, {"u32": 8}]})");
  const BufferBytes out = s.run();
  CHECK(values_of<int32_t>(out.at("sums")) == std::vector<int32_t>{11, 14});
  CHECK(values_of<int32_t>(out.at("scanned")) == std::vector<int32_t>{0, 11});
  CHECK(values_of<int32_t>(out.at("out")) == std::vector<int32_t>{0, 3, 4, 11, 11, 15, 16, 22});
}

TEST_CASE("spmv reference reads x through the texture", "[reference]") {
  Tiny s("spmv", "spmv.ptx");
  s.buffer<float>("y", "f32", {0, 0}).buffer<int32_t>("offsets", "s32", {0, 2, 3});
  s.buffer<int32_t>("columns", "s32", {0, 2, 1}).buffer<float>("values", "f32", {1, 2, 3});
  s.buffer<float>("x", "f32", {1, 2, 3});
  s.step(R"({"kernel": "spmv_csr_scalar", "grid": [1], "block": [32], "args": [
             {"s32": 2}, {"buffer": "offsets"}, {"buffer": "columns"}, {"buffer": "values"},
             {"texture": {"buffer": "x", "width": 3}}, {"buffer": "y"}]})");
  CHECK(values_of<float>(s.run().at("y")) == std::vector<float>{7, 6});
}

TEST_CASE("bfs reference with the host's until-zero loop", "[reference]") {
  // 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3; node 4 is unreachable.
  Tiny b("bfs", "bfs.ptx");
  b.buffer<int32_t>("cost", "s32", std::vector<int32_t>(5));
  b.buffer<int32_t>("offsets", "s32", {0, 2, 3, 4, 4, 4})
      .buffer<int32_t>("columns", "s32", {1, 2, 3, 3});
  for (const char* flags : {"frontier", "updating", "visited"})
    b.buffer<uint8_t>(flags, "u8", std::vector<uint8_t>(5));
  b.buffer<uint32_t>("changed", "u32", {0});
  const std::string n = R"({"s32": 5})";
  b.step(R"({"kernel": "bfs_init", "grid": [2], "block": [4], "args": [{"buffer": "frontier"},
             {"buffer": "updating"}, {"buffer": "visited"}, {"buffer": "cost"}, {"s32": 5}, {"s32": 0}]})");
  b.step(R"({"repeat_until_zero": {"buffer": "changed", "max_iterations": 3, "steps": [
             {"fill": {"buffer": "changed", "value": 0}},
             {"kernel": "bfs_expand", "grid": [1], "block": [8], "args": [{"buffer": "offsets"},
              {"buffer": "columns"}, {"buffer": "frontier"}, {"buffer": "updating"},
              {"buffer": "visited"}, {"buffer": "cost"}, {"s32": 5}]},
             {"kernel": "bfs_advance", "grid": [1], "block": [8], "args": [{"buffer": "frontier"},
              {"buffer": "updating"}, {"buffer": "visited"}, {"buffer": "changed"}, {"s32": 5}]}]}})");
  const BufferBytes out = b.run();
  CHECK(values_of<int32_t>(out.at("cost")) == std::vector<int32_t>{0, 1, 1, 2, -1});
  CHECK(values_of<uint8_t>(out.at("visited")) == std::vector<uint8_t>{1, 1, 1, 1, 0});
}

TEST_CASE("pagerank reference: out-degrees by atomics, one pull iteration", "[reference]") {
  // Edges 0->1, 0->2, 1->2, 2->0, stored as in-edges: 0 <- 2; 1 <- 0; 2 <- 0, 1.
  Tiny p("pagerank", "pagerank.ptx");
  p.buffer<float>("next", "f32", {0, 0, 0}).buffer<int32_t>("offsets", "s32", {0, 1, 2, 4});
  p.buffer<int32_t>("columns", "s32", {2, 0, 0, 1}).buffer<int32_t>("degree", "s32", {0, 0, 0});
  p.buffer<float>("rank", "f32", {0.25f, 0.25f, 0.5f});
  p.step(R"({"kernel": "pagerank_out_degree", "grid": [1], "block": [2], "args": [
             {"buffer": "columns"}, {"buffer": "degree"}, {"s32": {"count_of": "columns"}}]})");
  p.step(R"({"kernel": "pagerank_pull", "grid": [1], "block": [4], "args": [
             {"buffer": "offsets"}, {"buffer": "columns"}, {"buffer": "degree"}, {"buffer": "rank"},
             {"buffer": "next"}, {"s32": 3}, {"f32": 0.5}, {"f32": 0.125}]})");
  const BufferBytes out = p.run();
  CHECK(values_of<int32_t>(out.at("degree")) == std::vector<int32_t>{2, 1, 1});
  CHECK(values_of<float>(out.at("next")) == std::vector<float>{0.375f, 0.1875f, 0.3125f});
}

TEST_CASE("fdtd2d reference: one time step on a 2x2 grid", "[reference]") {
  Tiny f("fdtd2d", "fdtd2d.ptx");
  f.buffer<float>("hz", "f32", {1, 2, 3, 5}).buffer<float>("ex", "f32", {0, 0, 0, 0});
  f.buffer<float>("ey", "f32", {0, 0, 0, 0}).buffer<float>("fict", "f32", {4});
  f.step(R"({"repeat": {"count": 1, "index": "t", "steps": [
    {"kernel": "fdtd_step1", "grid": [1], "block": [2, 2], "args": [{"buffer": "fict"}, {"buffer": "ex"},
     {"buffer": "ey"}, {"buffer": "hz"}, {"s32": {"loop_index": "t"}}, {"s32": 2}, {"s32": 2}]},
    {"kernel": "fdtd_step2", "grid": [1], "block": [2, 2], "args": [{"buffer": "ex"}, {"buffer": "ey"},
     {"buffer": "hz"}, {"s32": 2}, {"s32": 2}]},
    {"kernel": "fdtd_step3", "grid": [1], "block": [2, 2], "args": [{"buffer": "ex"}, {"buffer": "ey"},
     {"buffer": "hz"}, {"s32": 2}, {"s32": 2}]}]}})");
  const BufferBytes out = f.run();
  CHECK(values_of<float>(out.at("ey")) == std::vector<float>{4, 4, -1, -1.5f});
  CHECK(values_of<float>(out.at("ex")) == std::vector<float>{0, -0.5f, 0, -1});
  const std::vector<float> hz = values_of<float>(out.at("hz"));
  // hz[0][0] = 1 - 0.7 * ((ex01 - ex00) + ey10 - ey00) = 1 - 0.7 * (-5.5), one rounding.
  CHECK(hz[0] == std::fma(-5.5f, -0.7f, 1.0f));
  CHECK(hz[0] == Approx(4.85));
  CHECK(hz[1] == 2);
  CHECK(hz[3] == 5);
}

TEST_CASE("backprop reference: per-block tree over 16 inputs", "[reference]") {
  std::vector<float> input(17);
  for (int i = 1; i <= 16; ++i) input[i] = static_cast<float>(i);
  Tiny b("backprop", "backprop.ptx");
  b.buffer<float>("partial", "f32", std::vector<float>(16)).buffer<float>("input", "f32", input);
  b.buffer<float>("weights", "f32", std::vector<float>(17 * 17, 1.0f));
  b.step(R"({"kernel": "layer_forward", "grid": [1, 1], "block": [16, 16], "args": [
             {"buffer": "input"}, {"buffer": "weights"}, {"buffer": "partial"}, {"s32": 16}]})");
  const BufferBytes out = b.run();
  CHECK(values_of<float>(out.at("partial")) == std::vector<float>(16, 136.0f));  // 1 + ... + 16
  const std::vector<float> w = values_of<float>(out.at("weights"));
  CHECK(w[0] == 1);             // bias row and column untouched
  CHECK(w[17 * 1 + 1] == 136);  // ty = 0: the whole column
  CHECK(w[17 * 2 + 5] == 2);    // ty = 1 (odd): its own product
  CHECK(w[17 * 9 + 3] == 100);  // ty = 8: inputs 9..16
}

TEST_CASE("lu reference on a 2x2 matrix", "[reference]") {
  Tiny l("lu", "lu.ptx");
  l.buffer<double>("a", "f64", {4, 3, 6, 3});
  l.step(R"({"repeat": {"count": 2, "index": "k", "steps": [
    {"kernel": "lu_scale", "grid": [1], "block": [2], "args": [{"buffer": "a"}, {"s32": {"loop_index": "k"}}, {"s32": 2}]},
    {"kernel": "lu_update", "grid": [1], "block": [2, 2], "args": [{"buffer": "a"}, {"s32": {"loop_index": "k"}}, {"s32": 2}]}]}})");
  CHECK(values_of<double>(l.run().at("a")) == std::vector<double>{4, 0.75, 6, -1.5});
}

TEST_CASE("blur_tex2d reference: clamped point sampling, half output", "[reference]") {
  Tiny b("blur_tex2d", "blur_tex2d.ptx");
  b.buffer<uint16_t>("out", "f16", {0, 0, 0, 0}).buffer<float>("image", "f32", {1, 2, 3, 4});
  b.step(R"({"kernel": "blur_tex2d", "grid": [1], "block": [4, 4], "args": [
             {"texture": {"buffer": "image", "width": 2, "height": 2}}, {"buffer": "out"}, {"s32": 2}, {"s32": 2}]})");
  const std::vector<uint16_t> out = values_of<uint16_t>(b.run().at("out"));
  CHECK(out[0] == 0x3D80);  // (1 + 2 + 1 + 3 + 4 * 1) / 8 = 1.375
  CHECK(out[3] == 0x4340);  // (3 + 4 + 2 + 4 + 4 * 4) / 8 = 3.625
  CHECK(out[1] == 0x4040);  // (1 + 2 + 2 + 4 + 4 * 2) / 8 = 2.125
}

TEST_CASE("divergence microkernel references", "[reference]") {
  auto run = [](const char* workload, const char* kernel, std::vector<int32_t> in,
                const std::string& extra) {
    Tiny t(workload, "divergence.ptx");
    t.buffer<int32_t>("out", "s32", std::vector<int32_t>(in.size()))
        .buffer<int32_t>("in", "s32", in);
    t.step(std::string(R"({"kernel": ")") + kernel + R"(", "grid": [1], "block": [)" +
           std::to_string(in.size()) +
           R"(], "args": [{"buffer": "in"}, {"buffer": "out"}, {"s32": )" +
           std::to_string(in.size()) + "}" + extra + "]}");
    return values_of<int32_t>(t.run().at("out"));
  };
  const std::vector<int32_t> in = {5, -3, 6, 7};
  CHECK(run("divergence_uniform", "div_uniform", in, "") == std::vector<int32_t>{22, -2, 25, 28});
  CHECK(run("divergence_parity", "div_parity", in, "")[0] == 55);
  CHECK(run("divergence_parity", "div_parity", in, "")[1] == -1837);
  CHECK(run("divergence_loop", "div_loop", in, "") == std::vector<int32_t>{5, 0, 8, 16});
  CHECK(run("divergence_nested", "div_nested", in, "") == std::vector<int32_t>{5, 9, 8, 10});
  const std::vector<int32_t> lanes =
      run("divergence_nested", "div_nested", std::vector<int32_t>(32, 10), "");
  CHECK(lanes[15] == 25);
  CHECK(lanes[16] == 40);
  CHECK(lanes[31] == -90);
  CHECK(run("divergence_early_return", "div_early_return", in, R"(, {"s32": 6})") ==
        std::vector<int32_t>{0, 0, 10, 11});
}

TEST_CASE("a launch of a kernel the reference does not know is an error", "[reference]") {
  Tiny t("vecadd", "vecadd.ptx");
  t.buffer<float>("a", "f32", {1});
  t.step(R"({"kernel": "vecsub", "grid": [1], "block": [1], "args": []})");
  CHECK_THROWS_WITH(t.run(), Catch::Contains("has no kernel 'vecsub'"));
  Tiny wrong_args("vecadd", "vecadd.ptx");
  wrong_args.buffer<float>("a", "f32", {1});
  wrong_args.step(R"({"kernel": "vecadd", "grid": [1], "block": [1], "args": [{"buffer": "a"}]})");
  CHECK_THROWS_WITH(wrong_args.run(), Catch::Contains("takes 4 arguments, the launch passes 1"));
  // Zero bins: a GPU's remainder by zero is the dividend, so the reference indexes past the bins
  // (where the host's % would have killed the process) and says so.
  Tiny zero_bins("histogram", "histogram.ptx");
  zero_bins.buffer<uint32_t>("bins", "u32", {0, 0, 0, 0})
      .buffer<uint32_t>("values", "u32", {0, 5, 6, 7, 9});
  zero_bins.step(R"({"kernel": "histogram_global", "grid": [1], "block": [2], "args": [
                    {"buffer": "values"}, {"buffer": "bins"}, {"u32": 5}, {"u32": 0}]})");
  CHECK_THROWS_WITH(zero_bins.run(), Catch::Contains("histogram_global buffer 'bins': index ") &&
                                         Catch::Contains("is outside its 4 elements"));
}

TEST_CASE("comparison names the first differing element and honours tolerances", "[reference]") {
  const Reference& vecadd = *find_reference("vecadd");
  const std::vector<uint8_t> expected = bytes_of<float>({1, 2, 3, 4});
  CHECK(compare_buffer(vecadd, "c", ElementType::f32, expected, expected).matches);
  // A relative tolerance bounds finite values: an expected infinity matches only itself.
  Reference loose;
  loose.tolerances.push_back({"c", 0, 1e-3, "test", ""});
  const float inf = std::numeric_limits<float>::infinity();
  const auto loose_match = [&loose](float expected_value, float got) {
    return compare_buffer(loose, "c", ElementType::f32, bytes_of<float>({expected_value}),
                          bytes_of<float>({got}))
        .matches;
  };
  CHECK(loose_match(inf, inf));
  CHECK_FALSE(loose_match(inf, 1.0f));
  CHECK_FALSE(loose_match(inf, -inf));
  CHECK_FALSE(loose_match(1.0f, inf));
  CHECK(loose_match(1000.0f, 1000.5f));
  const Comparison off =
      compare_buffer(vecadd, "c", ElementType::f32, expected, bytes_of<float>({1, 2.5f, 3, 5}));
  CHECK_FALSE(off.matches);
  CHECK(off.mismatches == 2);
  CHECK(off.message.find("output 'c': 2 of 4 elements differ; first at index 1: expected 2 "
                         "(0x40000000), got 2.5 (0x40200000)") != std::string::npos);
  const Comparison ints = compare_buffer(vecadd, "n", ElementType::s32, bytes_of<int32_t>({-1}),
                                         bytes_of<int32_t>({7}));
  CHECK(ints.message.find("expected -1, got 7") != std::string::npos);
  CHECK(compare_buffer(vecadd, "c", ElementType::f32, expected, bytes_of<float>({1}))
            .message.find("expected 16 bytes, got 4") != std::string::npos);
  // A NaN matches any NaN (the host's default NaN against the GPU's canonical one), and nothing
  // else.
  const std::vector<uint8_t> host_nan = bytes_of<uint64_t>({0xfff8000000000000ull});
  CHECK(compare_buffer(vecadd, "c", ElementType::f64, host_nan,
                       bytes_of<uint64_t>({0x7fffffffffffffffull}))
            .matches);
  CHECK(compare_buffer(vecadd, "c", ElementType::f32, bytes_of<uint32_t>({0xffc00000u}),
                       bytes_of<uint32_t>({0x7fffffffu}))
            .matches);
  CHECK_FALSE(compare_buffer(vecadd, "c", ElementType::f64, host_nan,
                             bytes_of<uint64_t>({0x7ff0000000000000ull}))  // +infinity
                  .matches);
  CHECK_FALSE(compare_buffer(vecadd, "n", ElementType::u32, bytes_of<uint32_t>({0xffc00000u}),
                             bytes_of<uint32_t>({0x7fffffffu}))
                  .matches);

  const Reference& reduction = *find_reference("reduction");
  const Tolerance* tolerance = reduction.tolerance_for("total_atomic");
  REQUIRE(tolerance);
  CHECK_FALSE(tolerance->why.empty());
  // 30 * 2^-24 per unit of the inputs' magnitude: 7.3e-3 for 4096, 60 for 2^25.
  CHECK(compare_buffer(reduction, "total_atomic", ElementType::f32, bytes_of<float>({10}),
                       bytes_of<float>({10.001f}), 4096)
            .matches);
  CHECK_FALSE(compare_buffer(reduction, "total_atomic", ElementType::f32, bytes_of<float>({10}),
                             bytes_of<float>({10.01f}), 4096)
                  .matches);
  CHECK(compare_buffer(reduction, "total_atomic", ElementType::f32, bytes_of<float>({1e7f}),
                       bytes_of<float>({1e7f + 32}), 0x1p25)
            .matches);
  CHECK_FALSE(compare_buffer(reduction, "total_atomic", ElementType::f32, bytes_of<float>({1e7f}),
                             bytes_of<float>({1e7f + 64}), 0x1p25)
                  .matches);
  // Exact outputs of the same reference get no slack.
  CHECK_FALSE(compare_buffer(reduction, "total", ElementType::f32, bytes_of<float>({10}),
                             bytes_of<float>({10.001f}))
                  .matches);
}

namespace {

// The shipped workloads, then the ones kept out of testbenches/workloads: large/ (too long for
// ctest) and tests/data/workloads (wmma_gemm_s8 and wmma_gemm_s4, which Volta platforms refuse).
std::filesystem::path workload_file(const std::string& name) {
  const std::filesystem::path shipped = test::workloads_dir() / (name + ".json");
  if (std::filesystem::exists(shipped)) return shipped;
  const std::filesystem::path large = test::workloads_dir() / "large" / (name + ".json");
  if (std::filesystem::exists(large)) return large;
  return std::filesystem::path(OHMVP_SOURCE_DIR) / "tests" / "data" / "workloads" /
         (name + ".json");
}

bool is_large(const std::string& name) {
  return std::filesystem::exists(test::workloads_dir() / "large" / (name + ".json"));
}

BufferBytes expected_for(const std::string& name, GpuWorkload& workload) {
  workload = load_gpu_workload(workload_file(name));
  return compute_expected(*find_reference(name), workload, initial_buffers(workload));
}

}  // namespace

TEST_CASE("every shipped workload's reference runs, deterministically, and matches itself",
          "[reference]") {
  for (const Reference& reference : all_references()) {
    INFO(reference.workload);
    if (is_large(reference.workload)) continue;  // its kernels are wmma_gemm's, checked there
    GpuWorkload workload;
    const BufferBytes first = expected_for(reference.workload, workload);
    const BufferBytes second = expected_for(reference.workload, workload);
    CHECK(compare_outputs(reference, workload, first, second).matches);
    CHECK_FALSE(compare_outputs(reference, workload, first, initial_buffers(workload)).matches);
    // One corrupted element of the first output is found and named.
    const std::string& output = workload.outputs.front();
    const BufferSpec& spec = *workload.find_buffer(output);
    const size_t size = element_size(spec.type);
    const uint64_t index = spec.count / 2;
    BufferBytes corrupted = first;
    corrupted.at(output)[index * size + size - 1] ^= 0x40;
    const Comparison found = compare_outputs(reference, workload, first, corrupted);
    CHECK_FALSE(found.matches);
    CHECK(found.mismatches == 1);
    CHECK(found.message.find("output '" + output + "': 1 of " + std::to_string(spec.count) +
                             " elements differ; first at index " + std::to_string(index)) !=
          std::string::npos);
  }
}

TEST_CASE("shipped references agree with independent computations", "[reference]") {
  GpuWorkload w;
  SECTION("bfs costs are breadth-first distances") {
    const BufferBytes out = expected_for("bfs", w);
    const auto offsets = values_of<int32_t>(out.at("row_offsets"));
    const auto columns = values_of<int32_t>(out.at("column_indices"));
    std::vector<int32_t> distance(2048, -1);
    std::queue<int32_t> queue;
    distance[0] = 0;
    queue.push(0);
    while (!queue.empty()) {
      const int32_t node = queue.front();
      queue.pop();
      for (int32_t e = offsets[node]; e < offsets[node + 1]; ++e)
        if (distance[columns[e]] < 0) {
          distance[columns[e]] = distance[node] + 1;
          queue.push(columns[e]);
        }
    }
    CHECK(values_of<int32_t>(out.at("cost")) == distance);
    CHECK(*std::max_element(distance.begin(), distance.end()) >= 4);
  }
  SECTION("scan is the exclusive prefix sum") {
    const BufferBytes out = expected_for("scan", w);
    const auto in = values_of<int32_t>(initial_buffers(w).at("in"));
    std::vector<int32_t> prefix(in.size());
    int32_t running = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      prefix[i] = running;
      running += in[i];
    }
    CHECK(values_of<int32_t>(out.at("out")) == prefix);
  }
  SECTION("histogram counts every value once") {
    const BufferBytes out = expected_for("histogram", w);
    const auto bins = values_of<uint32_t>(out.at("bins"));
    const auto byte_bins = values_of<uint32_t>(out.at("byte_bins"));
    CHECK(std::accumulate(bins.begin(), bins.end(), 0u) == 16384);
    CHECK(std::accumulate(byte_bins.begin(), byte_bins.end(), 0u) == 16384);
    const auto values = values_of<uint32_t>(initial_buffers(w).at("values"));
    CHECK(values_of<uint32_t>(out.at("minimum"))[0] ==
          *std::min_element(values.begin(), values.end()));
    CHECK(values_of<uint32_t>(out.at("maximum"))[0] ==
          *std::max_element(values.begin(), values.end()));
  }
  SECTION("matmul is close to a double-precision product") {
    const BufferBytes out = expected_for("matmul", w);
    const BufferBytes in = initial_buffers(w);
    const auto a = values_of<float>(in.at("a")), b = values_of<float>(in.at("b"));
    const auto c = values_of<float>(out.at("c"));
    for (int i = 0; i < 96; ++i)
      for (int j = 0; j < 80; ++j) {
        double sum = 0;
        for (int k = 0; k < 64; ++k) sum += double{a[i * 64 + k]} * b[k * 80 + j];
        REQUIRE(c[i * 80 + j] == Approx(sum).margin(1e-4));
      }
  }
  SECTION("transpose moves every element") {
    const BufferBytes out = expected_for("transpose", w);
    const auto t = values_of<float>(out.at("out"));
    for (int y = 0; y < 128; ++y)
      for (int x = 0; x < 192; ++x) REQUIRE(t[x * 128 + y] == static_cast<float>(y * 192 + x));
  }
  SECTION("pagerank keeps its mass near one") {
    const BufferBytes out = expected_for("pagerank", w);
    const auto rank = values_of<float>(out.at("rank"));
    const double total = std::accumulate(rank.begin(), rank.end(), 0.0);
    CHECK(total > 0.5);
    CHECK(total <= 1.0001);
  }
  SECTION("lu factors multiply back to the matrix") {
    const BufferBytes out = expected_for("lu", w);
    const auto a0 = values_of<double>(initial_buffers(w).at("a"));
    const auto lu = values_of<double>(out.at("a"));
    // This LU keeps L (with its diagonal) in the lower triangle and a unit-diagonal U above it.
    const int n = static_cast<int>(std::lround(std::sqrt(static_cast<double>(a0.size()))));
    REQUIRE(size_t(n) * size_t(n) == a0.size());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double sum = 0;
        for (int k = 0; k <= std::min(i, j); ++k)
          sum += lu[i * n + k] * (k == j ? 1.0 : lu[k * n + j]);
        REQUIRE(sum == Approx(a0[i * n + j]).epsilon(1e-9).margin(1e-9));
      }
  }
}
