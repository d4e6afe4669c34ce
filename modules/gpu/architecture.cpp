#include "modules/gpu/architecture.h"

#include <utility>

#include "modules/common/demangle.h"
#include "modules/common/errors.h"
#include "modules/gpu/ptx/ptx_disassembler.h"
#include "modules/gpu/tensor_core_timing.h"

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

// Calls `visit(function, instruction)` for the kernel's instructions, then for those of each
// function it may call.
template <class Visit>
void for_each_instruction(const KernelLayout& layout, Visit visit) {
  const Module& module = layout.module();
  const auto visit_function = [&](const Function& function) {
    for (const Instruction& instruction : function.instructions) visit(function, instruction);
  };
  visit_function(layout.kernel());
  for (uint32_t f = 0; f < module.functions.size(); ++f)
    if (f != layout.kernel_index() && layout.reachable(f)) visit_function(module.functions[f]);
}

// "<file>:<line>: kernel 'k' (in 'f') uses <what> ('<instruction>')".
std::string use_of(const KernelLayout& layout, const Function& function,
                   const Instruction& instruction, const std::string& what) {
  const Module& module = layout.module();
  const std::string& kernel = layout.kernel().name;
  std::string where = "kernel '" + demangle(kernel) + "'";
  if (function.name != kernel) where += " (in '" + demangle(function.name) + "')";
  return module.file + ":" + std::to_string(instruction.source_line) + ": " + where + " uses " +
         what + " ('" + format_instruction(module, function, instruction) + "')";
}

// Whether `instruction` of `function` is written before what `found` (of `found_function`) is:
// the first found, or an earlier PTX line of the same function. The load-hoisting pass reorders
// a function's instructions, and an error names the line a reader meets first either way.
bool written_before(const Function& function, const Instruction& instruction,
                    const Function* found_function, const Instruction* found) {
  return !found || (found_function == &function && instruction.source_line < found->source_line);
}

// The first tensor-core instruction of the kernel or a function it calls, with its function;
// null pointers when there is none.
std::pair<const Function*, const Instruction*> first_tensor_core_use(const KernelLayout& layout) {
  std::pair<const Function*, const Instruction*> use{nullptr, nullptr};
  for_each_instruction(layout, [&](const Function& f, const Instruction& i) {
    if (is_tensor_core(i) && written_before(f, i, use.first, use.second)) use = {&f, &i};
  });
  return use;
}

}  // namespace

bool is_tensor_core(const Instruction& instruction) {
  switch (instruction.op) {
    case Opcode::wmma_load_a:
    case Opcode::wmma_load_b:
    case Opcode::wmma_load_c:
    case Opcode::wmma_store_d:
    case Opcode::wmma_mma:
    case Opcode::mma:
    case Opcode::ldmatrix:
      return true;
    default:
      return false;
  }
}

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
  KernelNeed need;
  for_each_instruction(layout, [&](const Function& function, const Instruction& instruction) {
    const ComputeCapability needed = required_capability(instruction);
    if (needed > need.capability ||
        (needed == need.capability && need.instruction &&
         written_before(function, instruction, need.function, need.instruction)))
      need = {needed, &function, &instruction};
  });
  return need;
}

void check_architecture(const KernelLayout& layout, ComputeCapability gpu) {
  const KernelNeed need = kernel_need(layout);
  if (need.capability <= gpu) return;
  throw ConfigError(
      use_of(layout, *need.function, *need.instruction, required_feature(*need.instruction)) +
      ", which needs compute capability " + capability_name(need.capability) +
      " or later; this GPU is " + capability_name(gpu) + " (gpu.compute_capability)");
}

bool uses_tensor_cores(const KernelLayout& layout) {
  return first_tensor_core_use(layout).second != nullptr;
}

void check_tensor_modes(const KernelLayout& layout, const TensorCoreConfig& tensor) {
  const TensorCoreTiming timing(tensor);
  for_each_instruction(layout, [&](const Function& function, const Instruction& instruction) {
    if (instruction.unit != UnitClass::tensor || timing.schedule(instruction).supported) return;
    const std::string mode = tensor_mode_name(tensor_mode_of(instruction));
    throw ConfigError(use_of(layout, function, instruction, "a matrix multiply") + " in the " +
                      mode + " mode, which this GPU's tensor cores lack (gpu.tensor_core." + mode +
                      ".sets is 0)");
  });
}

void check_warp_size(const KernelLayout& layout, uint32_t warp_size) {
  if (warp_size == 32) return;
  const auto [function, instruction] = first_tensor_core_use(layout);
  if (!instruction) return;
  throw ConfigError(use_of(layout, *function, *instruction, "a tensor-core instruction") +
                    ", whose fragments need a warp of 32 lanes; this GPU's warps have " +
                    std::to_string(warp_size) + " (gpu.warp_size)");
}

void check_launch_dimensions(const Dim3& grid, const Dim3& block, const std::string& where) {
  const auto check = [&where](const char* dimension, uint32_t value, uint32_t limit) {
    if (value > limit)
      throw ConfigError(where + ": " + dimension + " is " + std::to_string(value) +
                        "; CUDA allows at most " + std::to_string(limit));
  };
  check("block.x", block.x, 1024);
  check("block.y", block.y, 1024);
  check("block.z", block.z, 64);
  check("grid.x", grid.x, 0x7fffffff);
  check("grid.y", grid.y, 65535);
  check("grid.z", grid.z, 65535);
}

}  // namespace ohmvp::gpu
