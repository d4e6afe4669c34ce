#include "platforms/kernel_listing.h"

#include <iomanip>

#include "modules/common/demangle.h"
#include "modules/common/errors.h"
#include "modules/gpu/architecture.h"
#include "modules/gpu/occupancy.h"
#include "modules/gpu/ptx/ptx_names.h"
#include "modules/gpu/register_pressure.h"
#include "modules/gpu/simt/kernel_layout.h"

namespace ohmvp {

namespace {

// The first of the kernel's names, shortest first, that the module resolves to it alone.
std::string shortest_name(const gpu::Module& module, const gpu::Function& kernel) {
  for (const std::string& form : gpu::kernel_name_forms(kernel.name)) {
    try {
      if (&module.kernel(form) == &kernel) return form;
    } catch (const ConfigError&) {
      // fits several kernels: try a longer form
    }
  }
  return kernel.name;
}

// ".f32", ".b8[12]" for a struct or array passed by value.
std::string param_type(const gpu::Symbol& param) {
  const uint64_t element = gpu::type_bytes(param.type);
  std::string text = gpu::type_text(param.type);
  if (element != 0 && param.size != element)
    text += "[" + std::to_string(param.size / element) + "]";
  return text;
}

void print_parameters(std::ostream& out, const gpu::Module& module, const gpu::Function& kernel) {
  const std::vector<std::string> cpp_types = parameter_types(demangle(kernel.name));
  out << "  parameters  " << kernel.params.size() << " (" << kernel.param_bytes << " bytes)\n";
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const gpu::Symbol& param = module.symbols[kernel.params[i]];
    const std::string size = std::to_string(param.size) + " bytes";
    out << "    " << std::left << std::setw(3) << i << std::setw(12) << param_type(param)
        << "offset " << std::setw(5) << param.offset;
    if (cpp_types.size() == kernel.params.size()) {
      out << std::setw(10) << size << cpp_types[i] << "\n";
    } else {
      out << size << "\n";
    }
  }
}

void print_resources(std::ostream& out, const gpu::Module& module, const gpu::Function& kernel) {
  try {
    const gpu::KernelLayout layout(module, kernel.name);
    out << "  shared      " << layout.static_shared_bytes() << " bytes static\n";
    out << "  local       " << layout.local_bytes_per_thread() << " bytes per thread"
        << (layout.has_call_stack() ? " (with the call stack)" : "") << "\n";
    out << "  registers   " << gpu::live_registers_per_thread(module, layout.kernel_index())
        << " a thread live at once (what occupancy counts), "
        << gpu::ptx_registers_per_thread(kernel) << " declared (PTX's virtual registers)";
    if (kernel.max_registers != 0) out << ", at most " << kernel.max_registers << " (.maxnreg)";
    out << "\n";
    const std::array<uint32_t, 3>& required = kernel.required_block;
    if (required[0] != 0) {
      out << "  block       (" << required[0] << "," << required[1] << "," << required[2]
          << ") only (.reqntid)\n";
    } else if (kernel.max_threads != 0) {
      out << "  block       at most " << kernel.max_threads << " threads (__launch_bounds__)\n";
    }
    if (layout.uses_heap()) out << "  heap        calls malloc or free\n";
    const gpu::KernelNeed need = gpu::kernel_need(layout);
    out << "  needs       compute capability " << gpu::capability_name(need.capability);
    if (need.instruction != nullptr) out << " for " << gpu::required_feature(*need.instruction);
    if (gpu::uses_tensor_cores(layout)) out << ", and warps of 32 lanes (tensor cores)";
    out << "\n";
  } catch (const ConfigError& error) {
    out << "  cannot run  " << error.what() << "\n";
  }
}

}  // namespace

void print_kernels(std::ostream& out, const gpu::Module& module) {
  size_t count = 0;
  for (const gpu::Function& function : module.functions) count += function.is_kernel;
  out << module.file << ": " << count << (count == 1 ? " kernel" : " kernels") << "\n";
  for (const gpu::Function& kernel : module.functions) {
    if (!kernel.is_kernel) continue;
    const std::string name = shortest_name(module, kernel);
    const std::string signature = demangle(kernel.name);
    out << "\n\"" << name << "\"";
    if (signature != name) out << "  " << signature;
    if (kernel.name != name) out << "  (.entry " << kernel.name << ")";
    out << "\n";
    print_parameters(out, module, kernel);
    print_resources(out, module, kernel);
  }
}

}  // namespace ohmvp
