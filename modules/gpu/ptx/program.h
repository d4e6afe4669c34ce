#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "modules/gpu/ptx/instruction.h"
#include "modules/gpu/ptx/ptx_types.h"

namespace ohmvp::gpu {

// An element of an initialiser that holds a variable's address (`generic(x)+8`, or some of its
// bytes: `0xFF00(generic(x))`), which the loader fills in once it has placed the module's
// segments: bytes [offset, offset + width) of the initialiser get (address + addend) >> shift.
// The address is the symbol's generic address, or with `generic` false its address in its own
// state space (the same for .global).
struct AddressInitializer {
  uint64_t offset = 0;
  uint32_t width = 8;
  uint32_t symbol = 0;  // a module-scope .global or .const variable
  bool generic = false;
  int64_t addend = 0;
  uint32_t shift = 0;
};

// A named piece of storage in a PTX module: a module-scope .global/.const/.shared variable, a
// function's .local or .shared variable, a kernel or function parameter, or a call-site .param.
// `offset` is its place inside the block that holds its space (see Function and Module); the
// loader turns global offsets into device addresses.
struct Symbol {
  std::string name;
  StateSpace space = StateSpace::global;
  DataType type = DataType::b8;
  uint32_t align = 1;
  uint64_t size = 0;       // bytes; 0 for `.extern .shared x[]`
  bool is_extern = false;  // .extern .shared: starts after the static shared bytes
  uint64_t offset = 0;
  std::vector<uint8_t> initializer;  // the first bytes, little-endian; the rest is zero
  std::vector<AddressInitializer> addresses;  // where initializer holds variables' addresses
  int32_t function = -1;             // owning function, -1 at module scope
};

// An instruction the PTX ISA has but the model does not run, at instruction index `pc` of its
// function (Opcode::unsupported there): its source text and why it is refused.
struct UnsupportedInstruction {
  uint32_t pc = 0;
  std::string text;
  std::string reason;
};

struct Function {
  std::string name;
  bool is_kernel = false;  // .entry
  bool is_visible = false;
  bool defined = false;  // has a body; false for a declaration such as `.extern .func vprintf`

  // The CUDA runtime's device functions, declared without a body, that the interpreter
  // executes: assert() calls __assertfail when its condition fails (a device fault that quotes
  // the assertion), printf calls vprintf (the text goes to the launch's printf buffer),
  // malloc/free and new/delete use the device heap, and <<<>>> in device code (dynamic
  // parallelism) takes a parameter buffer and launches it (CUDA 12's __cudaCDP2 names, and the
  // same functions' names before them).
  bool is_assertion_failure() const { return !defined && name == "__assertfail"; }
  bool is_printf() const { return !defined && name == "vprintf"; }
  bool is_heap_call() const { return !defined && (name == "malloc" || name == "free"); }
  bool is_parameter_buffer_call() const {
    return !defined &&
           (name == "__cudaCDP2GetParameterBufferV2" || name == "cudaGetParameterBufferV2");
  }
  bool is_device_launch_call() const {
    return !defined && (name == "__cudaCDP2LaunchDeviceV2" || name == "cudaLaunchDeviceV2");
  }
  // cudaGetLastError / cudaPeekAtLastError in device code: what the thread's last device
  // launch left.
  bool is_last_error_call() const {
    return !defined && (name == "__cudaCDP2GetLastError" || name == "__cudaCDP2PeekAtLastError" ||
                        name == "cudaGetLastError" || name == "cudaPeekAtLastError");
  }
  bool is_runtime_call() const {
    return is_assertion_failure() || is_printf() || is_heap_call() || is_parameter_buffer_call() ||
           is_device_launch_call() || is_last_error_call();
  }

  // Symbols of this function, by index into Module::symbols. Parameter offsets are inside the
  // function's parameter block (kernel: the launch's argument buffer, in declaration order with
  // each parameter's alignment); return parameters likewise in their own block.
  std::vector<uint32_t> params;
  std::vector<uint32_t> return_params;
  uint64_t param_bytes = 0;
  uint64_t return_bytes = 0;

  // Per-thread .local storage (stack depots): offsets inside the thread's local frame.
  uint64_t local_bytes = 0;
  // Call-site .param variables declared in the body: offsets inside a per-thread block.
  uint64_t call_param_bytes = 0;

