#include <cstring>
#include <set>

#include <catch2/catch.hpp>

#include "modules/gpu/simt/memory_windows.h"
#include "tests/unit/ptx_builder.h"

using namespace ptxb;

namespace {

Instruction load(StateSpace space, DataType type, Operand destination, Operand address,
                 uint8_t width = 1) {
  Instruction in = make(Opcode::ld, type, {destination, address});
  in.space = space;
  in.mod.vector_width = width;
  return in;
}

Instruction store(StateSpace space, DataType type, Operand address, Operand source,
                  uint8_t width = 1) {
  Instruction in = make(Opcode::st, type, {address, source});
  in.space = space;
  in.mod.vector_width = width;
  return in;
}

}  // namespace

TEST_CASE("interp: shared loads and stores execute at once", "[interp]") {
  Harness h(4);
  for (uint32_t lane = 0; lane < 4; ++lane) {
    h.set(1, lane, lane * 4);
    h.set(2, lane, 0xa0 + lane);
  }
  CHECK(h.run(store(StateSpace::shared, DataType::u32, at(1, 16), r(2))).status ==
        StepStatus::executed);
  uint32_t word;
  std::memcpy(&word, h.shared().data() + 16 + 8, 4);
  CHECK(word == 0xa2);
  h.run(load(StateSpace::shared, DataType::u32, r(0), at(1, 16)));
  CHECK(h.get(0, 3) == 0xa3);
  // A signed byte load sign-extends.
  h.shared()[100] = 0x80;
  h.run(load(StateSpace::shared, DataType::s8, r(0), at(no_register, 100)));
  CHECK(h.get(0, 0) == 0xffffffffffffff80ULL);
  // Vector store and load.
  h.set_all(3, 0x1111);
  h.set_all(4, 0x2222);
  h.run(store(StateSpace::shared, DataType::b16, at(no_register, 200), vec({3, 4}), 2));
  h.run(load(StateSpace::shared, DataType::b32, r(0), at(no_register, 200)));
  CHECK(h.get(0, 1) == 0x22221111);
  h.run(load(StateSpace::shared, DataType::b16, vec({5, no_register}), at(no_register, 200), 2));
  CHECK(h.get(5, 0) == 0x1111);
}

TEST_CASE("interp: shared atomics execute at once and return the old value", "[interp]") {
  Harness h(4);
  h.set_all(1, 0);
  h.set_all(2, 5);
  Instruction atom = make(Opcode::atom, DataType::u32, {r(0), at(1, 32), r(2)});
  atom.space = StateSpace::shared;
  atom.mod.atomic = AtomicOp::add;
  h.run(atom);
  uint32_t sum;
  std::memcpy(&sum, h.shared().data() + 32, 4);
  CHECK(sum == 20);
  std::set<uint64_t> olds;
  for (uint32_t lane = 0; lane < 4; ++lane) olds.insert(h.get(0, lane));
  CHECK(olds == std::set<uint64_t>{0, 5, 10, 15});
  Instruction cas = make(Opcode::atom, DataType::b32, {r(0), at(1, 32), imm(20), imm(7)});
  cas.space = StateSpace::shared;
  cas.mod.atomic = AtomicOp::cas;
  h.run(cas);
  std::memcpy(&sum, h.shared().data() + 32, 4);
  CHECK(sum == 7);
  // 16-bit atomicCAS (sm_70 on): only the two bytes change; one lane of four finds 0x0007.
  Instruction cas16 = make(Opcode::atom, DataType::b16, {r(0), at(1, 32), imm(7), imm(0xbeef)});
  cas16.space = StateSpace::shared;
  cas16.mod.atomic = AtomicOp::cas;
  h.run(cas16);
  std::memcpy(&sum, h.shared().data() + 32, 4);
  CHECK(sum == 0xbeef);
  CHECK(h.get(0, 0) == 7);
  CHECK(h.get(0, 1) == 0xbeef);
}

