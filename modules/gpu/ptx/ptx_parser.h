#pragma once

#include <string>
#include <string_view>

#include "modules/gpu/ptx/program.h"

namespace ohmvp::gpu {

// Parses the PTX text of one module (as `nvcc -ptx` emits it) into the decoded program form,
// lays out its symbols and computes every branch's reconvergence point. Anything unsupported or
// malformed throws ConfigError "<file>:<line>: <problem> in '<source line>'". See docs/gpu_ptx.md.
Module parse_ptx(std::string_view text, const std::string& file_name);

// Reads and parses a .ptx file; an unreadable file is a ConfigError naming the path.
Module load_ptx_file(const std::string& path);

}  // namespace ohmvp::gpu
