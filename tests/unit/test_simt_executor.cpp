#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "modules/common/errors.h"
#include "modules/gpu/simt/functional_executor.h"
#include "tests/unit/executor_test_util.h"
#include "tests/unit/ptx_builder.h"
#include "tests/unit/ptx_test_util.h"

using namespace ptxb;
using namespace ohmvp::gpu::test;

namespace {

Instruction& with_space(Instruction& in, StateSpace space) {
  in.space = space;
  return in;
}

// %r(dst) = ctaid.x * ntid.x + tid.x, using registers dst..dst+2.
void global_index(FunctionBuilder& f, uint32_t dst) {
  f.emit(Opcode::mov, DataType::u32, {r(dst), special(SpecialRegister::tid)});
  f.emit(Opcode::mov, DataType::u32, {r(dst + 1), special(SpecialRegister::ctaid)});
  f.emit(Opcode::mov, DataType::u32, {r(dst + 2), special(SpecialRegister::ntid)});
  f.emit(Opcode::mad, DataType::s32, {r(dst), r(dst + 1), r(dst + 2), r(dst)}).mod.mul =
      MulMode::lo;
}

// out/in pointer + 4 * index -> reg
void element_address(FunctionBuilder& f, uint32_t dst, uint32_t pointer, uint32_t index) {
  f.emit(Opcode::mul, DataType::s32, {r(dst), r(index), imm(4)}).mod.mul = MulMode::wide;
  f.emit(Opcode::add, DataType::s64, {r(dst), r(pointer), r(dst)});
}

std::vector<float> read_floats(DeviceMemory& memory, uint64_t address, size_t count) {
  std::vector<float> values(count);
  REQUIRE(memory.read(address, values.data(), count * 4));
  return values;
}

}  // namespace

TEST_CASE("executor: vector add over a partial last CTA", "[simt]") {
  Module module;
  module.file = "vecadd.ptx";
  FunctionBuilder k(module, "vecadd", true, 20);
  const uint32_t a = k.param("a", 8), b = k.param("b", 8), c = k.param("c", 8), n = k.param("n", 4);
  global_index(k, 0);
  with_space(k.emit(Opcode::ld, DataType::u32, {r(4), at_symbol(n)}), StateSpace::param);
  Instruction& guard = k.emit(Opcode::setp, DataType::s32, {r(5), r(0), r(4)});
  guard.mod.compare = CompareOp::ge;
  const uint32_t branch = k.pc();
  k.branch(5, false, 0, 0);
  with_space(k.emit(Opcode::ld, DataType::u64, {r(6), at_symbol(a)}), StateSpace::param);
  with_space(k.emit(Opcode::ld, DataType::u64, {r(7), at_symbol(b)}), StateSpace::param);
  with_space(k.emit(Opcode::ld, DataType::u64, {r(8), at_symbol(c)}), StateSpace::param);
  element_address(k, 10, 6, 0);
  with_space(k.emit(Opcode::ld, DataType::f32, {r(11), at(10)}), StateSpace::global);
  element_address(k, 12, 7, 0);
  with_space(k.emit(Opcode::ld, DataType::f32, {r(13), at(12)}), StateSpace::global);
  k.emit(Opcode::add, DataType::f32, {r(14), r(11), r(13)}).mod.rounding = RoundingMode::rn;
  element_address(k, 15, 8, 0);
  with_space(k.emit(Opcode::st, DataType::f32, {at(15), r(14)}), StateSpace::global);
  const uint32_t end = k.pc();
  k.emit(Opcode::exit, DataType::none, {});
  k.patch_target(branch, end);
  k.patch_reconvergence(branch, end);

  const uint32_t warp_size = GENERATE(4u, 8u, 32u, 64u);
  const uint32_t count = 1000;
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, warp_size);
  const uint64_t da = memory.allocate(count * 4), db = memory.allocate(count * 4),
                 dc = memory.allocate(count * 4);
  std::vector<float> ha(count), hb(count);
  for (uint32_t i = 0; i < count; ++i) {
    ha[i] = 0.5f * i;
    hb[i] = 1000.0f - i;
  }
  memory.write(da, ha.data(), count * 4);
  memory.write(db, hb.data(), count * 4);
  LaunchParams launch;
  launch.kernel = "vecadd";
  launch.grid = {4, 1, 1};
  launch.block = {256, 1, 1};
  put(launch.arguments, 0, da);
  put(launch.arguments, 8, db);
  put(launch.arguments, 16, dc);
  put(launch.arguments, 24, count);
  const LaunchStatistics stats = executor.launch(launch);
  const std::vector<float> result = read_floats(memory, dc, count);
  for (uint32_t i = 0; i < count; ++i) REQUIRE(result[i] == ha[i] + hb[i]);
  CHECK(stats.ctas == 4);
  CHECK(stats.warp_size == warp_size);
  CHECK(stats.thread_instructions <= stats.active_lanes);
  CHECK(stats.simd_efficiency() <= 1.0);
  CHECK(stats.simd_efficiency() > 0.9);
}

namespace {

// Per CTA: out[ctaid] = sum of in[ctaid*ntid .. +ntid) by a shared-memory tree with bar.sync.
Module reduction_module() {
  Module module;
  module.file = "reduce.ptx";
  FunctionBuilder k(module, "reduce", true, 24);
  const uint32_t in = k.param("in", 8), out = k.param("out", 8);
  const uint32_t sdata = k.shared("sdata", 0, true);
  global_index(k, 0);                                                         // r0 = i
  k.emit(Opcode::mov, DataType::u32, {r(3), special(SpecialRegister::tid)});  // r3 = tid
  with_space(k.emit(Opcode::ld, DataType::u64, {r(4), at_symbol(in)}), StateSpace::param);
  element_address(k, 5, 4, 0);
  with_space(k.emit(Opcode::ld, DataType::u32, {r(6), at(5)}), StateSpace::global);
  k.emit(Opcode::mov, DataType::u32, {r(7), symbol(sdata)});
  k.emit(Opcode::shl, DataType::b32, {r(8), r(3), imm(2)});
  k.emit(Opcode::add, DataType::u32, {r(8), r(7), r(8)});  // r8 = &sdata[tid]
  with_space(k.emit(Opcode::st, DataType::u32, {at(8), r(6)}), StateSpace::shared);
  k.emit(Opcode::bar, DataType::none, {imm(0)}).mod.barrier = BarrierMode::sync;
  k.emit(Opcode::mov, DataType::u32, {r(9), special(SpecialRegister::ntid)});
  k.emit(Opcode::shr, DataType::u32, {r(9), r(9), imm(1)});  // s = ntid / 2
  const uint32_t loop = k.pc();
  Instruction& done = k.emit(Opcode::setp, DataType::u32, {r(10), r(9), imm(0)});
  done.mod.compare = CompareOp::eq;
  const uint32_t exit_loop = k.pc();
  k.branch(10, false, 0, 0);
  Instruction& active = k.emit(Opcode::setp, DataType::u32, {r(11), r(3), r(9)});
  active.mod.compare = CompareOp::lt;
  const uint32_t skip = k.pc();
  k.branch(11, true, 0, 0);
  with_space(k.emit(Opcode::ld, DataType::u32, {r(12), at(8)}), StateSpace::shared);
  k.emit(Opcode::shl, DataType::b32, {r(13), r(9), imm(2)});
  k.emit(Opcode::add, DataType::u32, {r(13), r(8), r(13)});
  with_space(k.emit(Opcode::ld, DataType::u32, {r(14), at(13)}), StateSpace::shared);
  k.emit(Opcode::add, DataType::u32, {r(12), r(12), r(14)});
  with_space(k.emit(Opcode::st, DataType::u32, {at(8), r(12)}), StateSpace::shared);
  const uint32_t join = k.pc();
  k.emit(Opcode::bar, DataType::none, {imm(0)}).mod.barrier = BarrierMode::sync;
  k.emit(Opcode::shr, DataType::u32, {r(9), r(9), imm(1)});
  k.jump(loop);
  const uint32_t after = k.pc();
  Instruction& not_first = k.emit(Opcode::setp, DataType::u32, {r(15), r(3), imm(0)});
  not_first.mod.compare = CompareOp::ne;
  const uint32_t to_exit = k.pc();
  k.branch(15, false, 0, 0);
  with_space(k.emit(Opcode::ld, DataType::u32, {r(16), at(7)}), StateSpace::shared);
  with_space(k.emit(Opcode::ld, DataType::u64, {r(17), at_symbol(out)}), StateSpace::param);
  k.emit(Opcode::mov, DataType::u32, {r(18), special(SpecialRegister::ctaid)});
  element_address(k, 19, 17, 18);
  with_space(k.emit(Opcode::st, DataType::u32, {at(19), r(16)}), StateSpace::global);
  const uint32_t end = k.pc();
  k.emit(Opcode::exit, DataType::none, {});
  k.patch_target(exit_loop, after);
  k.patch_reconvergence(exit_loop, after);
  k.patch_target(skip, join);
  k.patch_reconvergence(skip, join);
  k.patch_target(to_exit, end);
  k.patch_reconvergence(to_exit, end);
  return module;
}

}  // namespace

