#include "modules/gpu/ptx/ptx_layout.h"

#include <algorithm>

namespace ohmvp::gpu {
namespace {

uint64_t align_up(uint64_t value, uint64_t align) {
  return align <= 1 ? value : (value + align - 1) / align * align;
}

// Places `symbol` at the end of a block of `bytes` and grows the block.
void place(Symbol& symbol, uint64_t& bytes) {
  symbol.offset = align_up(bytes, symbol.align);
  bytes = symbol.offset + symbol.size;
}

// Shared symbols used by `function` and everything it calls.
void collect_shared_uses(const Module& module, uint32_t function, std::vector<bool>& visited,
                         std::vector<bool>& used) {
  if (visited[function]) return;
  visited[function] = true;
  for (const Instruction& inst : module.functions[function].instructions) {
    for (uint32_t i = 0; i < inst.operand_count; ++i) {
      const Operand& operand = inst.operands[i];
      if (operand.kind == Operand::Kind::function && operand.target != no_target)
        collect_shared_uses(module, operand.target, visited, used);
      if ((operand.kind == Operand::Kind::address || operand.kind == Operand::Kind::symbol) &&
          operand.symbol != UINT32_MAX &&
          module.symbols[operand.symbol].space == StateSpace::shared)
        used[operand.symbol] = true;
    }
  }
}

}  // namespace

void lay_out_symbols(Module& module) {
  std::vector<bool> is_parameter(module.symbols.size(), false);
  for (Function& function : module.functions) {
    function.param_bytes = function.return_bytes = 0;
    function.local_bytes = function.call_param_bytes = 0;
    for (uint32_t symbol : function.params) {
      place(module.symbols[symbol], function.param_bytes);
      is_parameter[symbol] = true;
    }
    for (uint32_t symbol : function.return_params) {
      place(module.symbols[symbol], function.return_bytes);
      is_parameter[symbol] = true;
    }
  }

  module.global_bytes = module.const_bytes = 0;
  uint64_t common_shared_bytes = 0;
  auto owned_by_kernel = [&](const Symbol& symbol) {
    return symbol.function >= 0 && module.functions[symbol.function].is_kernel;
  };
  for (uint32_t index = 0; index < module.symbols.size(); ++index) {
    Symbol& symbol = module.symbols[index];
    Function* owner = symbol.function >= 0 ? &module.functions[symbol.function] : nullptr;
    switch (symbol.space) {
      case StateSpace::global:
        place(symbol, module.global_bytes);
        break;
      case StateSpace::const_:
        place(symbol, module.const_bytes);
        break;
      case StateSpace::local:
        place(symbol, owner->local_bytes);
        break;
      case StateSpace::param:
        if (!is_parameter[index]) place(symbol, owner->call_param_bytes);
        break;
      case StateSpace::shared:
        if (symbol.is_extern)
          symbol.offset = 0;
        else if (!owned_by_kernel(symbol))
          place(symbol, common_shared_bytes);
        break;
      default:
        break;
    }
  }

  module.static_shared_bytes.assign(module.functions.size(), 0);
  for (uint32_t f = 0; f < module.functions.size(); ++f) {
    std::vector<bool> visited(module.functions.size(), false);
    std::vector<bool> used(module.symbols.size(), false);
    collect_shared_uses(module, f, visited, used);
    uint64_t bytes = 0;
    for (uint32_t index = 0; index < module.symbols.size(); ++index) {
      const Symbol& symbol = module.symbols[index];
      if (used[index] && symbol.space == StateSpace::shared && !symbol.is_extern &&
          !owned_by_kernel(symbol))
        bytes = std::max(bytes, symbol.offset + symbol.size);
    }
    for (Symbol& symbol : module.symbols)
      if (symbol.function == static_cast<int32_t>(f) && symbol.space == StateSpace::shared &&
          !symbol.is_extern && module.functions[f].is_kernel)
        place(symbol, bytes);
    module.static_shared_bytes[f] = bytes;
  }
}

}  // namespace ohmvp::gpu
