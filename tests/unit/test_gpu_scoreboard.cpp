#include <catch2/catch.hpp>

#include <initializer_list>
#include <vector>

#include "modules/common/errors.h"
#include "modules/gpu/scoreboard.h"

using namespace ohmvp;
using namespace ohmvp::gpu;

namespace {

Operand reg(uint32_t r) {
  Operand o;
  o.kind = Operand::Kind::reg;
  o.reg = r;
  return o;
}

Operand imm(uint64_t value) {
  Operand o;
  o.kind = Operand::Kind::imm;
  o.imm = value;
  return o;
}

Operand address(uint32_t base, int64_t offset = 0) {
  Operand o;
  o.kind = Operand::Kind::address;
  o.reg = base;
  o.offset = offset;
  return o;
}

Operand symbol_address() {
  Operand o;
  o.kind = Operand::Kind::address;
  o.symbol = 3;
  return o;
}

Operand vector(std::initializer_list<uint32_t> regs) {
  Operand o;
  o.kind = Operand::Kind::vector;
  for (uint32_t r : regs) o.vector_regs[o.vector_count++] = r;
  return o;
}

Operand sink() {
  Operand o;
  o.kind = Operand::Kind::sink;
  return o;
}

Operand label(uint32_t target) {
  Operand o;
  o.kind = Operand::Kind::label;
  o.target = target;
  return o;
}

Instruction make(Opcode op, std::initializer_list<Operand> operands) {
  Instruction i;
  i.op = op;
  for (const Operand& o : operands) i.operands[i.operand_count++] = o;
  return i;
}

std::vector<uint32_t> destinations(const Instruction& i) {
  const InstructionRegisters r = instruction_registers(i);
  return {r.destinations_begin(), r.destinations_end()};
}

std::vector<uint32_t> sources(const Instruction& i) {
  const InstructionRegisters r = instruction_registers(i);
  return {r.sources_begin(), r.sources_end()};
}

using Regs = std::vector<uint32_t>;

}  // namespace

TEST_CASE("scoreboard: registers of arithmetic, guards and carries", "[sm]") {
  Instruction add = make(Opcode::add, {reg(1), reg(2), imm(5)});
  CHECK(destinations(add) == Regs{1});
  CHECK(sources(add) == Regs{2});
  add.guard_reg = 9;
  CHECK(sources(add) == Regs{2, 9});

  Instruction mad = make(Opcode::mad, {reg(4), reg(5), reg(6), reg(4)});
  CHECK(destinations(mad) == Regs{4});
  CHECK(sources(mad) == Regs{5, 6, 4});

  Instruction add_cc = make(Opcode::add, {reg(1), reg(2), reg(3)});
  add_cc.mod.carry_out = true;
  CHECK(destinations(add_cc) == Regs{1, k_carry_register});
  Instruction addc = make(Opcode::add, {reg(4), reg(5), reg(6)});
  addc.mod.carry_in = true;
  CHECK(sources(addc) == Regs{5, 6, k_carry_register});
  CHECK(destinations(addc) == Regs{4});
  Instruction madc_cc = make(Opcode::mad, {reg(7), reg(5), reg(6), reg(7)});
  madc_cc.mod.carry_in = madc_cc.mod.carry_out = true;
  CHECK(sources(madc_cc) == Regs{5, 6, 7, k_carry_register});
  CHECK(destinations(madc_cc) == Regs{7, k_carry_register});
}

TEST_CASE("scoreboard: second destinations of setp and shfl", "[sm]") {
  Instruction setp = make(Opcode::setp, {reg(10), reg(1), reg(2)});
  setp.dest_pred = 11;
  CHECK(destinations(setp) == Regs{10, 11});
  CHECK(sources(setp) == Regs{1, 2});
  Instruction setp_and = make(Opcode::setp, {reg(10), reg(1), imm(0), reg(12)});
  CHECK(sources(setp_and) == Regs{1, 12});

  Instruction shfl = make(Opcode::shfl, {reg(3), reg(4), imm(1), imm(31), imm(0xffffffff)});
  shfl.dest_pred = 8;
  CHECK(destinations(shfl) == Regs{3, 8});
  CHECK(sources(shfl) == Regs{4});
  Instruction shfl_sink = make(Opcode::shfl, {sink(), reg(4), reg(5), imm(31), imm(0xffffffff)});
  shfl_sink.dest_pred = 8;
  CHECK(destinations(shfl_sink) == Regs{8});
}