TEST_CASE("executor: shared-memory reduction with bar.sync in every warp size", "[simt]") {
  const Module module = reduction_module();
  const uint32_t warp_size = GENERATE(4u, 8u, 32u, 64u);
  const uint32_t block = 128, grid = 3;
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, warp_size);
  const uint64_t in = memory.allocate(block * grid * 4), out = memory.allocate(grid * 4);
  std::vector<uint32_t> values(block * grid);
  for (uint32_t i = 0; i < values.size(); ++i) values[i] = i * 7 + 3;
  memory.write(in, values.data(), values.size() * 4);
  LaunchParams launch;
  launch.kernel = "reduce";
  launch.grid = {grid, 1, 1};
  launch.block = {block, 1, 1};
  launch.dynamic_shared_bytes = block * 4;
  put(launch.arguments, 0, in);
  put(launch.arguments, 8, out);
  executor.launch(launch);
  std::vector<uint32_t> sums(grid);
  memory.read(out, sums.data(), grid * 4);
  for (uint32_t c = 0; c < grid; ++c) {
    uint32_t expected = 0;
    for (uint32_t t = 0; t < block; ++t) expected += values[c * block + t];
    CHECK(sums[c] == expected);
  }
}

TEST_CASE("executor: too little dynamic shared memory is a fault naming the kernel", "[simt]") {
  const Module module = reduction_module();
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  LaunchParams launch;
  launch.kernel = "reduce";
  launch.grid = {1, 1, 1};
  launch.block = {64, 1, 1};
  launch.dynamic_shared_bytes = 16;  // the kernel needs 256
  const uint64_t in = memory.allocate(64 * 4), out = memory.allocate(4);
  put(launch.arguments, 0, in);
  put(launch.arguments, 8, out);
  CHECK_THROWS_WITH(executor.launch(launch),
                    Catch::Contains("kernel 'reduce'") && Catch::Contains("reduce.ptx:") &&
                        Catch::Contains("address out of bounds 0x10 (shared): the CTA's shared "
                                        "memory is 16 bytes (0 of the kernel's __shared__ "
                                        "variables, 16 dynamic: the launch's shared_bytes") &&
                        Catch::Contains("CTA (0,0,0) thread (4,0,0)"));
}

TEST_CASE("executor: if/else divergence gives the exact SIMD efficiency", "[simt]") {
  Module module;
  module.file = "diverge.ptx";
  FunctionBuilder k(module, "diverge", true, 12);
  const uint32_t out = k.param("out", 8);
  with_space(k.emit(Opcode::ld, DataType::u64, {r(0), at_symbol(out)}), StateSpace::param);  // 0
  k.emit(Opcode::mov, DataType::u32, {r(1), special(SpecialRegister::tid)});                 // 1
  k.emit(Opcode::and_, DataType::b32, {r(2), r(1), imm(1)});                                 // 2
  k.emit(Opcode::setp, DataType::u32, {r(3), r(2), imm(0)}).mod.compare = CompareOp::eq;     // 3
  k.branch(3, false, 9, 11);                                                                 // 4
  k.emit(Opcode::add, DataType::u32, {r(4), r(1), imm(100)});                        // 5 odd
  k.emit(Opcode::add, DataType::u32, {r(4), r(4), imm(1)});                          // 6
  k.emit(Opcode::add, DataType::u32, {r(4), r(4), imm(1)});                          // 7
  k.jump(11);                                                                        // 8
  k.emit(Opcode::add, DataType::u32, {r(4), r(1), imm(200)});                        // 9 even
  k.emit(Opcode::shl, DataType::b32, {r(4), r(4), imm(1)});                          // 10
  element_address(k, 5, 0, 1);                                                       // 11, 12
  with_space(k.emit(Opcode::st, DataType::u32, {at(5), r(4)}), StateSpace::global);  // 13
  k.emit(Opcode::exit, DataType::none, {});                                          // 14

  const uint32_t warp_size = GENERATE(4u, 8u, 32u, 64u);
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, warp_size);
  const uint64_t buffer = memory.allocate(warp_size * 4);
  const LaunchParams launch = one_cta("diverge", warp_size, {buffer});
  const LaunchStatistics stats = executor.launch(launch);
  std::vector<uint32_t> values(warp_size);
  memory.read(buffer, values.data(), warp_size * 4);
  for (uint32_t t = 0; t < warp_size; ++t) CHECK(values[t] == (t % 2 ? t + 102 : (t + 200) * 2));
  // 5 full before the branch (incl. it), 2 even-only, 4 odd-only (incl. the jump), 4 full after.
  CHECK(stats.warp_instructions == 15);
  const uint64_t half = warp_size / 2;
  CHECK(stats.active_lanes == 9 * warp_size + 2 * half + 4 * half);
  CHECK(stats.simd_efficiency() == Approx(12.0 / 15.0).epsilon(1e-12));
}

