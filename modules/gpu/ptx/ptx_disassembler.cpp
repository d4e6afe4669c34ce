#include "modules/gpu/ptx/ptx_disassembler.h"

#include <cstdio>

#include "modules/gpu/ptx/ptx_matrix.h"
#include "modules/gpu/ptx/ptx_names.h"

namespace ohmvp::gpu {
namespace {

std::string register_name(const Function& function, uint32_t reg) {
  if (reg == no_register) return "_";
  if (reg < function.register_names.size()) return function.register_names[reg];
  return "%?" + std::to_string(reg);
}

std::string symbol_name(const Module& module, uint32_t symbol) {
  return symbol < module.symbols.size() ? module.symbols[symbol].name : "?";
}

std::string hex(uint64_t value, int digits) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "%0*llX", digits, static_cast<unsigned long long>(value));
  return buffer;
}

std::string immediate_text(uint64_t bits, DataType type) {
  if (type == DataType::f32) return "0f" + hex(bits, 8);
  if (type == DataType::f64) return "0d" + hex(bits, 16);
  if (type == DataType::f16 || type == DataType::bf16) return "0x" + hex(bits, 4);
  if (is_signed_int(type)) {
    const size_t bits_wide = type_bytes(type) * 8;
    int64_t value = static_cast<int64_t>(bits << (64 - bits_wide)) >> (64 - bits_wide);
    return std::to_string(value);
  }
  return std::to_string(bits);
}

// The type an operand position's immediate was converted to, for display.
DataType display_type(const Instruction& inst, uint32_t index) {
  switch (inst.op) {
    case Opcode::cvt:
    case Opcode::slct:
    case Opcode::set:
      return index >= 1 && inst.op == Opcode::cvt    ? inst.source_type
             : index == 3 && inst.op == Opcode::slct ? inst.source_type
             : inst.op == Opcode::set && index >= 1  ? inst.source_type
                                                     : inst.type;
    case Opcode::shl:
    case Opcode::shr:
      return index == 2 ? DataType::u32 : inst.type;
    case Opcode::bfe:
      return index >= 2 ? DataType::u32 : inst.type;
    case Opcode::bfi:
      return index >= 3 ? DataType::u32 : inst.type;
    case Opcode::szext:
      return index == 2 ? DataType::u32 : inst.type;
    case Opcode::selp:
      return index == 3 ? DataType::pred : inst.type;
    case Opcode::shfl:
    case Opcode::prmt:
    case Opcode::bar:
    case Opcode::shf:
      return DataType::b32;
    default:
      return inst.type;
  }
}

std::string operand_text(const Module& module, const Function& function, const Instruction& inst,
                         uint32_t index) {
  const Operand& operand = inst.operands[index];
  std::string text = operand.negated ? "!" : "";
  switch (operand.kind) {
    case Operand::Kind::reg:
      text += register_name(function, operand.reg);
      break;
    case Operand::Kind::imm:
      text += immediate_text(operand.imm, display_type(inst, index));
      break;
    case Operand::Kind::special:
      text += std::string(special_register_name(operand.special));
      if (operand.special == SpecialRegister::envreg) text += std::to_string(operand.component);
      if (special_register_has_components(operand.special))
        text += std::string(".") + static_cast<char>('x' + operand.component);
      break;
    case Operand::Kind::address: {
      std::string base;
      if (operand.symbol != UINT32_MAX)
        base = symbol_name(module, operand.symbol);
      else if (operand.reg != no_register)
        base = register_name(function, operand.reg);
      text += "[" + base;
      if (base.empty())
        text += std::to_string(operand.offset);
      else if (operand.offset != 0)
        text += "+" + std::to_string(operand.offset);
      text += "]";
      break;
    }
    case Operand::Kind::vector:
      text += "{";
      for (uint32_t i = 0; i < operand.vector_count; ++i)
        text += (i ? ", " : "") + register_name(function, operand.vector_regs[i]);
      text += "}";
      break;
    case Operand::Kind::symbol:
      text += symbol_name(module, operand.symbol);
      break;
    case Operand::Kind::label:
      text += "@" + std::to_string(operand.target);
      break;
    case Operand::Kind::function:
      text +=
          operand.target < module.functions.size() ? module.functions[operand.target].name : "?";
      break;
    case Operand::Kind::sink:
      text += "_";
      break;
    case Operand::Kind::none:
      break;
  }
  return text;
}

