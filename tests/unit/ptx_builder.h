#pragma once

// Terse construction of decoded PTX (Module/Function/Instruction) for tests, standing in for the
// parser, plus a one-warp harness for single-instruction semantics.

#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "modules/gpu/ptx/program.h"
#include "modules/gpu/simt/interpreter.h"
#include "modules/gpu/simt/kernel_layout.h"
#include "modules/gpu/simt/warp_state.h"

namespace ptxb {

using namespace ohmvp::gpu;

inline Operand r(uint32_t index) {
  Operand o;
  o.kind = Operand::Kind::reg;
  o.reg = index;
  return o;
}
inline Operand not_r(uint32_t index) {
  Operand o = r(index);
  o.negated = true;
  return o;
}
inline Operand imm(uint64_t value) {
  Operand o;
  o.kind = Operand::Kind::imm;
  o.imm = value;
  return o;
}
inline Operand fimm(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return imm(bits);
}
inline Operand dimm(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return imm(bits);
}
inline Operand special(SpecialRegister which, uint8_t component = 0) {
  Operand o;
  o.kind = Operand::Kind::special;
  o.special = which;
  o.component = component;
  return o;
}
inline Operand at(uint32_t reg, int64_t offset = 0) {
  Operand o;
  o.kind = Operand::Kind::address;
  o.reg = reg;
  o.offset = offset;
  return o;
}
inline Operand at_symbol(uint32_t symbol, int64_t offset = 0) {
  Operand o;
  o.kind = Operand::Kind::address;
  o.symbol = symbol;
  o.offset = offset;
  return o;
}
inline Operand symbol(uint32_t index) {
  Operand o;
  o.kind = Operand::Kind::symbol;
  o.symbol = index;
  return o;
}
inline Operand vec(std::initializer_list<uint32_t> regs) {
  Operand o;
  o.kind = Operand::Kind::vector;
  uint8_t i = 0;
  for (uint32_t reg : regs) o.vector_regs[i++] = reg;
  o.vector_count = i;
  return o;
}
inline Operand label(uint32_t target) {
  Operand o;
  o.kind = Operand::Kind::label;
  o.target = target;
  return o;
}
inline Operand function(uint32_t index) {
  Operand o;
  o.kind = Operand::Kind::function;
  o.target = index;
  return o;
}
inline Operand sink() {
  Operand o;
  o.kind = Operand::Kind::sink;
  return o;
}

inline Instruction make(Opcode op, DataType type, std::initializer_list<Operand> operands) {
  Instruction in;
  in.op = op;
  in.type = type;
  for (const Operand& o : operands) in.operands[in.operand_count++] = o;
  return in;
}

// Builds one function of a module; emit() returns the instruction just added for tweaks (valid
// until the next emit).
class FunctionBuilder {
 public:
  FunctionBuilder(Module& module, const std::string& name, bool kernel, uint32_t registers)
      : m_module(module), m_index(static_cast<uint32_t>(module.functions.size())) {
    Function f;
    f.name = name;
    f.is_kernel = kernel;
    f.register_count = registers;
    module.functions.push_back(f);
    module.static_shared_bytes.resize(module.functions.size(), 0);
  }
  uint32_t index() const { return m_index; }
  Function& function() { return m_module.functions[m_index]; }
  uint32_t pc() const {
    return static_cast<uint32_t>(m_module.functions[m_index].instructions.size());
  }

  Instruction& emit(Opcode op, DataType type, std::initializer_list<Operand> operands) {
    function().instructions.push_back(make(op, type, operands));
    function().instructions.back().source_line = 100 + pc();
    return function().instructions.back();
  }
  Instruction& emit_guarded(uint32_t guard, bool negated, Opcode op, DataType type,
                            std::initializer_list<Operand> operands) {
    Instruction& in = emit(op, type, operands);
    in.guard_reg = guard;
    in.guard_negated = negated;
    return in;
  }
  // `@p bra target` reconverging at `reconvergence`.
  Instruction& branch(uint32_t guard, bool negated, uint32_t target, uint32_t reconvergence) {
    Instruction& in = emit(Opcode::bra, DataType::none, {label(target)});
    in.guard_reg = guard;
    in.guard_negated = negated;
    in.reconvergence_pc = reconvergence;
    return in;
  }
  Instruction& jump(uint32_t target) { return emit(Opcode::bra, DataType::none, {label(target)}); }
  void patch_target(uint32_t at_pc, uint32_t target) {
    function().instructions[at_pc].operands[0].target = target;
  }
  void patch_reconvergence(uint32_t at_pc, uint32_t rpc) {
    function().instructions[at_pc].reconvergence_pc = rpc;
  }

