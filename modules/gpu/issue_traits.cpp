#include "modules/gpu/issue_traits.h"

#include <algorithm>

namespace ohmvp::gpu {

IssueTraits issue_traits(const Instruction& instruction) {
  IssueTraits traits;
  traits.memory = is_memory_access(instruction.op);
  traits.drains_memory = drains_memory(instruction.op);
  traits.maybe_shared = traits.memory && (instruction.space == StateSpace::shared ||
                                          instruction.space == StateSpace::generic);
  traits.shared_from_step = traits.maybe_shared && step_records_shared(instruction);
  traits.constant = traits.memory && (instruction.space == StateSpace::param ||
                                      instruction.space == StateSpace::const_);
  traits.bank_bytes = uint8_t(bank_access_bytes(instruction));
  traits.invalidates_l1 = (instruction.op == Opcode::membar || instruction.op == Opcode::fence) &&
                          reaches_other_sms(instruction.mod.scope);
  return traits;
}

bool is_fragment_access(Opcode op) {
  return op == Opcode::wmma_load_a || op == Opcode::wmma_load_b || op == Opcode::wmma_load_c ||
         op == Opcode::wmma_store_d;
}

bool is_memory_access(Opcode op) {
  return op == Opcode::ld || op == Opcode::ldu || op == Opcode::st || op == Opcode::atom ||
         op == Opcode::red || op == Opcode::tex || op == Opcode::tld4 || op == Opcode::suld ||
         op == Opcode::sust || op == Opcode::ldmatrix || is_fragment_access(op);
}

bool drains_memory(Opcode op) {
  return op == Opcode::membar || op == Opcode::fence || op == Opcode::exit || op == Opcode::call ||
         op == Opcode::ret;
}

const Operand* address_operand(const Instruction& instruction) {
  for (uint8_t i = 0; i < instruction.operand_count; ++i) {
    if (instruction.operands[i].kind == Operand::Kind::address) return &instruction.operands[i];
  }
  return nullptr;
}

bool step_records_shared(const Instruction& instruction) {
  const Opcode op = instruction.op;
  const bool has_destination = op == Opcode::ld || op == Opcode::ldu || op == Opcode::atom;
  if (!has_destination && op != Opcode::st && op != Opcode::red) return false;
  const Operand* address = address_operand(instruction);
  return instruction.guard_reg == no_register &&
         address == &instruction.operands[has_destination ? 1 : 0] && address->symbol == UINT32_MAX;
}

uint32_t bank_access_bytes(const Instruction& instruction) {
  const uint32_t bytes =
      uint32_t(type_bytes(instruction.type)) * std::max<uint32_t>(1, instruction.mod.vector_width);
  return std::clamp<uint32_t>(bytes, 1, 16);
}

}  // namespace ohmvp::gpu