void add(std::string& text, std::string_view piece) {
  if (!piece.empty()) text += "." + std::string(piece);
}

// wmma.load/store/mma and mma.sync, with their qualifiers in PTX order.
std::string matrix_mnemonic(const Instruction& inst) {
  const Modifiers& mod = inst.mod;
  std::string text(opcode_name(inst.op));
  text += ".sync.aligned";
  if (inst.op == Opcode::mma) add(text, shape_name(mod.shape));
  add(text, layout_name(mod.layout_a));
  add(text, layout_name(mod.layout_b));
  if (inst.op != Opcode::mma) add(text, shape_name(mod.shape));
  if (inst.op == Opcode::mma && mod.satfinite) add(text, "satfinite");  // before mma's types
  add(text, space_name(inst.space));
  add(text, type_name(inst.type));
  const bool multiply = inst.op == Opcode::mma || inst.op == Opcode::wmma_mma;
  if (multiply && (inst.op == Opcode::mma || inst.source_type != DataType::f16)) {
    add(text, type_name(inst.source_type));
    add(text, type_name(mod.b_type == DataType::none ? inst.source_type : mod.b_type));
  }
  if (multiply) add(text, type_name(mod.accumulator_type));
  if (inst.op != Opcode::mma && mod.satfinite) add(text, "satfinite");
  return text;
}

std::string mnemonic(const Instruction& inst) {
  const Modifiers& mod = inst.mod;
  if (mod.shape != MatrixShape::none) return matrix_mnemonic(inst);
  if (inst.op == Opcode::ldmatrix)
    return "ldmatrix.sync.aligned.m8n8.x" + std::to_string(mod.vector_width) +
           (mod.transpose ? ".trans" : "") + (inst.space == StateSpace::shared ? ".shared" : "") +
           ".b16";
  std::string text(opcode_name(inst.op));
  if (mod.carry_in) text += "c";
  if (mod.uniform_prefetch) text += "u";
  switch (inst.op) {
    case Opcode::shfl:
    case Opcode::vote:
    case Opcode::redux:
      text += ".sync";
      break;
    case Opcode::match:
      add(text, vote_name(mod.vote));
      text += ".sync";
      break;
    case Opcode::testp:
      add(text, test_property_name(mod.test));
      break;
    case Opcode::prmt:
      add(text, permute_mode_name(mod.permute));
      break;
    case Opcode::bar:
      add(text, mod.barrier == BarrierMode::sync     ? "sync"
                : mod.barrier == BarrierMode::arrive ? "arrive"
                : mod.barrier == BarrierMode::reduce ? "red"
                : mod.barrier == BarrierMode::warp   ? "warp.sync"
                                                     : "");
      add(text, mod.barrier_reduction == BarrierReduction::popc   ? "popc"
                : mod.barrier_reduction == BarrierReduction::and_ ? "and"
                : mod.barrier_reduction == BarrierReduction::or_  ? "or"
                                                                  : "");
      break;
    case Opcode::cvta:
      if (!mod.to_generic) text += ".to";
      break;
    case Opcode::shf:
      text += mod.shift_left ? ".l" : ".r";
      text += mod.clamp ? ".clamp" : ".wrap";
      break;
    case Opcode::bmsk:
    case Opcode::szext:
      text += mod.clamp ? ".clamp" : ".wrap";
      break;
    case Opcode::tex:
      text += "." + geometry_name(mod.geometry, mod.layered, mod.cube);
      break;
    case Opcode::suld:
    case Opcode::sust:
      text += ".b." + geometry_name(mod.geometry, mod.layered, mod.cube);
      break;
    case Opcode::tld4:
      text += std::string(".") + "rgba"[mod.gather_component % 4] + "." +
              geometry_name(mod.geometry, mod.layered, mod.cube);
      break;
    default:
      break;
  }
  add(text, space_name(inst.space));
  if (inst.op == Opcode::membar) {
    add(text, mod.scope == MemoryScope::cta ? "cta" : mod.scope == MemoryScope::sys ? "sys" : "gl");
  } else if (mod.scope != MemoryScope::none) {
    add(text, mod.scope == MemoryScope::cta   ? "cta"
              : mod.scope == MemoryScope::gpu ? "gpu"
              : mod.scope == MemoryScope::sys ? "sys"
                                              : "cluster");
  }
  if (mod.order == MemoryOrder::volatile_) add(text, "volatile");
  if (mod.order == MemoryOrder::relaxed) add(text, "relaxed");
  if (mod.order == MemoryOrder::acquire) add(text, "acquire");
  if (mod.order == MemoryOrder::release) add(text, "release");
  if (mod.order == MemoryOrder::acq_rel) add(text, "acq_rel");
  if (mod.order == MemoryOrder::sc) add(text, "sc");
  if (mod.non_coherent) add(text, "nc");
  if (mod.prefetch_level) add(text, "L" + std::to_string(mod.prefetch_level));
  if (mod.atomic != AtomicOp::none) add(text, atomic_name(mod.atomic));
  if (mod.compare != CompareOp::none) add(text, compare_name(mod.compare));
  add(text, bool_op_name(mod.bool_op));
  add(text, shuffle_name(mod.shuffle));
  if (inst.op != Opcode::match) add(text, vote_name(mod.vote));
  add(text, mul_mode_name(mod.mul));
  if (mod.carry_out) add(text, "cc");
  if (mod.approx) add(text, "approx");
  if (mod.full) add(text, "full");
  if (mod.rounding != RoundingMode::none) add(text, rounding_name(mod.rounding));
  if (mod.ftz) add(text, "ftz");
  if (mod.sat) add(text, "sat");
  if (mod.uniform) add(text, "uni");
  if (mod.shift_right) add(text, "shiftamt");
  if (mod.vector_width > 1) add(text, "v" + std::to_string(mod.vector_width));
  add(text, type_name(inst.type));
  if (inst.source_type != DataType::none && inst.op != Opcode::setp)
    add(text, type_name(inst.source_type));
  if (mod.b_type != DataType::none) add(text, type_name(mod.b_type));
  if (mod.accumulate) add(text, "add");
  if (inst.op == Opcode::suld || inst.op == Opcode::sust)
    add(text, mod.boundary == SurfaceBoundary::trap    ? "trap"
              : mod.boundary == SurfaceBoundary::clamp ? "clamp"
                                                       : "zero");
  return text;
}

}  // namespace