TEST_CASE("executor: loops with lane-varying trip counts and early exit", "[simt]") {
  // out[tid] = sum_{j=0..tid} j; lanes with tid % 3 == 2 exit before the loop.
  Module module;
  module.file = "loop.ptx";
  FunctionBuilder k(module, "loop", true, 12);
  const uint32_t out = k.param("out", 8);
  with_space(k.emit(Opcode::ld, DataType::u64, {r(0), at_symbol(out)}), StateSpace::param);  // 0
  k.emit(Opcode::mov, DataType::u32, {r(1), special(SpecialRegister::tid)});                 // 1
  k.emit(Opcode::rem, DataType::u32, {r(2), r(1), imm(3)});                                  // 2
  k.emit(Opcode::setp, DataType::u32, {r(3), r(2), imm(2)}).mod.compare = CompareOp::eq;     // 3
  k.emit_guarded(3, false, Opcode::exit, DataType::none, {});                                // 4
  k.emit(Opcode::mov, DataType::u32, {r(4), imm(0)});                                   // 5 sum
  k.emit(Opcode::mov, DataType::u32, {r(5), imm(0)});                                   // 6 j
  k.emit(Opcode::add, DataType::u32, {r(4), r(4), r(5)});                               // 7 loop
  k.emit(Opcode::add, DataType::u32, {r(5), r(5), imm(1)});                             // 8
  k.emit(Opcode::setp, DataType::u32, {r(6), r(5), r(1)}).mod.compare = CompareOp::le;  // 9
  k.branch(6, false, 7, 11);                                                            // 10
  element_address(k, 7, 0, 1);                                                          // 11, 12
  with_space(k.emit(Opcode::st, DataType::u32, {at(7), r(4)}), StateSpace::global);     // 13
  k.emit(Opcode::exit, DataType::none, {});                                             // 14

  const uint32_t warp_size = GENERATE(4u, 8u, 32u, 64u);
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, warp_size);
  const uint32_t threads = warp_size + 3;  // a second, partial warp
  const uint64_t buffer = memory.allocate(threads * 4);
  std::vector<uint32_t> marker(threads, 0xdead);
  memory.write(buffer, marker.data(), threads * 4);
  const LaunchParams launch = one_cta("loop", threads, {buffer});
  const LaunchStatistics stats = executor.launch(launch);
  std::vector<uint32_t> values(threads);
  memory.read(buffer, values.data(), threads * 4);
  uint64_t expected_active = 0, expected_instructions = 0;
  for (uint32_t w = 0; w * warp_size < threads; ++w) {
    const uint32_t first = w * warp_size, last = std::min(threads, first + warp_size);
    uint32_t lanes = last - first, loop_lanes = 0, max_trip = 0;
    expected_instructions += 5;
    expected_active += 5 * lanes;
    for (uint32_t t = first; t < last; ++t) {
      if (t % 3 == 2) continue;
      ++loop_lanes;
      max_trip = std::max(max_trip, t + 1);
    }
    expected_instructions += 2 + 4 * max_trip + 4;
    expected_active += (2 + 4) * loop_lanes;
    for (uint32_t trip = 0; trip < max_trip; ++trip)
      for (uint32_t t = first; t < last; ++t)
        if (t % 3 != 2 && t + 1 > trip) expected_active += 4;
  }
  for (uint32_t t = 0; t < threads; ++t)
    CHECK(values[t] == (t % 3 == 2 ? 0xdead : t * (t + 1) / 2));
  CHECK(stats.warp_instructions == expected_instructions);
  CHECK(stats.active_lanes == expected_active);
}

TEST_CASE("executor: calls copy parameters and results; .local maps to device memory", "[simt]") {
  Module module;
  module.file = "call.ptx";
  // .func (.param .b32 ret) f(.param .b32 x): x < 5 ? x * 10 : x + 1000, with two returns.
  FunctionBuilder f(module, "f", false, 4);
  const uint32_t f_ret = f.param("ret", 4, true), f_x = f.param("x", 4);
  with_space(f.emit(Opcode::ld, DataType::s32, {r(0), at_symbol(f_x)}), StateSpace::param);    // 0
  f.emit(Opcode::setp, DataType::s32, {r(1), r(0), imm(5)}).mod.compare = CompareOp::lt;       // 1
  f.branch(1, true, 6, no_target);                                                             // 2
  f.emit(Opcode::mul, DataType::s32, {r(2), r(0), imm(10)}).mod.mul = MulMode::lo;             // 3
  with_space(f.emit(Opcode::st, DataType::b32, {at_symbol(f_ret), r(2)}), StateSpace::param);  // 4
  f.emit(Opcode::ret, DataType::none, {});                                                     // 5
  f.emit(Opcode::add, DataType::s32, {r(2), r(0), imm(1000)});                                 // 6
  with_space(f.emit(Opcode::st, DataType::b32, {at_symbol(f_ret), r(2)}), StateSpace::param);  // 7
  f.emit(Opcode::ret, DataType::none, {});                                                     // 8

  FunctionBuilder k(module, "caller", true, 12);
  const uint32_t out = k.param("out", 8);
  const uint32_t arg = k.call_param("param0", 4), result = k.call_param("retval0", 4);
  const uint32_t depot = k.local("depot", 16);
  k.emit(Opcode::mov, DataType::u32, {r(1), special(SpecialRegister::tid)});
  with_space(k.emit(Opcode::st, DataType::u32, {at_symbol(depot, 4), r(1)}), StateSpace::local);
  with_space(k.emit(Opcode::ld, DataType::u32, {r(2), at_symbol(depot, 4)}), StateSpace::local);
  with_space(k.emit(Opcode::st, DataType::b32, {at_symbol(arg), r(2)}), StateSpace::param);
  Instruction& call = k.emit(Opcode::call, DataType::none, {function(f.index())});
  call.call_arguments = {arg};
  call.call_returns = {result};
  with_space(k.emit(Opcode::ld, DataType::b32, {r(3), at_symbol(result)}), StateSpace::param);
  with_space(k.emit(Opcode::ld, DataType::u64, {r(0), at_symbol(out)}), StateSpace::param);
  element_address(k, 4, 0, 1);
  with_space(k.emit(Opcode::st, DataType::u32, {at(4), r(3)}), StateSpace::global);
  k.emit(Opcode::exit, DataType::none, {});

  const uint32_t warp_size = GENERATE(4u, 32u);
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, warp_size);
  const uint32_t threads = 12;
  const uint64_t buffer = memory.allocate(threads * 4);
  LaunchParams launch;
  launch.kernel = "caller";
  launch.grid = {2, 1, 1};
  launch.block = {threads / 2, 1, 1};
  put(launch.arguments, 0, buffer);
  const uint64_t before = memory.allocated_bytes();
  executor.launch(launch);
  CHECK(memory.allocated_bytes() == before);  // the .local region is released
  std::vector<int32_t> values(threads / 2);
  memory.read(buffer, values.data(), values.size() * 4);
  for (uint32_t t = 0; t < threads / 2; ++t)
    CHECK(values[t] == (t < 5 ? int32_t(t * 10) : int32_t(t + 1000)));
}