TEST_CASE("interp: global accesses produce a descriptor completed by the caller", "[interp]") {
  Harness h(4);
  for (uint32_t lane = 0; lane < 4; ++lane) h.set(1, lane, 0x10000 + lane * 16);
  h.set_all(2, 0xdeadbeef);
  h.set_all(3, 0x12345678);
  StepResult result = h.run(store(StateSpace::global, DataType::u32, at(1, 8), vec({2, 3}), 2));
  REQUIRE(result.status == StepStatus::memory_pending);
  const MemoryRequest& request = h.warp().memory_request();
  CHECK(request.kind == MemoryKind::store);
  CHECK(request.lanes == 0xf);
  CHECK(request.bytes == 8);
  CHECK(request.address[2] == 0x10000 + 32 + 8);
  CHECK(request.space[2] == StateSpace::global);
  uint64_t data;
  std::memcpy(&data, request.data[1].data(), 8);
  CHECK(data == 0x12345678deadbeefULL);
  Interpreter::complete_memory(h.warp());
  CHECK_FALSE(h.warp().memory_pending());

  result = h.run(load(StateSpace::global, DataType::f32, vec({4, 5, 6, 7}), at(1), 4));
  REQUIRE(result.status == StepStatus::memory_pending);
  MemoryRequest& load_request = h.warp().memory_request();
  CHECK(load_request.bytes == 16);
  for (uint32_t lane = 0; lane < 4; ++lane)
    for (uint32_t i = 0; i < 16; ++i)
      load_request.data[lane][i] = static_cast<uint8_t>(lane * 16 + i);
  // Stepping again before completing is refused.
  CHECK(Interpreter::step(h.warp(), h.context).status == StepStatus::fault);
  h.warp().set_fault({});
  Interpreter::complete_memory(h.warp());
  CHECK(h.get(5, 2) == 0x27262524);
  CHECK(h.get(7, 3) == 0x3f3e3d3c);

  Instruction red = make(Opcode::red, DataType::f32, {at(1), r(2)});
  red.space = StateSpace::global;
  red.mod.atomic = AtomicOp::add;
  REQUIRE(h.run(red).status == StepStatus::memory_pending);
  CHECK(h.warp().memory_request().kind == MemoryKind::reduction);
  CHECK(h.warp().memory_request().operand_b[0] == 0xdeadbeef);
  CHECK(h.warp().memory_request().atomic_op == AtomicOp::add);
  Interpreter::complete_memory(h.warp());
}

TEST_CASE("interp: generic addresses resolve per lane through the windows", "[interp]") {
  Harness h(4, 0, 64);
  h.context.cta_linear = 3;
  h.context.local_region_base = 0x900000;
  h.context.local_stride = 64;
  // cvta.shared turns a shared offset into a generic address.
  Instruction cvta = make(Opcode::cvta, DataType::u64, {r(1), r(2)});
  cvta.space = StateSpace::shared;
  h.set_all(2, 48);
  h.run(cvta);
  CHECK(h.get(1, 0) == shared_window_base + 48);
  cvta.space = StateSpace::local;
  cvta.operands[0] = r(3);
  h.set_all(2, 8);
  h.run(cvta);
  CHECK(h.get(3, 0) == local_window_base + 8);
  Instruction back = cvta;
  back.mod.to_generic = false;
  back.operands[0] = r(4);
  back.operands[1] = r(3);
  h.run(back);
  CHECK(h.get(4, 0) == 8);

  // Lanes 0, 1: shared; lane 2: local; lane 3: global.
  h.set(5, 0, shared_window_base + 48);
  h.set(5, 1, shared_window_base + 52);
  h.set(5, 2, local_window_base + 8);
  h.set(5, 3, 0x777000);
  h.set_all(6, 0xabcd);
  const StepResult result = h.run(store(StateSpace::generic, DataType::u32, at(5), r(6)));
  REQUIRE(result.status == StepStatus::memory_pending);
  const MemoryRequest& request = h.warp().memory_request();
  CHECK(request.lanes == 0xc);  // the shared lanes are done already
  uint32_t word;
  std::memcpy(&word, h.shared().data() + 52, 4);
  CHECK(word == 0xabcd);
  CHECK(request.space[2] == StateSpace::local);
  CHECK(request.address[2] ==
        0x900000 + (3 * 4 + 2) * 64 + 8);  // region + thread * stride + offset
  CHECK(request.space[3] == StateSpace::global);
  CHECK(request.address[3] == 0x777000);
  Interpreter::complete_memory(h.warp());
}