std::string format_instruction(const Module& module, const Function& function,
                               const Instruction& inst) {
  if (inst.op == Opcode::unsupported)
    return function.unsupported_at(static_cast<uint32_t>(&inst - function.instructions.data()))
        .text;
  std::string text;
  if (inst.guard_reg != no_register)
    text += std::string("@") + (inst.guard_negated ? "!" : "") +
            register_name(function, inst.guard_reg) + " ";
  text += mnemonic(inst);
  if (inst.op == Opcode::call) {
    auto list = [&](const std::vector<uint32_t>& symbols) {
      std::string out = "(";
      for (size_t i = 0; i < symbols.size(); ++i)
        out += (i ? ", " : "") + symbol_name(module, symbols[i]);
      return out + ")";
    };
    text += " ";
    if (!inst.call_returns.empty()) text += list(inst.call_returns) + ", ";
    text += operand_text(module, function, inst, 0) + ", " + list(inst.call_arguments);
    return text;
  }
  for (uint32_t i = 0; i < inst.operand_count; ++i) {
    text += i == 0 ? " " : ", ";
    // [handle, {coordinates}]: tex's, tld4's and suld's operands 1 and 2, sust's 0 and 1.
    const uint32_t handle = inst.op == Opcode::sust ? 0 : 1;
    if ((inst.op == Opcode::tex || inst.op == Opcode::tld4 || inst.op == Opcode::suld ||
         inst.op == Opcode::sust) &&
        i == handle) {
      text += "[" + operand_text(module, function, inst, i) + ", " +
              operand_text(module, function, inst, i + 1) + "]";
      ++i;
      continue;
    }
    text += operand_text(module, function, inst, i);
    if (i == 0 && inst.dest_pred != no_register)
      text += "|" + register_name(function, inst.dest_pred);
  }
  return text;
}

}  // namespace ohmvp::gpu