TEST_CASE("executor: device faults name kernel, pc, CTA and thread", "[simt]") {
  Module module;
  module.file = "fault.ptx";
  FunctionBuilder k(module, "oob", true, 8);
  const uint32_t p = k.param("p", 8);
  with_space(k.emit(Opcode::ld, DataType::u64, {r(0), at_symbol(p)}), StateSpace::param);
  k.emit(Opcode::mov, DataType::u32, {r(1), special(SpecialRegister::tid)});
  element_address(k, 2, 0, 1);
  with_space(k.emit(Opcode::ld, DataType::u32, {r(3), at(2)}), StateSpace::global);
  k.emit(Opcode::exit, DataType::none, {});
  FunctionBuilder t(module, "trapper", true, 2);
  t.emit(Opcode::mov, DataType::u32, {r(0), special(SpecialRegister::tid)});
  t.emit(Opcode::setp, DataType::u32, {r(1), r(0), imm(37)}).mod.compare = CompareOp::eq;
  t.emit_guarded(1, false, Opcode::trap, DataType::none, {});
  t.emit(Opcode::exit, DataType::none, {});

  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t buffer = memory.allocate(16 * 4);  // 16 elements, 64 threads read
  LaunchParams launch;
  launch.kernel = "oob";
  launch.grid = {2, 1, 1};
  launch.block = {64, 1, 1};
  put(launch.arguments, 0, buffer);
  CHECK_THROWS_WITH(executor.launch(launch),
                    Catch::Contains("device fault in kernel 'oob' (fault.ptx:") &&
                        Catch::Contains("pc 4") && Catch::Contains("unmapped device address") &&
                        Catch::Contains("(global)") &&
                        Catch::Contains("CTA (0,0,0) thread (16,0,0)"));

  launch.kernel = "trapper";
  launch.arguments.clear();
  CHECK_THROWS_WITH(executor.launch(launch), Catch::Contains("kernel 'trapper'") &&
                                                 Catch::Contains("trap") &&
                                                 Catch::Contains("thread (37,0,0)"));

  launch.kernel = "nope";
  CHECK_THROWS_AS(executor.launch(launch), ohmvp::ConfigError);
  launch.kernel = "oob";
  CHECK_THROWS_AS(executor.launch(launch), ohmvp::ConfigError);  // argument block too short
  CHECK_THROWS_AS(FunctionalExecutor(module, memory, 65), ohmvp::ConfigError);
}

TEST_CASE("executor: bar.sync waits only for threads that have not exited", "[simt]") {
  auto build = [](uint32_t barrier_threads, uint32_t barrier_id = 0) {
    Module module;
    module.file = "barrier.ptx";
    FunctionBuilder k(module, "neighbours", true, 10);
    const uint32_t out = k.param("out", 8);
    with_space(k.emit(Opcode::ld, DataType::u64, {r(0), at_symbol(out)}), StateSpace::param);
    k.emit(Opcode::mov, DataType::u32, {r(1), special(SpecialRegister::tid)});
    k.emit(Opcode::setp, DataType::u32, {r(2), r(1), imm(3)}).mod.compare = CompareOp::ge;
    k.emit_guarded(2, false, Opcode::exit, DataType::none, {});  // threads 3.. leave
    k.emit(Opcode::shl, DataType::b32, {r(3), r(1), imm(2)});
    k.emit(Opcode::add, DataType::u32, {r(4), r(1), imm(10)});
    with_space(k.emit(Opcode::st, DataType::u32, {at(3), r(4)}), StateSpace::shared);
    Instruction& bar = k.emit(Opcode::bar, DataType::none, {imm(barrier_id)});
    bar.mod.barrier = BarrierMode::sync;
    if (barrier_threads) bar.operands[bar.operand_count++] = imm(barrier_threads);
    k.emit(Opcode::add, DataType::u32, {r(5), r(1), imm(1)});
    k.emit(Opcode::rem, DataType::u32, {r(5), r(5), imm(3)});
    k.emit(Opcode::shl, DataType::b32, {r(5), r(5), imm(2)});
    with_space(k.emit(Opcode::ld, DataType::u32, {r(6), at(5)}), StateSpace::shared);
    element_address(k, 7, 0, 1);
    with_space(k.emit(Opcode::st, DataType::u32, {at(7), r(6)}), StateSpace::global);
    k.emit(Opcode::exit, DataType::none, {});
    module.static_shared_bytes[0] = 64;
    return module;
  };
  DeviceMemory memory;
  const uint64_t buffer = memory.allocate(8 * 4);
  const LaunchParams launch = one_cta("neighbours", 8, {buffer});
  {
    const Module module = build(0);
    FunctionalExecutor executor(module, memory, 4);  // warp 1 exits entirely, warp 0 keeps 3 lanes
    executor.launch(launch);
    std::vector<uint32_t> values(3);
    memory.read(buffer, values.data(), 12);
    CHECK(values == std::vector<uint32_t>{11, 12, 10});
  }
  {
    const Module module = build(64);  // more threads than the CTA has: never released
    FunctionalExecutor executor(module, memory, 4);
    CHECK_THROWS_AS(executor.launch(launch), ohmvp::SimulationError);
    CHECK_THROWS_WITH(executor.launch(launch), Catch::Contains("deadlocked at a barrier"));
  }
  {
    const Module module = build(6);  // not a multiple of the 4-lane warps
    FunctionalExecutor executor(module, memory, 4);
    CHECK_THROWS_WITH(executor.launch(launch),
                      Catch::Contains("invalid barrier") &&
                          Catch::Contains("thread count is not a positive multiple of the warp"));
  }
  {
    const Module module = build(0, 16);  // barriers 0 to 15 only
    FunctionalExecutor executor(module, memory, 4);
    CHECK_THROWS_WITH(executor.launch(launch),
                      Catch::Contains("invalid barrier") && Catch::Contains("id is past 15"));
  }
}

TEST_CASE("executor: __syncthreads_count/and/or give every thread the CTA's result", "[simt]") {
  // tests/data/ptx/barrier_reduction.cu: counts t % 3 == 0, and-s t < 40, or-s t == 17.
  const Module module = ohmvp::gpu::test::load_fixture("barrier_reduction.ptx");
  DeviceMemory memory;
  const uint64_t buffer = memory.allocate(96 * 3 * 4);
  for (const uint32_t threads : {96u, 40u, 7u}) {
    INFO(threads << " threads");
    const LaunchParams launch = one_cta("barrier_reductions", threads, {buffer});
    FunctionalExecutor executor(module, memory, 32);
    executor.launch(launch);
    std::vector<int32_t> values(threads * 3);
    REQUIRE(memory.read(buffer, values.data(), values.size() * 4));
    const int32_t count = static_cast<int32_t>((threads + 2) / 3);
    const int32_t every = threads <= 40 ? 1 : 0;
    const int32_t some = threads > 17 ? 1 : 0;
    for (uint32_t t = 0; t < threads; ++t) {
      INFO("thread " << t);
      CHECK(values[3 * t] == count);
      CHECK(values[3 * t + 1] == every);
      CHECK(values[3 * t + 2] == some);
    }
  }
}

namespace {

int32_t packed(uint32_t value, uint32_t index, uint32_t bits, bool is_signed) {
  const uint32_t field = (value >> (index * bits)) & ((1u << bits) - 1);
  return is_signed && (field >> (bits - 1)) ? int32_t(field) - int32_t(1u << bits) : int32_t(field);
}

}  // namespace