TEST_CASE("interp: faults for misaligned and out-of-window addresses", "[interp]") {
  Harness h(4);
  h.set_all(1, 2);
  StepResult result = h.run(load(StateSpace::global, DataType::u32, r(0), at(1)));
  REQUIRE(result.status == StepStatus::fault);
  CHECK(h.warp().fault().kind == FaultKind::misaligned_address);
  CHECK(h.warp().fault().address == 2);
  h.warp().set_fault({});
  // A generic address is named in the space it falls in: 2 in shared, not the window's address.
  h.set_all(1, shared_window_base + 2);
  Instruction generic_atom = make(Opcode::atom, DataType::u32, {r(0), at(1), r(2)});
  generic_atom.space = StateSpace::generic;
  generic_atom.mod.atomic = AtomicOp::add;
  REQUIRE(h.run(generic_atom).status == StepStatus::fault);
  CHECK(h.warp().fault().kind == FaultKind::misaligned_address);
  CHECK(h.warp().fault().address == 2);
  CHECK(h.warp().fault().space == StateSpace::shared);
  h.warp().set_fault({});
  h.set_all(1, 256);  // shared is 256 bytes
  result = h.run(load(StateSpace::shared, DataType::u32, r(0), at(1)));
  REQUIRE(result.status == StepStatus::fault);
  CHECK(h.warp().fault().kind == FaultKind::out_of_window);
  CHECK(h.warp().fault().space == StateSpace::shared);
  h.warp().set_fault({});
  result =
      h.run(load(StateSpace::local, DataType::u32, r(0), at(no_register, 0)));  // no .local storage
  REQUIRE(result.status == StepStatus::fault);
  CHECK(h.warp().fault().kind == FaultKind::out_of_window);
  h.warp().set_fault({});
  result = h.run(make(Opcode::trap, DataType::none, {}));
  CHECK(result.status == StepStatus::fault);
  CHECK(h.warp().fault().kind == FaultKind::trap);
  h.warp().set_fault({});
  result = h.run(make(Opcode::wmma_mma, DataType::none, {}));
  CHECK(result.status == StepStatus::fault);
  CHECK(h.warp().fault().kind == FaultKind::unsupported);
}

TEST_CASE("interp: tex.1d reads 0 outside the width, tex.2d clamps its coordinates", "[interp]") {
  Harness h(4);
  TextureTable table;
  table.bind({77, 0x50000, DataType::f32, 1, 100, 1, 0});
  table.bind({78, 0x60000, DataType::s32, 2, 8, 4, 128, 2});
  h.context.textures = &table;
  Instruction tex1 = make(Opcode::tex, DataType::f32, {vec({0, 1, 2, 3}), imm(77), r(4)});
  tex1.mod.geometry = 1;
  tex1.source_type = DataType::s32;
  h.set(4, 0, 5);
  h.set(4, 1, static_cast<uint64_t>(-3));
  h.set(4, 2, 99);
  h.set(4, 3, 1000);
  h.set_all(0, 0x12345678);
  REQUIRE(h.run(tex1).status == StepStatus::memory_pending);
  MemoryRequest& request = h.warp().memory_request();
  CHECK(request.kind == MemoryKind::texture);
  CHECK(request.bytes == 4);
  // tex1Dfetch on linear memory: lanes 1 (-3) and 3 (1000) are outside the 100 texels, read 0
  // at once and access nothing.
  CHECK(request.lanes == 0b0101);
  CHECK(request.address[0] == 0x50000 + 20);
  CHECK(request.address[2] == 0x50000 + 99 * 4);
  CHECK(h.get(0, 1) == 0);
  CHECK(h.get(0, 3) == 0);
  const float texel = 2.5f;
  for (uint32_t lane = 0; lane < 4; ++lane) std::memcpy(request.data[lane].data(), &texel, 4);
  Interpreter::complete_memory(h.warp());
  CHECK(f32_of(h.get(0, 2)) == 2.5f);
  CHECK(h.get(0, 1) == 0);
  CHECK(h.get(1, 2) == 0);  // missing channels read 0

  Instruction tex2 = make(Opcode::tex, DataType::s32, {vec({0, 1, 2, 3}), imm(78), vec({4, 5})});
  tex2.mod.geometry = 2;
  tex2.source_type = DataType::f32;
  h.set_all(4, bits_of(3.7f));
  h.set_all(5, bits_of(2.2f));
  h.set(5, 1, bits_of(9.0f));
  REQUIRE(h.run(tex2).status == StepStatus::memory_pending);
  CHECK(h.warp().memory_request().address[0] == 0x60000 + 2 * 128 + 3 * 8);
  CHECK(h.warp().memory_request().address[1] == 0x60000 + 3 * 128 + 3 * 8);
  Interpreter::complete_memory(h.warp());

  Instruction bad = tex1;
  bad.operands[1] = imm(5);
  CHECK(h.run(bad).status == StepStatus::fault);
  CHECK(h.warp().fault().kind == FaultKind::invalid_texture);

  h.warp().set_fault({});
  Instruction row_less = tex1;
  row_less.operands[1] = imm(78);  // the 8x4 texture
  CHECK(h.run(row_less).status == StepStatus::fault);
  CHECK(h.warp().fault().kind == FaultKind::texture_geometry);
  h.warp().set_fault({});
  Instruction row_wanted = tex2;
  row_wanted.operands[1] = imm(77);  // the 1-D texture
  CHECK(h.run(row_wanted).status == StepStatus::fault);
  CHECK(h.warp().fault().kind == FaultKind::texture_geometry);
}
