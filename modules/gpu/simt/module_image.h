#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "modules/gpu/ptx/program.h"

namespace ohmvp::gpu {

// A loaded module's storage in device memory: one allocation of module_segment_bytes holding
// its .global variables from offset 0 and, from const_segment_offset, a copy of its constant
// bank. ld.const reads the bank itself (the constant cache); generic and global addresses of
// __constant__ data lie in the copy (memory_windows.h).
uint64_t const_segment_offset(const Module& module);
// Where the constant bank's copy lies for a segment placed at `segment_base`.
inline uint64_t const_segment_base(const Module& module, uint64_t segment_base) {
  return segment_base + const_segment_offset(module);
}
uint64_t module_segment_bytes(const Module& module);

// The bytes a module-scope .global or .const variable starts with once the loader has placed
// the module's segment at `segment_base`: its initialiser with every variable's address filled
// in (Symbol::addresses).
std::vector<uint8_t> initial_bytes(const Module& module, const Symbol& symbol,
                                   uint64_t segment_base);

// The module-scope .global or .const variable called `name` (a .const one's copy in the segment
// is what its device address is), or null.
const Symbol* find_variable(const Module& module, const std::string& name);
uint64_t variable_address(const Module& module, const Symbol& variable, uint64_t segment_base);

// Writes what the module's segment starts with (initialised .global variables, the constant
// bank's copy) through `write`, the segment placed at `segment_base` and zero elsewhere; returns
// the constant bank.
using SegmentWriter = std::function<void(uint64_t address, const uint8_t* bytes, uint64_t size)>;
std::vector<uint8_t> place_module(const Module& module, uint64_t segment_base,
                                  const SegmentWriter& write);

}  // namespace ohmvp::gpu