TEST_CASE("executor: dp4a, dp2a, lop3, isspacep, vabsdiff, atom.add.f16, a bf16 widened by mov",
          "[simt]") {
  // tests/data/ptx/packed_integer.cu, one warp.
  const Module module = ohmvp::gpu::test::load_fixture("packed_integer.ptx");
  DeviceMemory memory;
  constexpr uint32_t n = 32;
  std::vector<uint32_t> a(n), b(n);
  std::vector<uint16_t> bf16(n);
  for (uint32_t t = 0; t < n; ++t) {
    a[t] = 0x80ff7f01u ^ (t * 0x01020304u);
    b[t] = 0x7f80fe02u + t * 0x11111111u;
    bf16[t] = uint16_t(0x3f80 + 0x101 * t);  // 1.0 and beyond, with mantissa bits
  }
  const uint64_t a_at = memory.allocate(n * 4), b_at = memory.allocate(n * 4);
  const uint64_t out_at = memory.allocate(n * 13 * 4), sum_at = memory.allocate(2);
  const uint64_t bf16_at = memory.allocate(n * 2), wide_at = memory.allocate(n * 4);
  REQUIRE(memory.write(a_at, a.data(), n * 4));
  REQUIRE(memory.write(b_at, b.data(), n * 4));
  REQUIRE(memory.write(bf16_at, bf16.data(), n * 2));
  const LaunchParams launch =
      one_cta("packed_ops", n, {a_at, b_at, out_at, sum_at, bf16_at, wide_at});
  FunctionalExecutor executor(module, memory, 32);
  executor.launch(launch);

  std::vector<uint32_t> out(n * 13);
  REQUIRE(memory.read(out_at, out.data(), out.size() * 4));
  for (uint32_t t = 0; t < n; ++t) {
    INFO("thread " << t);
    const uint32_t x = a[t], y = b[t], c = t * 0x01010101u;
    int32_t dp4_signed = int32_t(t) - 7, dp2_signed = -int32_t(t);
    uint32_t dp4_unsigned = t, dp2_unsigned = t;
    for (uint32_t i = 0; i < 4; ++i) {
      dp4_signed += packed(x, i, 8, true) * packed(y, i, 8, true);
      dp4_unsigned += uint32_t(packed(x, i, 8, false) * packed(y, i, 8, false));
    }
    for (uint32_t i = 0; i < 2; ++i) {
      dp2_signed += packed(x, i, 16, true) * packed(y, i, 8, true);
      dp2_unsigned += uint32_t(packed(x, i, 16, false) * packed(y, 2 + i, 8, false));
    }
    const uint32_t* o = &out[13 * t];
    CHECK(o[0] == uint32_t(dp4_signed));
    CHECK(o[1] == dp4_unsigned);
    CHECK(o[2] == uint32_t(dp2_signed));
    CHECK(o[3] == dp2_unsigned);
    CHECK(o[4] == (x ^ y ^ c));
    CHECK(o[5] == ((x & y) | (x & c) | (y & c)));
    const uint32_t lo = a[t & ~1u], hi = a[(t & ~1u) + 1];
    CHECK(o[6] == (lo & 0xffff) + 3 * (lo >> 16) + 5 * (hi & 0xffff) + 7 * (hi >> 16));
    CHECK(o[7] == (t & 1));      // __isGlobal: odd threads point into a
    CHECK(o[8] == 1 - (t & 1));  // __isShared: even threads into shared memory
    CHECK(o[9] == 0);            // __isLocal
    uint32_t differences = 0, signed_sum = 0, halves_sum = 0;
    for (uint32_t i = 0; i < 4; ++i) {
      differences |= uint32_t(std::abs(packed(x, i, 8, false) - packed(y, i, 8, false))) << (8 * i);
      signed_sum += uint32_t(std::abs(packed(x, i, 8, true) - packed(y, i, 8, true)));
    }
    for (uint32_t i = 0; i < 2; ++i)
      halves_sum += uint32_t(std::abs(packed(x, i, 16, false) - packed(y, i, 16, false)));
    CHECK(o[10] == differences);  // __vabsdiffu4
    CHECK(o[11] == signed_sum);   // __vsads4
    CHECK(o[12] == halves_sum);   // __vsadu2
  }
  uint16_t sum = 0;
  REQUIRE(memory.read(sum_at, &sum, 2));
  CHECK(sum == 0x4a00);  // 8 x (0 + 0.25 + 0.5 + 0.75) = 12.0 in binary16
  std::vector<uint32_t> wide(n);
  REQUIRE(memory.read(wide_at, wide.data(), n * 4));
  for (uint32_t t = 0; t < n; ++t) CHECK(wide[t] == uint32_t(bf16[t]) << 16);
}

TEST_CASE("executor: threads of one warp that spin for each other make progress", "[simt]") {
  // tests/data/ptx/warp_locks.cu: a lock whose critical section follows the spin loop, and two
  // lanes of each warp taking turns; both need independent thread scheduling.
  const Module module = ohmvp::gpu::test::load_fixture("warp_locks.ptx");
  DeviceMemory memory;
  constexpr uint32_t threads = 64, rounds = 5;
  const uint64_t lock_at = memory.allocate(4), counter_at = memory.allocate(4);
  const uint64_t order_at = memory.allocate(threads * 4);
  FunctionalExecutor executor(module, memory, 32);
  executor.launch(one_cta("lock_after_loop", threads, {lock_at, counter_at, order_at}));
  int32_t counter = 0;
  REQUIRE(memory.read(counter_at, &counter, 4));
  CHECK(counter == int32_t(threads));
  std::vector<int32_t> order(threads);
  REQUIRE(memory.read(order_at, order.data(), threads * 4));
  std::sort(order.begin(), order.end());
  for (uint32_t t = 0; t < threads; ++t) CHECK(order[t] == int32_t(t));  // each thread once

  const uint64_t turn_at = memory.allocate(2 * 4), out_at = memory.allocate(2 * 2 * rounds * 4);
  LaunchParams ping_pong = one_cta("ping_pong", threads, {turn_at, out_at});
  put(ping_pong.arguments, 16, rounds);
  executor.launch(ping_pong);
  std::vector<int32_t> out(2 * 2 * rounds);
  REQUIRE(memory.read(out_at, out.data(), out.size() * 4));
  for (uint32_t i = 0; i < out.size(); ++i) CHECK(out[i] == int32_t(i % (2 * rounds)));

  // After a lock, __syncthreads() waits for every thread, also those still spinning in the
  // warps of the lock's winners: each thread then reads the final count.
  const uint64_t seen_at = memory.allocate(threads * 4);
  REQUIRE(memory.write(lock_at, std::vector<int32_t>{0}.data(), 4));
  REQUIRE(memory.write(counter_at, std::vector<int32_t>{0}.data(), 4));
  executor.launch(one_cta("lock_then_barrier", threads, {lock_at, counter_at, seen_at}));
  std::vector<int32_t> seen(threads);
  REQUIRE(memory.read(seen_at, seen.data(), threads * 4));
  CHECK(seen == std::vector<int32_t>(threads, int32_t(threads)));

  // A lock with backoff: the loop inside the spin loop does not keep the spinning path from
  // yielding to the lock's holder.
  REQUIRE(memory.write(lock_at, std::vector<int32_t>{0}.data(), 4));
  REQUIRE(memory.write(counter_at, std::vector<int32_t>{0}.data(), 4));
  executor.launch(one_cta("lock_with_backoff", threads, {lock_at, counter_at}));
  REQUIRE(memory.read(counter_at, &counter, 4));
  CHECK(counter == int32_t(threads));
}

