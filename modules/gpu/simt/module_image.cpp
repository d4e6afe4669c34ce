#include "modules/gpu/simt/module_image.h"

#include <algorithm>

#include "modules/gpu/simt/kernel_layout.h"

namespace ohmvp::gpu {

uint64_t const_segment_offset(const Module& module) {
  return align_up(module.global_bytes, 256);
}

uint64_t module_segment_bytes(const Module& module) {
  return module.const_bytes == 0 ? module.global_bytes
                                 : const_segment_offset(module) + module.const_bytes;
}

std::vector<uint8_t> initial_bytes(const Module& module, const Symbol& symbol,
                                   uint64_t segment_base) {
  std::vector<uint8_t> bytes = symbol.initializer;
  for (const AddressInitializer& address : symbol.addresses) {
    const Symbol& target = module.symbols[address.symbol];
    uint64_t value = target.offset + static_cast<uint64_t>(address.addend);
    if (target.space == StateSpace::global)
      value += segment_base;
    else if (address.generic)
      value += const_segment_base(module, segment_base);
    for (uint32_t b = 0; b < address.width; ++b) {
      const uint32_t bit = address.shift + 8 * b;
      bytes[address.offset + b] = bit < 64 ? static_cast<uint8_t>(value >> bit) : 0;
    }
  }
  return bytes;
}

const Symbol* find_variable(const Module& module, const std::string& name) {
  for (const Symbol& symbol : module.symbols)
    if (symbol.name == name && symbol.function < 0 &&
        (symbol.space == StateSpace::global || symbol.space == StateSpace::const_))
      return &symbol;
  return nullptr;
}

uint64_t variable_address(const Module& module, const Symbol& variable, uint64_t segment_base) {
  return variable.offset + (variable.space == StateSpace::const_
                                ? const_segment_base(module, segment_base)
                                : segment_base);
}

std::vector<uint8_t> place_module(const Module& module, uint64_t segment_base,
                                  const SegmentWriter& write) {
  std::vector<uint8_t> bank(module.const_bytes, 0);
  for (const Symbol& symbol : module.symbols) {
    if (symbol.initializer.empty() || symbol.function >= 0) continue;
    const std::vector<uint8_t> bytes = initial_bytes(module, symbol, segment_base);
    if (symbol.space == StateSpace::global)
      write(segment_base + symbol.offset, bytes.data(), bytes.size());
    else if (symbol.space == StateSpace::const_)
      std::copy(bytes.begin(), bytes.end(), bank.begin() + static_cast<ptrdiff_t>(symbol.offset));
  }
  if (!bank.empty()) write(const_segment_base(module, segment_base), bank.data(), bank.size());
  return bank;
}

}  // namespace ohmvp::gpu
