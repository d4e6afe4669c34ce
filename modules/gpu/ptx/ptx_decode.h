#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "modules/gpu/ptx/instruction.h"
#include "modules/gpu/ptx/program.h"

namespace ohmvp::gpu {

// One operand as the parser read it, before the instruction's types are known: registers,
// addresses, symbols and labels are already resolved in `operand`; an immediate keeps its literal
// text until decode_instruction converts it to the bits of the type its position has.
struct RawOperand {
  Operand operand;
  std::string literal;
  bool literal_negative = false;
  uint32_t pipe_predicate = no_register;  // the `p` of `d|p`
  uint8_t zero_elements = 0;  // a vector's elements written as the literal 0 (bit k: element k)
};

// A problem in one instruction; the parser adds file, line and source text. `unsupported`: PTX
// the ISA has but the model does not run (unsupported_ptx.h), which the parser keeps as
// Opcode::unsupported for the kernels that reach it to be refused.
struct DecodeError {
  std::string message;
  bool unsupported = false;
};

// The decoding tables: splits `opcode_word` (e.g. "ld.global.nc.v4.f32") into the opcode and its
// modifiers, checks the operands' count and kinds against the opcode's shape and their registers'
// declared types against the types their places take (operand_type_rules.h), converts
// immediates, and sets the unit class. `function` holds the registers. `call` is not decoded here
// (the parser builds it). Throws DecodeError.
// Whether `base` (an instruction's name before its first '.') names a PTX instruction, one this
// model runs or one it refuses.
bool is_instruction_name(std::string_view base);

void decode_instruction(std::string_view opcode_word, std::vector<RawOperand>& operands,
                        const Function& function, Instruction& out);

// The unit class of a decoded instruction (see docs/gpu_ptx.md for the mapping).
UnitClass unit_class_of(const Instruction& instruction);

}  // namespace ohmvp::gpu
