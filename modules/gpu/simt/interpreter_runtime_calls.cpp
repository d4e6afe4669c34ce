// The CUDA runtime's device functions that PTX declares without a body: __assertfail (assert),
// vprintf (printf), malloc and free, and the two calls of <<<>>> in device code (dynamic
// parallelism). The interpreter executes them in place of a call.

#include <algorithm>
#include <cstring>
#include <optional>

#include "modules/gpu/simt/device_printf.h"
#include "modules/gpu/simt/interpreter_internal.h"

namespace ohmvp::gpu::detail {

namespace {

// The module string symbol a global pointer points to the start of, or no_symbol.
uint32_t string_symbol(const Exec& x, uint64_t pointer) {
  const std::vector<Symbol>& symbols = x.context.layout->module().symbols;
  for (uint32_t s = 0; s < symbols.size(); ++s)
    if (symbols[s].space == StateSpace::global && symbols[s].function < 0 &&
        !symbols[s].initializer.empty() && symbol_address(x, s) == pointer)
      return s;
  return DeviceFault::no_symbol;
}

// The first `bytes` of a call-site parameter of the call being executed, in `lane`'s parameter
// arena: what the callee would receive as its parameter `index` (zeros past its size, all zeros
// if there is none).
void call_argument_bytes(Exec& x, uint32_t lane, size_t index, void* data, uint64_t bytes) {
  std::memset(data, 0, bytes);
  const Instruction& in = x.instruction;
  if (index >= in.call_arguments.size()) return;
  const uint32_t symbol = in.call_arguments[index];
  const uint64_t offset = x.context.layout->param_offset(symbol);
  const uint64_t size = std::min<uint64_t>(x.context.layout->module().symbols[symbol].size, bytes);
  if (offset + size <= x.warp.param_arena_bytes())
    std::memcpy(data, x.warp.param_arena(lane) + offset, size);
}

// A call-site parameter's value (at most 8 bytes; 0 if there is none).
uint64_t call_argument(Exec& x, uint32_t lane, size_t index) {
  uint64_t value = 0;
  call_argument_bytes(x, lane, index, &value, sizeof value);
  return value;
}

// __assertfail(expression, file, line, function, char size): the first executing lane's
// arguments become an assertion fault.
void fail_assertion(Exec& x) {
  const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(x.lanes));
  const auto text = [&](size_t index) { return string_symbol(x, call_argument(x, lane, index)); };
  const uint32_t line = static_cast<uint32_t>(call_argument(x, lane, 2));
  x.fail(FaultKind::assertion, lane);
  x.fault.assertion = {text(0), text(1), text(3), line};
}

// Reads `bytes` at a generic address as `lane` sees it: shared storage directly, .local and
// global memory (the constant bank's copy too) through the printf buffer. False when out of
// bounds.
bool read_generic(Exec& x, uint32_t lane, uint64_t address, void* data, uint64_t bytes) {
  const Place place = resolve_generic(address);
  switch (place.space) {
    case StateSpace::shared: {  // bytes: at most 8 (an argument) here
      const uint8_t* pointer =
          immediate_pointer(x, place.space, place.address, static_cast<uint32_t>(bytes), lane);
      if (!pointer) return false;
      std::memcpy(data, pointer, bytes);
      return true;
    }
    case StateSpace::local:
      if (place.address + bytes > x.context.layout->local_bytes_per_thread()) return false;
      return x.context.printf_buffer->read(
          local_device_address(x, cta_first_thread(x), lane, place.address), data, bytes);
    default:
      return x.context.printf_buffer->read(place.address, data, bytes);
  }
}

// A NUL-terminated string at a generic address: a module string as it is, anything else read
// from memory, up to the printf buffer's capacity (more could not be printed). None when its
// first byte cannot be read.
std::optional<std::string> read_string(Exec& x, uint32_t lane, uint64_t address) {
  const uint32_t symbol = string_symbol(x, address);
  if (symbol != DeviceFault::no_symbol) {
    const std::vector<uint8_t>& bytes = x.context.layout->module().symbols[symbol].initializer;
    return std::string(bytes.begin(), std::find(bytes.begin(), bytes.end(), uint8_t{0}));
  }
  std::string text;
  for (char c = 0; text.size() < x.context.printf_buffer->capacity(); text += c) {
    if (!read_generic(x, lane, address + text.size(), &c, 1)) {
      if (text.empty()) return std::nullopt;
      break;
    }
    if (c == 0) break;
  }
  return text;
}

// Writes a call's result, `bytes` of `value`, into `lane`'s return parameter (if the call has
// one).
void write_return(Exec& x, uint32_t lane, uint64_t value, uint64_t bytes) {
  const Instruction& in = x.instruction;
  if (in.call_returns.empty()) return;
  const uint64_t offset = x.context.layout->param_offset(in.call_returns[0]);
  if (offset + bytes <= x.warp.param_arena_bytes())
    std::memcpy(x.warp.param_arena(lane) + offset, &value, bytes);
}

// vprintf(format, arguments): each executing lane's text, in lane order, goes to the printf
// buffer; the call returns the number of arguments its format took (CUDA's printf result). A
// format or %s string at an address no memory holds is a fault, as its read on the device is.
void device_printf(Exec& x) {
  if (!x.context.printf_buffer) {
    x.fail(FaultKind::unsupported, 0, "printf with no host to print to");
    return;
  }
  const auto string_at = [&](uint32_t lane, uint64_t address) {
    std::optional<std::string> text = read_string(x, lane, address);
    if (!text) x.fail(FaultKind::unmapped_address, lane, "a string of printf", address);
    return text.value_or("");
  };
  for_each_lane(x.lanes, [&](uint32_t lane) {
    if (x.failed()) return;
    const std::string format = string_at(lane, call_argument(x, lane, 0));
    const uint64_t block = call_argument(x, lane, 1);
    PrintfArguments arguments([&](uint64_t offset, void* data, uint64_t bytes) {
      return block != 0 && read_generic(x, lane, block + offset, data, bytes);
    });
    const std::string text = format_device_printf(
        format, arguments, [&](uint64_t pointer) { return string_at(lane, pointer); });
    if (x.failed()) return;
    x.context.printf_buffer->print(text);
    write_return(x, lane, arguments.taken(), 4);
  });
  if (!x.failed()) x.warp.set_pc(x.pc + 1);
}

// malloc(size) and free(pointer) on the device heap, lane by lane in lane order: malloc returns
// NULL when the heap has no block large enough, free of NULL does nothing, and free of an
// address malloc did not return is a fault (CUDA leaves it undefined).
void heap_call(Exec& x, const Function& callee) {
  if (!x.context.heap) {
    x.fail(FaultKind::unsupported, 0, "malloc or free with no device heap");
    return;
  }
  const bool is_malloc = callee.name == "malloc";
  for_each_lane(x.lanes, [&](uint32_t lane) {
    if (x.failed()) return;
    const uint64_t argument = call_argument(x, lane, 0);
    if (is_malloc) {
      write_return(x, lane, x.context.heap->allocate(argument).value_or(0), 8);
    } else if (argument != 0 && !x.context.heap->release(argument)) {
      x.fail(FaultKind::bad_control_flow, lane,
             "free of an address that is no allocated block (freed already, or not from malloc)",
             argument);
    }
  });
  if (!x.failed()) x.warp.set_pc(x.pc + 1);
}

// `lane`'s thread's index in the grid.
uint64_t grid_thread(const Exec& x, uint32_t lane) {
  return cta_first_thread(x) + x.warp.thread_linear(lane);
}

// cudaGetParameterBuffer(kernel, grid, block, dynamic shared bytes), the first half of <<<>>> in
// device code, lane by lane in lane order: a buffer for the kernel's arguments from the device
// heap, or NULL when none is left (the launch is then skipped, as CUDA's fails). An address that
// is no kernel of the module is a fault.
void parameter_buffer(Exec& x) {
  if (!x.context.heap || !x.context.device_launches) {
    x.fail(FaultKind::invalid_launch, 0, "with no device runtime to take it");
    return;
  }
  const std::vector<Function>& functions = x.context.layout->module().functions;
  for_each_lane(x.lanes, [&](uint32_t lane) {
    if (x.failed()) return;
    const uint64_t kernel = call_argument(x, lane, 0);
    const uint64_t index = kernel - function_address_base;
    if (kernel < function_address_base || index >= functions.size() ||
        !functions[index].is_kernel || !functions[index].defined) {
      x.fail(FaultKind::invalid_launch, lane, "the address launched is no kernel", kernel);
      return;
    }
    DeviceLaunch launch;
    launch.function = static_cast<uint32_t>(index);
    call_argument_bytes(x, lane, 1, launch.grid, sizeof launch.grid);
    call_argument_bytes(x, lane, 2, launch.block, sizeof launch.block);
    launch.shared_bytes = static_cast<uint32_t>(call_argument(x, lane, 3));
    launch.parameter_bytes = functions[index].param_bytes;
    const uint64_t buffer = x.context.device_launches->prepare(*x.context.heap, launch);
    if (buffer == 0)
      x.context.device_launches->set_error(grid_thread(x, lane),
                                           DeviceLaunches::pending_count_exceeded);
    write_return(x, lane, buffer, 8);
  });
  if (!x.failed()) x.warp.set_pc(x.pc + 1);
}

// cudaLaunchDevice(parameter buffer, stream), the second half: launches what the buffer was
// taken for and returns cudaSuccess. The runtime runs the launch once the grid has ended, as
// tail launches run, which is also a schedule CUDA allows for the NULL and fire-and-forget
// streams; a stream created on the device cannot exist here (cudaStreamCreateWithFlags is not
// run). A buffer cudaGetParameterBuffer did not hand out, or one launched already, is a fault.
void launch_device(Exec& x) {
  constexpr uint64_t null_stream = 0, tail_launch = 0x3, fire_and_forget = 0x4;
  for_each_lane(x.lanes, [&](uint32_t lane) {
    if (x.failed()) return;
    const uint64_t buffer = call_argument(x, lane, 0);
    const uint64_t stream = call_argument(x, lane, 1);
    if (stream != null_stream && stream != tail_launch && stream != fire_and_forget) {
      x.fail(FaultKind::invalid_launch, lane,
             "into a stream made on the device (NULL, tail-launch and fire-and-forget run)");
      return;
    }
    if (!x.context.device_launches || !x.context.device_launches->launch(buffer)) {
      x.fail(FaultKind::invalid_launch, lane,
             "of a parameter buffer cudaGetParameterBuffer did not hand out, or launched already",
             buffer);
      return;
    }
    write_return(x, lane, 0, 4);
  });
  if (!x.failed()) x.warp.set_pc(x.pc + 1);
}

// cudaGetLastError and cudaPeekAtLastError in device code: the error the thread's last failed
// device launch left (cudaErrorLaunchPendingCountExceeded when it got no parameter buffer), 0
// (cudaSuccess) for none; cudaGetLastError clears it. A launch that cannot run is a fault here,
// so no other error is ever read.
void last_error(Exec& x, const Function& callee) {
  const bool clear = callee.name.find("Get") != std::string::npos;
  for_each_lane(x.lanes, [&](uint32_t lane) {
    DeviceLaunches* launches = x.context.device_launches;
    write_return(x, lane, launches ? launches->last_error(grid_thread(x, lane), clear) : 0, 4);
  });
  x.warp.set_pc(x.pc + 1);
}

}  // namespace

void execute_runtime_call(Exec& x, const Function& callee) {
  if (callee.is_assertion_failure())
    fail_assertion(x);
  else if (callee.is_printf())
    device_printf(x);
  else if (callee.is_parameter_buffer_call())
    parameter_buffer(x);
  else if (callee.is_device_launch_call())
    launch_device(x);
  else if (callee.is_last_error_call())
    last_error(x, callee);
  else
    heap_call(x, callee);
}

}  // namespace ohmvp::gpu::detail