  // Registers of every scope flattened to indices 0..register_count-1 (an inner scope's
  // redeclared name is a different index). %SP and %SPL are ordinary registers here.
  uint32_t register_count = 0;
  std::vector<DataType> register_types;  // as declared: .b32, .u32, .f32, .pred, ...
  std::vector<std::string> register_names;

  std::vector<Instruction> instructions;
  std::vector<UnsupportedInstruction> unsupported;  // in pc order

  // What the Opcode::unsupported instruction at `pc` was.
  const UnsupportedInstruction& unsupported_at(uint32_t pc) const;

  // Threads a block may have at most (.maxntid or .reqntid; 0 when absent), the block shape
  // .reqntid demands (0s when absent), .minnctapersm.
  uint32_t max_threads = 0;
  std::array<uint32_t, 3> required_block{0, 0, 0};
  uint32_t min_ctas_per_sm = 0;
  uint32_t max_registers = 0;  // .maxnreg (__maxnreg__), 0 when absent

  uint32_t source_line = 0;
};

// A CTA's named barriers: bar / barrier ids 0 to 15 (PTX ISA, bar).
constexpr uint32_t cta_barriers = 16;

// A function's address (a function pointer, for an indirect call): function_address_base plus
// its index in Module::functions. No device data lies there (memory_windows.h).
constexpr uint64_t function_address_base = 0x0000'7d00'0000'0000ULL;
constexpr uint64_t function_address(uint32_t function) {
  return function_address_base + function;
}

struct Module {
  std::string file;  // path as given to the loader, for messages
  uint32_t version_major = 0, version_minor = 0;
  std::string target;
  uint32_t address_size = 64;

  std::vector<Symbol> symbols;
  std::vector<Function> functions;
  // Functions whose address the module takes (mov, initialisers): what an indirect call may
  // reach. In the order first taken, each once.
  std::vector<uint32_t> address_taken;

  // Module-scope .global variables: offsets inside a segment of `global_bytes` that the loader
  // places in device memory. Likewise .const in a constant bank of `const_bytes`.
  uint64_t global_bytes = 0;
  uint64_t const_bytes = 0;
  // Static .shared bytes of each kernel (its own variables and the module-scope ones it uses),
  // indexed like `functions`; extern shared starts after them, aligned to 16 or to the largest
  // alignment an `.extern .shared` declaration asks (code relies on it: nvcc folds `addr % 128`
  // of an __align__(128) array to 0).
  std::vector<uint64_t> static_shared_bytes;
  uint32_t extern_shared_align = 16;

  // Where a CTA running `kernel` has its extern (dynamic) shared memory.
  uint64_t extern_shared_offset(uint32_t kernel) const {
    return (static_shared_bytes[kernel] + extern_shared_align - 1) / extern_shared_align *
           extern_shared_align;
  }
  // Offset of a .shared symbol inside the shared memory of a CTA running `kernel`: static
  // variables at their offset, extern ones at extern_shared_offset.
  uint64_t shared_offset(uint32_t kernel, uint32_t symbol) const {
    const Symbol& s = symbols[symbol];
    if (!s.is_extern) return s.offset;
    return extern_shared_offset(kernel) + s.offset;
  }

  const Function* find_function(const std::string& name) const {
    for (const Function& function : functions)
      if (function.name == name) return &function;
    return nullptr;
  }
  // The kernel (.entry) called `name`: its mangled name, or any of kernel_name_forms when that
  // fits only this kernel (spaces aside). ConfigError naming the module's file when it fits
  // several, listing them, or none, with the closest kernel name, or the kernels there are.
  const Function& kernel(const std::string& name) const;
};

// The names a kernel answers to, shortest first: for a C++ kernel, its name without template
// arguments and namespaces ("scale"), with namespaces ("blas::scale"), with template arguments
// ("scale<2>", "blas::scale<2>"), its signature ("void blas::scale<2>(float*, float)") and its
// mangled name; for an extern "C" kernel, its name alone.
std::vector<std::string> kernel_name_forms(const std::string& mangled);

}  // namespace ohmvp::gpu
