#include "modules/gpu/architecture.h"

#include "modules/common/demangle.h"
#include "modules/common/errors.h"
#include "modules/gpu/ptx/ptx_disassembler.h"

namespace ohmvp::gpu {

namespace {

bool is_integer_fragment(DataType type) {
  return type == DataType::s8 || type == DataType::u8 || type == DataType::s32;
}

bool is_integer_wmma(const Instruction& instruction) {
  switch (instruction.op) {
    case Opcode::wmma_load_a:
    case Opcode::wmma_load_b:
    case Opcode::wmma_load_c:
    case Opcode::wmma_store_d:
      return is_integer_fragment(instruction.type);
    case Opcode::wmma_mma:
      return is_integer_fragment(instruction.source_type);
    default:
      return false;
  }
}

bool is_bf16(DataType type) {
  return type == DataType::bf16 || type == DataType::bf16x2;
}

bool is_half(DataType type) {
  return type == DataType::f16 || type == DataType::f16x2 || is_bf16(type);
}

// cvt to or from bf16, and cvt.rn.f16x2.f32 (two floats packed): PTX ISA 7.0, sm_80.
bool is_ampere_cvt(const Instruction& instruction) {
  return instruction.op == Opcode::cvt &&
         (is_bf16(instruction.type) || is_bf16(instruction.source_type) ||
          instruction.type == DataType::f16x2);
}

// Arithmetic on bf16 (fma, min, max, neg, abs: sm_80; add, sub, mul, set, atom: later still).
bool is_bf16_arithmetic(const Instruction& instruction) {
  return instruction.op != Opcode::cvt && instruction.op != Opcode::ld &&
         instruction.op != Opcode::st && instruction.op != Opcode::mov && is_bf16(instruction.type);
}

struct FeatureRule {
  bool (*applies)(const Instruction&);
  ComputeCapability capability;
  const char* feature;  // as the PTX ISA names it
};

// Features beyond sm_70, newest first (the first that applies names what an instruction needs),
// from the PTX ISA's "Target ISA notes" of each instruction.
constexpr FeatureRule k_rules[] = {
    {[](const Instruction& i) { return i.op == Opcode::redux; }, ComputeCapability::sm_80,
     "redux.sync"},
    {is_ampere_cvt, ComputeCapability::sm_80, "cvt to or from bf16, or to f16x2"},
    {[](const Instruction& i) {
       return (i.op == Opcode::min || i.op == Opcode::max) && is_half(i.type);
     },
     ComputeCapability::sm_80, "min/max on f16, f16x2, bf16 or bf16x2"},
    {is_bf16_arithmetic, ComputeCapability::sm_80, "bf16 arithmetic"},
    {[](const Instruction& i) { return i.mod.shape == MatrixShape::m8n8k32; },
     ComputeCapability::sm_75, "the 4-bit tensor-core mode (.m8n8k32 .s4/.u4)"},
    {[](const Instruction& i) { return i.op == Opcode::mma && i.mod.shape != MatrixShape::m8n8k4; },
     ComputeCapability::sm_75, "mma.sync .m16n8k8 or .m8n8k16"},
    {[](const Instruction& i) { return i.op == Opcode::ldmatrix; }, ComputeCapability::sm_75,
     "ldmatrix"},
    {[](const Instruction& i) { return i.op == Opcode::tanh; }, ComputeCapability::sm_75,
     "tanh.approx"},
    {[](const Instruction& i) { return i.op == Opcode::ex2 && is_half(i.type); },
     ComputeCapability::sm_75, "ex2.approx on f16 or f16x2"},
    {is_integer_wmma, ComputeCapability::sm_72, "integer wmma (.s8/.u8/.s32)"},
};

const FeatureRule* rule_for(const Instruction& instruction) {
  for (const FeatureRule& rule : k_rules)
    if (rule.applies(instruction)) return &rule;
  return nullptr;
}

}  // namespace

std::string capability_name(ComputeCapability capability) {
  const unsigned value = static_cast<unsigned>(capability);
  const char* family = capability == ComputeCapability::sm_70   ? ", Volta"
                       : capability == ComputeCapability::sm_75 ? ", Turing"
                       : capability == ComputeCapability::sm_80 ? ", Ampere"
                                                                : "";
  return std::to_string(value / 10) + "." + std::to_string(value % 10) + " (sm_" +
         std::to_string(value) + family + ")";
}

ComputeCapability required_capability(const Instruction& instruction) {
  const FeatureRule* rule = rule_for(instruction);
  return rule ? rule->capability : ComputeCapability::sm_70;
}

const char* required_feature(const Instruction& instruction) {
  const FeatureRule* rule = rule_for(instruction);
  return rule ? rule->feature : "";
}

KernelNeed kernel_need(const KernelLayout& layout) {
  const Module& module = layout.module();
  KernelNeed need;
  const auto visit = [&](const Function& function) {
    for (const Instruction& instruction : function.instructions) {
      const ComputeCapability needed = required_capability(instruction);
      if (needed > need.capability) need = {needed, &function, &instruction};
    }
  };
  visit(layout.kernel());
  for (uint32_t f = 0; f < module.functions.size(); ++f)
    if (f != layout.kernel_index() && layout.reachable(f)) visit(module.functions[f]);
  return need;
}

void check_architecture(const KernelLayout& layout, ComputeCapability gpu) {
  const KernelNeed need = kernel_need(layout);
  if (need.capability <= gpu) return;
  const Module& module = layout.module();
  const std::string& kernel = layout.kernel().name;
  std::string where = "kernel '" + demangle(kernel) + "'";
  if (need.function->name != kernel) where += " (in '" + demangle(need.function->name) + "')";
  throw ConfigError(module.file + ":" + std::to_string(need.instruction->source_line) + ": " +
                    where + " uses " + required_feature(*need.instruction) + " ('" +
                    format_instruction(module, *need.function, *need.instruction) +
                    "'), which needs compute capability " + capability_name(need.capability) +
                    " or later; this GPU is " + capability_name(gpu) + " (gpu.compute_capability)");
}

}  // namespace ohmvp::gpu