TEST_CASE("executor: warp-synchronous instructions wait for the lanes a yield left elsewhere",
          "[simt]") {
  const Module module = ohmvp::gpu::test::load_fixture("warp_locks.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  constexpr uint32_t threads = 64;
  const uint64_t lock_at = memory.allocate(4), counter_at = memory.allocate(4);
  const uint64_t out_at = memory.allocate(3 * threads * 4);
  executor.launch(one_cta("lock_then_warp_sync", threads, {lock_at, counter_at, out_at}));
  std::vector<int32_t> out(3 * threads);
  REQUIRE(memory.read(out_at, out.data(), out.size() * 4));
  for (uint32_t t = 0; t < threads; ++t) {
    INFO("thread " << t);
    CHECK(uint32_t(out[3 * t]) == 0xffffffffu);  // every lane votes
    CHECK(out[3 * t + 1] == 31 * 32 / 2);        // every lane's id is in the sum
    CHECK(out[3 * t + 2] == int32_t(threads / 2));
  }

  // No lock: lane 0 loops 2000 times on its own, so its path yields to the lanes done with the
  // loop; their __shfl_down_sync waits for it.
  std::vector<int32_t> trips(32);
  for (uint32_t lane = 0; lane < 32; ++lane)
    trips[lane] = lane == 0 ? 2000 : lane < 8 ? 0 : 5 + lane;
  int64_t expected = 0;
  for (uint32_t lane = 0; lane < 32; ++lane)
    for (int32_t i = 0; i < trips[lane]; ++i) expected += i ^ int32_t(lane);
  const uint64_t trips_at = memory.allocate(32 * 4), total_at = memory.allocate(4);
  REQUIRE(memory.write(trips_at, trips.data(), 32 * 4));
  executor.launch(one_cta("long_loop_then_shuffle", 32, {trips_at, total_at}));
  int32_t total = 0;
  REQUIRE(memory.read(total_at, &total, 4));
  CHECK(total == int32_t(expected));

  // A barrier inside a called function waiting for lanes outside the call: refused, not wrong.
  REQUIRE(memory.write(lock_at, std::vector<int32_t>{0}.data(), 4));
  CHECK_THROWS_WITH(
      executor.launch(one_cta("barrier_in_function", threads, {lock_at, counter_at, out_at})),
      Catch::Contains("pc 2 in 'synchronised_read(int volatile*)'") &&
          Catch::Contains("independent thread scheduling across calls is not "
                          "modelled"));
}

TEST_CASE("executor: __match_any_sync, __match_all_sync and __fns as nvcc emits them", "[simt]") {
  // tests/data/ptx/warp_match.cu. 40 of 64 threads take part: the second warp's member mask is
  // its 8 active lanes, all holding one key.
  const Module module = ohmvp::gpu::test::load_fixture("warp_match.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  constexpr uint32_t threads = 64, active = 40;
  std::vector<int32_t> keys(threads);
  std::vector<int64_t> wide_keys(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    keys[t] = t < 32 ? int32_t(t % 5) : 7;
    wide_keys[t] = t < 32 ? int64_t(t & 1) << 32 | 9 : int64_t(-3);  // the low words agree
  }
  const uint64_t keys_at = upload(memory, keys), wide_at = upload(memory, wide_keys);
  const uint64_t out_at = memory.allocate(6 * threads * 4);
  LaunchParams match_keys = one_cta("match_keys", threads, {keys_at, wide_at, out_at});
  put(match_keys.arguments, 24, active);
  executor.launch(match_keys);
  const std::vector<uint32_t> out = download<uint32_t>(memory, out_at, 6 * threads);
  for (uint32_t t = 0; t < 32; ++t) {
    INFO("thread " << t);
    uint32_t same_key = 0;
    for (uint32_t u = t % 5; u < 32; u += 5) same_key |= 1u << u;
    CHECK(out[6 * t] == same_key);
    CHECK(out[6 * t + 1] == 0);
    CHECK(out[6 * t + 2] == 0);
    CHECK(out[6 * t + 3] == (t & 1 ? 0xaaaaaaaau : 0x55555555u));
    CHECK(out[6 * t + 4] == 0);
    CHECK(out[6 * t + 5] == 0);
  }
  for (uint32_t t = 32; t < active; ++t) {
    INFO("thread " << t);
    for (uint32_t k : {0, 1, 3, 4}) CHECK(out[6 * t + k] == 0xffu);
    CHECK(out[6 * t + 2] == 1);
    CHECK(out[6 * t + 5] == 1);
  }

  // Warp-aggregated atomics: one atomicAdd per distinct key in each warp.
  constexpr uint32_t n = 100, bin_count = 6;
  std::vector<int32_t> histogram_keys(n), expected_bins(bin_count);
  for (uint32_t t = 0; t < n; ++t) {
    histogram_keys[t] = int32_t((t * t) % bin_count);
    ++expected_bins[size_t(histogram_keys[t])];
  }
  int32_t expected_atomics = 0;
  for (uint32_t warp = 0; warp * 32 < n; ++warp) {
    std::vector<bool> seen(bin_count);
    for (uint32_t t = warp * 32; t < std::min(n, warp * 32 + 32); ++t)
      if (!seen[size_t(histogram_keys[t])])
        seen[size_t(histogram_keys[t])] = true, ++expected_atomics;
  }
  const uint64_t histogram_keys_at = upload(memory, histogram_keys);
  const uint64_t bins_at = memory.allocate(bin_count * 4), atomics_at = memory.allocate(4);
  LaunchParams histogram =
      one_cta("aggregated_histogram", 128, {histogram_keys_at, bins_at, atomics_at});
  put(histogram.arguments, 24, n);
  executor.launch(histogram);
  CHECK(download<int32_t>(memory, bins_at, bin_count) == expected_bins);
  CHECK(download<int32_t>(memory, atomics_at, 1)[0] == expected_atomics);

  // __fns: the PTX ISA's four examples, offset 0, and searches that run off either end.
  const std::vector<uint32_t> masks = {0xaaaaaaaa, 0xaaaaaaaa, 0xaaaaaaaa, 0xaaaaaaaa,
                                       0xaaaaaaaa, 0xaaaaaaaa, 0x00000100, 0xf0000000};
  const std::vector<uint32_t> bases = {3, 3, 2, 2, 2, 0, 7, 31};
  const std::vector<int32_t> offsets = {1, -1, 1, -1, 0, 17, -1, -4};
  const std::vector<uint32_t> expected = {3, 3, 3, 1, 0xffffffff, 0xffffffff, 0xffffffff, 28};
  const uint32_t cases = uint32_t(masks.size());
  const uint64_t found_at = memory.allocate(cases * 4);
  executor.launch(
      one_cta("nth_set", cases,
              {upload(memory, masks), upload(memory, bases), upload(memory, offsets), found_at}));
  CHECK(download<uint32_t>(memory, found_at, cases) == expected);
}

TEST_CASE("executor: cooperative groups' tiles of 8 vote and reduce among themselves", "[simt]") {
  // tests/data/ptx/warp_tiles.cu: ballots and shuffles whose member mask is the lane's tile.
  const Module module = ohmvp::gpu::test::load_fixture("warp_tiles.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  constexpr uint32_t threads = 64;
  std::vector<int32_t> values(threads);
  for (uint32_t t = 0; t < threads; ++t) values[t] = t % 11 == 3 ? -int32_t(t) : int32_t(t);
  const uint64_t out_at = memory.allocate(3 * threads * 4);
  executor.launch(one_cta("tile_votes", threads, {upload(memory, values), out_at}));
  const std::vector<uint32_t> out = download<uint32_t>(memory, out_at, 3 * threads);
  for (uint32_t t = 0; t < threads; ++t) {
    INFO("thread " << t);
    const uint32_t first = t & ~7u;
    uint32_t ballot = 0;
    int32_t sum = 0;
    for (uint32_t u = first; u < first + 8; ++u) {
      if (values[u] < 0) ballot |= 1u << (u - first);
      sum += values[u];
    }
    CHECK(out[3 * t] == ballot);  // a tile's ballot holds its own lanes, from bit 0
    CHECK(out[3 * t + 1] == (ballot != 0 ? 1u : 0u));
    CHECK(int32_t(out[3 * t + 2]) == sum);
  }
}

TEST_CASE("executor: 128-bit division through CUDA's carry chains", "[simt]") {
  // tests/data/ptx/wide_integer.cu: nvcc's __int128 division reads sub.cc's carry with addc.
  const Module module = ohmvp::gpu::test::load_fixture("wide_integer.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  constexpr uint32_t threads = 64;
  std::vector<uint64_t> high(threads), low(threads), divisor(threads);
  uint64_t state = 0x9e3779b97f4a7c15ULL;
  const auto next = [&state] {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return state;
  };
  for (uint32_t t = 0; t < threads; ++t) {
    high[t] = t % 4 == 0 ? 0 : next() >> (t % 64);
    low[t] = next();
    divisor[t] = t % 8 == 1 ? 1 : t % 8 == 2 ? ~uint64_t{0} : next() >> (t % 61);
    if (divisor[t] == 0) divisor[t] = 3;
  }
  const uint64_t out_at = memory.allocate(4 * threads * 8);
  executor.launch(
      one_cta("divide", threads,
              {upload(memory, high), upload(memory, low), upload(memory, divisor), out_at}));
  const std::vector<uint64_t> out = download<uint64_t>(memory, out_at, 4 * threads);
  for (uint32_t t = 0; t < threads; ++t) {
    INFO("thread " << t << ": " << high[t] << ":" << low[t] << " / " << divisor[t]);
    const unsigned __int128 numerator = (unsigned __int128)high[t] << 64 | low[t];
    const unsigned __int128 quotient = numerator / divisor[t];
    CHECK(out[4 * t] == uint64_t(quotient >> 64));
    CHECK(out[4 * t + 1] == uint64_t(quotient));
    CHECK(out[4 * t + 2] == uint64_t(numerator % divisor[t]));
    CHECK(out[4 * t + 3] == uint64_t(__int128(numerator) / -__int128(divisor[t])));
  }
}

TEST_CASE("executor: __constant__ data read through generic pointers", "[simt]") {
  // tests/data/ptx/const_pointers.cu: cvta.const pointers stored to memory and loaded back, so
  // the loads (in a __noinline__ function too) are generic ones that read the constant bank's
  // copy in device memory.
  const Module module = ohmvp::gpu::test::load_fixture("const_pointers.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  constexpr uint32_t threads = 32;
  const uint64_t slots_at = memory.allocate(threads * 8), out_at = memory.allocate(4 * threads * 4);
  executor.launch(one_cta("const_pointers", threads, {slots_at, out_at}));
  std::vector<float> out = read_floats(memory, out_at, 4 * threads);
  const float weights[8] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f};
  const int32_t offsets[4] = {3, -1, 4, -1};
  for (uint32_t t = 0; t < threads; ++t) {
    INFO("thread " << t);
    if (t % 2 == 0) {
      CHECK(out[4 * t] == weights[t % 4]);
      CHECK(out[4 * t + 1] == weights[t % 8]);
    } else {
      int32_t bits = 0;  // weigh() reads offsets' bytes as a float
      std::memcpy(&bits, &out[4 * t], 4);
      CHECK(bits == offsets[t % 4]);
      CHECK(out[4 * t + 1] == float(offsets[t % 4]));
    }
    CHECK(out[4 * t + 2] == 0.0f);  // not global: __isGlobal, as nvcc folds it for __constant__
    CHECK(out[4 * t + 3] == 1.0f);  // isspacep.const
  }
}

TEST_CASE("executor: a failing assert() stops the kernel with a fault that quotes it", "[simt]") {
  // tests/data/ptx/assertions.cu: assert() calls __assertfail, which has no body in PTX.
  const Module module = ohmvp::gpu::test::load_fixture("assertions.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  constexpr uint32_t n = 64;
  std::vector<int32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = int32_t(i) * 10 - 300;
  const uint64_t in_at = upload(memory, in), out_at = memory.allocate(n * 4);
  LaunchParams checked = one_cta("checked_double", n, {in_at, out_at});
  put(checked.arguments, 16, n);
  executor.launch(checked);  // every assertion holds
  const std::vector<int32_t> out = download<int32_t>(memory, out_at, n);
  for (uint32_t i = 0; i < n; ++i) CHECK(out[i] == 2 * in[i]);

  in[45] = -5000;
  in[50] = -6000;
  REQUIRE(memory.write(in_at, in.data(), n * 4));
  CHECK_THROWS_WITH(
      executor.launch(checked),
      Catch::Contains("device fault in kernel 'checked_double'") &&
          Catch::Contains("assertion `in[i] >= -1000` failed (assertions.cu:9, in 'void "
                          "checked_double(const int *, int *, int)')") &&
          Catch::Contains("thread (45,0,0)"));

  // In a called function: the fault names the function and its assertion's own text.
  std::vector<int32_t> index(32, 3);
  index[7] = 8;
  const uint64_t table_at = memory.allocate(8 * 4), index_at = upload(memory, index);
  LaunchParams gather = one_cta("gather", 32, {table_at, index_at, out_at});
  put(gather.arguments, 24, uint32_t{8});
  CHECK_THROWS_WITH(executor.launch(gather),
                    Catch::Contains("in 'checked_index(int, int)'") &&
                        Catch::Contains("assertion `i < n && \"index within the table\"` failed "
                                        "(assertions.cu:15, in 'int checked_index(int, int)')") &&
                        Catch::Contains("thread (7,0,0)"));

  // The module's printf kernel beside them runs too.
  executor.launch(one_cta("debug_dump", 2, {in_at}));
  CHECK(executor.printf_buffer().text() == "value -300\nvalue -290\n");
}

TEST_CASE("executor: printf writes each lane's text, in lane order, to the printf buffer",
          "[simt]") {
  // tests/data/ptx/device_printf.cu; the expected text is the host's printf of the same formats.
  const Module module = ohmvp::gpu::test::load_fixture("device_printf.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const std::vector<int32_t> values = {7, -3, 1000, 0, -65536};
  const std::vector<char> name = {'w', 'a', 'r', 'p', ' ', 'z', 'e', 'r', 'o', 0};
  const uint64_t name_at = upload(memory, name), values_at = upload(memory, values);
  constexpr uint32_t threads = 12;
  LaunchParams launch = one_cta("print_values", threads, {name_at, values_at});
  put(launch.arguments, 16, uint32_t{5});
  executor.launch(launch);

  std::string expected;
  char line[256];
  for (uint32_t t = 0; t < threads; ++t) {
    const int32_t value = values[t % 5];
    std::snprintf(line, sizeof line,
                  "t=%d value=%5d hex=%#x unsigned=%u char=%c long=%lld float=%.3f short=%hd\n",
                  int(t), value, value, unsigned(value), int('a' + t % 26),
                  (long long)value * 1000000007LL, double(value / 4.0f), short(value * 1000));
    expected += line;
  }
  for (uint32_t t = 1; t < 8; t += 2) {
    std::snprintf(line, sizeof line, "lane %2d reports %+.2e\n", int(t), values[t % 5] * 0.5);
    expected += line;
  }
  expected += "[warp zero] [left  |   tru] 100%\n";
  CHECK(executor.printf_buffer().text() == expected);

  // A string from memory prints whole, however long; one at an unmapped address is a fault.
  executor.printf_buffer().take();
  std::vector<char> long_text(5000, 'x');
  long_text.push_back(0);
  executor.launch(one_cta("print_string", 1, {upload(memory, long_text)}));
  CHECK(executor.printf_buffer().text() == std::string(5000, 'x') + "|\n");
  CHECK_THROWS_WITH(
      executor.launch(one_cta("print_string", 1, {0x1000})),
      Catch::Contains("unmapped device address 0x1000 (generic): a string of printf"));
}

TEST_CASE("executor: what an indirect call might reach but never calls does not stop a launch",
          "[simt]") {
  // tests/data/ptx/pointer_reach.cu: the function table holds a recursive function, which
  // works when it is called.
  const Module module = ohmvp::gpu::test::load_fixture("pointer_reach.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t out_at = memory.allocate(32 * 4);
  LaunchParams reach = one_cta("reach", 32, {out_at});
  put(reach.arguments, 8, uint32_t{0});  // functions[0]: twice
  executor.launch(reach);
  const std::vector<int32_t> out = download<int32_t>(memory, out_at, 32);
  for (uint32_t t = 0; t < 32; ++t) CHECK(out[t] == (t % 2 == 0 ? 1 : 2) + 2 * int32_t(t));
  LaunchParams recursive = one_cta("reach", 20, {out_at});
  put(recursive.arguments, 8, uint32_t{1});  // functions[1]: fibonacci, which recurses
  executor.launch(recursive);
  const std::vector<int32_t> fibonacci = download<int32_t>(memory, out_at, 20);
  CHECK(fibonacci[19] == 2 + 4181);
  CHECK(fibonacci[10] == 1 + 55);
  // new and delete, and the deleting destructor's free, use the device heap.
  executor.launch(one_cta("destroy", 1, {}));
}

TEST_CASE("executor: PTX the model does not run, reached through a pointer, faults if called",
          "[simt]") {
  // `pick` calls `video` (a SIMD video instruction the model does not run) or `twice` through a
  // pointer: the kernel lays out, runs while it calls `twice`, and faults once it calls `video`.
  const Module module = parse_snippet(R"(.func (.param .b32 out) video(.param .b32 x)
{
.reg .b32 %r<3>;
ld.param.b32 %r1, [x];
vadd4.u32.u32.u32.sat %r2, %r1, %r1, %r1;
st.param.b32 [out], %r2;
ret;
}
.func (.param .b32 out) twice(.param .b32 x)
{
.reg .b32 %r<3>;
ld.param.b32 %r1, [x];
add.s32 %r2, %r1, %r1;
st.param.b32 [out], %r2;
ret;
}
.visible .entry pick(.param .u32 which, .param .u64 result)
{
.reg .pred %p<2>;
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
ld.param.u32 %r1, [which];
ld.param.u64 %rd1, [result];
mov.u64 %rd2, twice;
setp.ne.u32 %p1, %r1, 0;
@%p1 mov.u64 %rd2, video;
mov.u32 %r2, %tid.x;
{
.param .b32 param0;
st.param.b32 [param0], %r2;
.param .b32 retval0;
prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
call (retval0), %rd2, (param0), prototype_0;
ld.param.b32 %r3, [retval0];
}
mul.wide.u32 %rd3, %r2, 4;
add.s64 %rd3, %rd1, %rd3;
st.global.u32 [%rd3], %r3;
ret;
}
)");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  const uint64_t out_at = memory.allocate(32 * 4);
  LaunchParams doubled = one_cta("pick", 32, {});
  put(doubled.arguments, 0, uint32_t{0});
  put(doubled.arguments, 8, out_at);
  executor.launch(doubled);
  const std::vector<int32_t> out = download<int32_t>(memory, out_at, 32);
  for (uint32_t t = 0; t < 32; ++t) CHECK(out[t] == 2 * int32_t(t));
  LaunchParams video = doubled;
  put(video.arguments, 0, uint32_t{1});
  CHECK_THROWS_WITH(executor.launch(video),
                    Catch::Contains("'vadd4' (a SIMD video instruction) is not supported") &&
                        Catch::Contains("thread (0,0,0)"));
}

TEST_CASE("executor: calls through function pointers and virtual functions", "[simt]") {
  // tests/data/ptx/function_pointers.cu: the lanes of a warp call different functions through
  // one indirect call; each set of lanes calls its own in turn.
  const Module module = ohmvp::gpu::test::load_fixture("function_pointers.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  constexpr uint32_t threads = 40;
  std::vector<float> in(threads);
  for (uint32_t t = 0; t < threads; ++t) in[t] = 0.25f * float(t) - 3.0f;
  const uint64_t in_at = upload(memory, in), out_at = memory.allocate(3 * threads * 4);
  executor.launch(one_cta("dispatch", threads, {in_at, out_at}));
  const std::vector<float> out = read_floats(memory, out_at, 3 * threads);
  for (uint32_t t = 0; t < threads; ++t) {
    INFO("thread " << t);
    const float x = in[t];
    CHECK(out[3 * t] == (t % 3 == 0 ? x * x : t % 3 == 1 ? -x : 0.5f * x));
    CHECK(out[3 * t + 1] == (t % 2 == 0 ? x * x : 3.0f * x * x));
    CHECK(out[3 * t + 2] == x * x);
  }

  // An address from the host: a function's, then one that is no function's.
  uint32_t square = 0;
  while (module.functions[square].name != "_Z6squaref") ++square;
  LaunchParams through = one_cta("call_through", 32, {function_address(square), out_at});
  executor.launch(through);
  const std::vector<float> squares = read_floats(memory, out_at, 32);
  for (uint32_t t = 0; t < 32; ++t) CHECK(squares[t] == float(t * t));
  LaunchParams wild = one_cta("call_through", 32, {in_at, out_at});
  CHECK_THROWS_WITH(executor.launch(wild),
                    Catch::Contains("indirect call to an address that is no function's") &&
                        Catch::Contains("thread (0,0,0)"));
}

TEST_CASE("executor: malloc, free, new and delete in a kernel use the device heap", "[simt]") {
  // tests/data/ptx/device_heap.cu.
  const Module module = ohmvp::gpu::test::load_fixture("device_heap.ptx");
  DeviceMemory memory;
  FunctionalExecutor executor(module, memory, 32);
  constexpr uint32_t threads = 40;
  const uint64_t out_at = memory.allocate(3 * threads * 4);
  LaunchParams launch =
      one_cta("heap_users", threads, {out_at, DeviceLimits{}.malloc_heap_bytes + 1});
  executor.launch(launch);
  const std::vector<int32_t> out = download<int32_t>(memory, out_at, 3 * threads);
  for (uint32_t t = 0; t < threads; ++t) {
    INFO("thread " << t);
    CHECK(out[3 * t] == int32_t(t * (t + 1) / 2));
    CHECK(out[3 * t + 1] == (t % 2 == 0 ? 3 : 4));
    CHECK(out[3 * t + 2] == 1);  // more than the heap holds: NULL
  }
  executor.launch(launch);  // every block was freed: the heap serves the launch again
  CHECK_THROWS_WITH(
      executor.launch(one_cta("free_twice", 1, {})),
      Catch::Contains(
          "free of an address that is no allocated block (freed already, or not from malloc)"));
}
