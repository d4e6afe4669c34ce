#pragma once

// The tensor-core latency microbenchmark of the tensor timing benches (one executable per GPU
// preset): a chain of dependent matrix multiplies between two %clock reads, as Raihan et al.
// 2019 time wmma.mma.

#include <filesystem>
#include <stdexcept>
#include <string>

#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"
#include "modules/gpu/gpu_config.h"
#include "tests/bench/gpu_bench.h"

namespace ohmvp::bench {

// configs/gpu/<name>.json with one SM.
inline gpu::GpuConfig one_sm_preset(const std::string& name) {
  const std::filesystem::path configs = std::filesystem::path(OHMVP_SOURCE_DIR) / "configs";
  const ConfigDocument document =
      ConfigDocument::load(configs / "gpu" / (name + ".json"), {configs});
  const ConfigReader root(document.json(), "", &document);
  gpu::GpuConfig config = gpu::parse_gpu_config(root.child("gpu"));
  config.sm_count = 1;
  return config;
}

// mma_f32: mma.sync.m16n8k8 (sm_75); volta_mma_f32 / _f16: mma.sync.m8n8k4 (sm_70); wmma_s4:
// the 4-bit mode's wmma.mma.m8n8k32 (sm_75).
enum class TensorOp { wmma_f32, wmma_f16, wmma_s8, wmma_s4, mma_f32, volta_mma_f32, volta_mma_f16 };

inline std::string registers(const char* prefix, int first, int count) {
  std::string text = "{";
  for (int i = 0; i < count; ++i)
    text += (i ? ", %" : "%") + std::string(prefix) + std::to_string(first + i);
  return text + "}";
}

// Kernel `lat(in, out)`: loads A and B from `in` (zeros), waits for both, reads %clock, runs
// `chain` matrix multiplies each accumulating into the previous one's D (or, `independent`,
// two of them into different accumulators), reads %clock after a use of the (first) result,
// and stores the interval at `out`. The interval is chain x latency + 2: the clock read issues
// one cycle after the wait, the first multiply one after it, the use when the last result is
// written, the second clock read one after the use.
inline std::string latency_ptx(TensorOp op, int chain, bool independent = false) {
  const bool four_bit = op == TensorOp::wmma_s4;
  const bool integer = op == TensorOp::wmma_s8 || four_bit;
  const bool mma = op == TensorOp::mma_f32;
  const bool volta_mma = op == TensorOp::volta_mma_f32 || op == TensorOp::volta_mma_f16;
  const bool f16 = op == TensorOp::wmma_f16 || op == TensorOp::volta_mma_f16;
  std::string a = four_bit                      ? registers("r", 1, 1)
                  : integer || mma || volta_mma ? registers("r", 1, 2)
                                                : registers("r", 1, 8);
  std::string b = integer || volta_mma ? registers("r", 11, four_bit ? 1 : 2)
                  : mma                ? registers("r", 11, 1)
                                       : registers("r", 11, 8);
  const int c_count = four_bit ? 2 : mma || f16 ? 4 : 8;
  const char* c_prefix = integer || f16 ? "r" : "f";
  std::string ptx =
      ".version 7.0\n.target sm_75\n.address_size 64\n"
      ".visible .entry lat(.param .u64 in, .param .u64 out)\n{\n"
      "  .reg .b32 %r<60>;\n  .reg .f32 %f<60>;\n  .reg .b64 %rd<4>;\n"
      "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n";
  if (mma || volta_mma) {
    ptx +=
        "  ld.global.u32 %r1, [%rd1];\n  ld.global.u32 %r2, [%rd1+4];\n"
        "  ld.global.u32 %r11, [%rd1+8];\n";
  } else {
    const std::string type = four_bit ? "s4" : integer ? "s8" : "f16";
    const std::string shape = four_bit ? "m8n8k32" : "m16n16k16";
    ptx += "  wmma.load.a.sync.aligned.row." + shape + ".global." + type + " " + a + ", [%rd1];\n";
    ptx += "  wmma.load.b.sync.aligned.col." + shape + ".global." + type + " " + b + ", [%rd1];\n";
  }
  for (int i = 0; i < 2 * c_count; ++i)
    ptx += std::string("  mov.b32 %") + c_prefix + std::to_string(21 + i) + ", 0;\n";
  // The wait and the use go to the FP32 pipe, so the clock reads after them (integer pipe,
  // which takes an instruction every 2 cycles) issue the next cycle.
  ptx += "  fma.rn.f32 %f50, %r1, %r2, %r11;\n  mov.u32 %r51, %clock;\n";
  const std::string c = registers(c_prefix, 21, c_count);
  const std::string c2 = registers(c_prefix, 21 + c_count, c_count);
  const std::string name =
      op == TensorOp::mma_f32         ? "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"
      : op == TensorOp::volta_mma_f32 ? "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32"
      : op == TensorOp::volta_mma_f16 ? "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16"
      : four_bit                      ? "wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32"
      : integer                       ? "wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32"
      : f16                           ? "wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16"
                                      : "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32";
  for (int i = 0; i < chain; ++i) {
    const std::string& d = independent && i % 2 == 1 ? c2 : c;
    ptx += "  " + name + " " + d + ", " + a + ", " + b + ", " + d + ";\n";
  }
  if (!independent) ptx += std::string("  add.f32 %f51, %") + c_prefix + "21, 0f00000000;\n";
  ptx +=
      "  mov.u32 %r53, %clock;\n  sub.s32 %r54, %r53, %r51;\n"
      "  st.global.u32 [%rd2], %r54;\n  exit;\n}\n";
  return ptx;
}

// Kernel `lat(in, out)`: reads %clock, loads a row-major A fragment (f16 m16n16k16, or with
// `four_bit` s4 m8n8k32) from a shared tile whose rows are `stride` elements apart, uses it,
// reads %clock again and stores the interval at `out`: 1 + the load's latency (ldst + bank
// passes - 1 + shared-memory latency) + 1. The add before the first clock read waits for the
// tile address, so the load issues right after it.
inline std::string shared_load_ptx(int stride, bool four_bit = false) {
  return ".version 7.0\n.target sm_75\n.address_size 64\n"
         ".visible .entry lat(.param .u64 in, .param .u64 out)\n{\n"
         "  .reg .b32 %r<20>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<4>;\n"
         "  .shared .align 32 .b8 tile[1024];\n"
         "  ld.param.u64 %rd2, [out];\n  mov.u32 %r10, tile;\n  add.s32 %r11, %r10, 0;\n"
         "  mov.u32 %r12, %clock;\n"
         "  wmma.load.a.sync.aligned.row." +
         (four_bit ? "m8n8k32.shared.s4 " + registers("r", 1, 1)
                   : "m16n16k16.shared.f16 " + registers("r", 1, 8)) +
         ", [%r10], " + std::to_string(stride) +
         ";\n"
         "  add.f32 %f1, %r1, %r8;\n  mov.u32 %r13, %clock;\n  sub.s32 %r14, %r13, %r12;\n"
         "  st.global.u32 [%rd2], %r14;\n  exit;\n}\n";
}

// Runs `ptx` (a kernel `lat(in, out)`) on `bench` and returns the interval it stores; throws
// (failing the test with the fault's text) when the launch faults.
inline uint32_t run_interval(GpuBench& bench, const std::string& ptx) {
  constexpr uint64_t in = 0x10000, out = 0x20000;
  const gpu::Module module = gpu::parse_ptx(ptx, "lat.ptx");
  const gpu::LaunchResult r = bench.run(module, "lat", {1, 1, 1}, {32, 1, 1}, {in, out});
  if (r.faulted) throw std::runtime_error(r.fault);
  return bench.read<uint32_t>(out, 1)[0];
}

// run_interval of latency_ptx.
inline uint32_t measure_latency(GpuBench& bench, TensorOp op, int chain, bool independent = false) {
  return run_interval(bench, latency_ptx(op, chain, independent));
}

}  // namespace ohmvp::bench