  // A parameter (kernel argument or .func parameter) of `size` bytes, naturally aligned.
  uint32_t param(const std::string& name, uint64_t size, bool is_return = false) {
    Function& f = function();
    uint64_t& bytes = is_return ? f.return_bytes : f.param_bytes;
    const uint32_t s = add_symbol(name, StateSpace::param, size, align_up(bytes, size));
    bytes = m_module.symbols[s].offset + size;
    (is_return ? f.return_params : f.params).push_back(s);
    return s;
  }
  // A call-site .param variable in this function's body.
  uint32_t call_param(const std::string& name, uint64_t size) {
    Function& f = function();
    const uint32_t s =
        add_symbol(name, StateSpace::param, size, align_up(f.call_param_bytes, size));
    f.call_param_bytes = m_module.symbols[s].offset + size;
    return s;
  }
  uint32_t local(const std::string& name, uint64_t size) {
    Function& f = function();
    const uint32_t s = add_symbol(name, StateSpace::local, size, align_up(f.local_bytes, 8));
    f.local_bytes = m_module.symbols[s].offset + size;
    return s;
  }
  uint32_t shared(const std::string& name, uint64_t size, bool is_extern = false) {
    uint64_t& bytes = m_module.static_shared_bytes[m_index];
    const uint32_t s =
        add_symbol(name, StateSpace::shared, size, is_extern ? 0 : align_up(bytes, 8));
    m_module.symbols[s].is_extern = is_extern;
    if (!is_extern) bytes = m_module.symbols[s].offset + size;
    return s;
  }

 private:
  uint32_t add_symbol(const std::string& name, StateSpace space, uint64_t size, uint64_t offset) {
    Symbol symbol;
    symbol.name = name;
    symbol.space = space;
    symbol.size = size;
    symbol.offset = offset;
    symbol.function = static_cast<int32_t>(m_index);
    m_module.symbols.push_back(symbol);
    return static_cast<uint32_t>(m_module.symbols.size() - 1);
  }

  Module& m_module;
  uint32_t m_index;
};

// One warp of a one-instruction kernel: set registers, run an instruction, read registers.
class Harness {
 public:
  static constexpr uint32_t registers = 24;

  explicit Harness(uint32_t warp_size = 32, uint32_t threads = 0, uint64_t local_bytes = 0)
      : m_module(make_module(local_bytes)) {
    m_layout = std::make_unique<KernelLayout>(m_module, "k");
    m_warp = std::make_unique<WarpState>(*m_layout, warp_size);
    m_block.x = threads ? threads : warp_size;
    m_warp->start(0, m_block, 0);
    m_shared.assign(256, 0);
    context.layout = m_layout.get();
    context.shared = m_shared.data();
    context.shared_bytes = m_shared.size();
    context.block = m_block;
  }

  WarpState& warp() { return *m_warp; }
  std::vector<uint8_t>& shared() { return m_shared; }
  void set(uint32_t reg, uint32_t lane, uint64_t value) { m_warp->reg(reg, lane) = value; }
  void set_all(uint32_t reg, uint64_t value) {
    for (uint32_t lane = 0; lane < m_warp->warp_size(); ++lane) set(reg, lane, value);
  }
  uint64_t get(uint32_t reg, uint32_t lane = 0) const { return m_warp->reg(reg, lane); }

  // Executes `in` at pc 0 over all lanes of the warp.
  StepResult run(const Instruction& in) {
    m_module.functions[0].instructions[0] = in;
    m_warp->set_pc(0);
    return Interpreter::step(*m_warp, context);
  }
  // Runs `in` with lane 0's registers a/b/c holding the given values; returns register 0.
  uint64_t eval(Instruction in, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
    set(1, 0, a);
    set(2, 0, b);
    set(3, 0, c);
    run(in);
    return get(0, 0);
  }

  ExecutionContext context;

 private:
  static Module make_module(uint64_t local_bytes) {
    Module module;
    module.file = "harness.ptx";
    FunctionBuilder kernel(module, "k", true, registers);
    kernel.function().local_bytes = local_bytes;
    kernel.emit(Opcode::exit, DataType::none, {});
    kernel.emit(Opcode::exit, DataType::none, {});
    return module;
  }

  Module m_module;
  Dim3 m_block;
  std::unique_ptr<KernelLayout> m_layout;
  std::unique_ptr<WarpState> m_warp;
  std::vector<uint8_t> m_shared;
};

// `op.type d(r0), a(r1), b(r2), c(r3)` with as many sources as given.
inline Instruction op3(Opcode op, DataType type, unsigned sources = 2) {
  Instruction in = make(op, type, {r(0), r(1)});
  if (sources > 1) in.operands[in.operand_count++] = r(2);
  if (sources > 2) in.operands[in.operand_count++] = r(3);
  return in;
}

inline uint64_t bits_of(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}
inline uint64_t bits_of(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return bits;
}
inline float f32_of(uint64_t bits) {
  const uint32_t low = static_cast<uint32_t>(bits);
  float value;
  std::memcpy(&value, &low, 4);
  return value;
}
inline double f64_of(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, 8);
  return value;
}

}  // namespace ptxb