TEST_CASE("scoreboard: memory instructions", "[sm]") {
  const Instruction ld = make(Opcode::ld, {reg(1), address(20, 8)});
  CHECK(destinations(ld) == Regs{1});
  CHECK(sources(ld) == Regs{20});
  const Instruction ld_v4 = make(Opcode::ld, {vector({1, 2, no_register, 4}), address(20)});
  CHECK(destinations(ld_v4) == Regs{1, 2, 4});
  const Instruction ld_param = make(Opcode::ld, {reg(1), symbol_address()});
  CHECK(destinations(ld_param) == Regs{1});
  CHECK(sources(ld_param).empty());

  const Instruction st = make(Opcode::st, {address(20, 4), reg(7)});
  CHECK(destinations(st).empty());
  CHECK(sources(st) == Regs{20, 7});
  const Instruction st_v2 = make(Opcode::st, {address(21), vector({7, 8})});
  CHECK(destinations(st_v2).empty());
  CHECK(sources(st_v2) == Regs{21, 7, 8});

  const Instruction atom = make(Opcode::atom, {reg(2), address(20), reg(3), reg(4)});
  CHECK(destinations(atom) == Regs{2});
  CHECK(sources(atom) == Regs{20, 3, 4});
  const Instruction red = make(Opcode::red, {address(20), reg(3)});
  CHECK(destinations(red).empty());
  CHECK(sources(red) == Regs{20, 3});

  const Instruction tex = make(Opcode::tex, {vector({1, 2, 3, 4}), reg(30), vector({5, 6})});
  CHECK(destinations(tex) == Regs{1, 2, 3, 4});
  CHECK(sources(tex) == Regs{30, 5, 6});
}

TEST_CASE("scoreboard: control flow, barriers and moves", "[sm]") {
  Instruction bra = make(Opcode::bra, {label(12)});
  bra.guard_reg = 5;
  bra.guard_negated = true;
  CHECK(destinations(bra).empty());
  CHECK(sources(bra) == Regs{5});
  const Instruction bar = make(Opcode::bar, {imm(0)});
  CHECK(destinations(bar).empty());
  CHECK(sources(bar).empty());
  const Instruction bar_reg = make(Opcode::bar, {reg(3), reg(4)});
  CHECK(destinations(bar_reg).empty());
  CHECK(sources(bar_reg) == Regs{3, 4});
  Instruction bar_red = make(Opcode::bar, {reg(6), imm(0), reg(7)});  // bar.red.popc d, 0, p
  bar_red.mod.barrier = BarrierMode::reduce;
  CHECK(destinations(bar_red) == Regs{6});
  CHECK(sources(bar_red) == Regs{7});
  const Instruction stackrestore = make(Opcode::stackrestore, {reg(8)});
  CHECK(destinations(stackrestore).empty());
  CHECK(sources(stackrestore) == Regs{8});
  CHECK(destinations(make(Opcode::stacksave, {reg(8)})) == Regs{8});
  CHECK(destinations(make(Opcode::exit, {})).empty());
  CHECK(destinations(make(Opcode::ret, {})).empty());

  const Instruction unpack = make(Opcode::mov, {vector({1, 2}), reg(9)});
  CHECK(destinations(unpack) == Regs{1, 2});
  CHECK(sources(unpack) == Regs{9});
  const Instruction pack = make(Opcode::mov, {reg(9), vector({1, 2})});
  CHECK(destinations(pack) == Regs{9});
  CHECK(sources(pack) == Regs{1, 2});
}

TEST_CASE("scoreboard: RAW and WAW hazards until writeback", "[sm]") {
  Scoreboard board;
  board.reset(16);
  const InstructionRegisters load = instruction_registers(make(Opcode::ld, {reg(1), address(2)}));
  const InstructionRegisters use =
      instruction_registers(make(Opcode::add, {reg(3), reg(1), imm(1)}));
  const InstructionRegisters overwrite = instruction_registers(make(Opcode::mov, {reg(1), imm(0)}));
  const InstructionRegisters write_base =
      instruction_registers(make(Opcode::mov, {reg(2), imm(0)}));
  const InstructionRegisters independent =
      instruction_registers(make(Opcode::add, {reg(4), reg(5), reg(6)}));

  CHECK_FALSE(board.has_hazard(load));
  board.reserve(load);
  CHECK(board.pending(1));
  CHECK(board.pending_count() == 1);
  CHECK(board.has_hazard(use));               // RAW on r1
  CHECK(board.has_hazard(overwrite));         // WAW on r1
  CHECK_FALSE(board.has_hazard(write_base));  // WAR needs no wait: operands are read at issue
  CHECK_FALSE(board.has_hazard(independent));
  CHECK_THROWS_AS(board.reserve(overwrite), SimulationError);
  board.release(load);
  CHECK_FALSE(board.pending(1));
  CHECK_FALSE(board.has_hazard(use));
  CHECK_THROWS_AS(board.release(load), SimulationError);
}

TEST_CASE("scoreboard: the carry flag orders a carry chain", "[sm]") {
  Scoreboard board;
  board.reset(8);
  Instruction add_cc = make(Opcode::add, {reg(1), reg(2), reg(3)});
  add_cc.mod.carry_out = true;
  Instruction addc = make(Opcode::add, {reg(4), reg(5), reg(6)});
  addc.mod.carry_in = true;
  board.reserve(instruction_registers(add_cc));
  CHECK(board.pending(k_carry_register));
  CHECK(board.has_hazard(instruction_registers(addc)));
  board.release(k_carry_register);
  CHECK_FALSE(board.has_hazard(instruction_registers(addc)));
  CHECK(board.pending(1));
}

TEST_CASE("scoreboard: registers outside the function are a SimulationError", "[sm]") {
  Scoreboard board;
  board.reset(4);
  CHECK_THROWS_AS(board.pending(4), SimulationError);
  CHECK_THROWS_AS(board.has_hazard(instruction_registers(make(Opcode::mov, {reg(7), imm(1)}))),
                  SimulationError);
  board.reset(8);
  CHECK_FALSE(board.pending(7));
}
