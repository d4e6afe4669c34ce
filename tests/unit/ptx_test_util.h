#pragma once

#include <filesystem>
#include <string>

#include "modules/gpu/ptx/ptx_parser.h"

namespace ohmvp::gpu::test {

inline const std::filesystem::path k_ptx_fixtures =
    std::filesystem::path(OHMVP_SOURCE_DIR) / "tests" / "data" / "ptx";

// The three module directives every snippet needs (lines 1-3), then `body` from line 4.
inline std::string snippet_text(const std::string& body) {
  return ".version 9.0\n.target sm_75\n.address_size 64\n" + body;
}
inline Module parse_snippet(const std::string& body) {
  return parse_ptx(snippet_text(body), "snippet.ptx");
}

// A module of one kernel `k(.param .u32 n)` with registers %p0..%p3 (indices 0..3) and
// %r0..%r5 (indices 4..9) around `body`.
inline Module small_kernel(const std::string& body) {
  return parse_snippet(
      ".visible .entry k(.param .u32 n)\n{\n.reg .pred %p<4>;\n.reg .b32 %r<6>;\n" + body + "}\n");
}

inline Module load_fixture(const std::string& name) {
  return load_ptx_file((k_ptx_fixtures / name).string());
}

inline const Function& function_named(const Module& module, const std::string& name) {
  const Function* function = module.find_function(name);
  if (function == nullptr) throw std::runtime_error("no function " + name);
  return *function;
}

inline uint32_t symbol_named(const Module& module, const std::string& name, int32_t function = -2) {
  for (uint32_t i = 0; i < module.symbols.size(); ++i)
    if (module.symbols[i].name == name &&
        (function == -2 || module.symbols[i].function == function))
      return i;
  throw std::runtime_error("no symbol " + name);
}

inline uint32_t register_named(const Function& function, const std::string& name) {
  for (uint32_t i = 0; i < function.register_names.size(); ++i)
    if (function.register_names[i] == name) return i;
  throw std::runtime_error("no register " + name);
}

}  // namespace ohmvp::gpu::test
