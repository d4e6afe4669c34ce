#include "modules/gpu/simt/interpreter.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "modules/gpu/simt/interpreter_internal.h"

namespace ohmvp::gpu {
namespace detail {

namespace {

// %envreg0..31: the driver's words to the kernel; only the grid workspace's are modelled.
uint64_t environment_register(const ExecutionContext& context, uint8_t number) {
  if (number == 1) return context.grid_workspace >> 32;
  if (number == 2) return context.grid_workspace & 0xffffffff;
  return 0;
}

}  // namespace

uint64_t special_value(const Exec& x, const Operand& operand, uint32_t lane) {
  const ExecutionContext& context = x.context;
  auto component = [&](const Dim3& d) -> uint64_t {
    return operand.component == 0 ? d.x : operand.component == 1 ? d.y : d.z;
  };
  const uint32_t lane_in_half = lane - half_shift(x, lane);
  const uint64_t below = (uint64_t{1} << lane_in_half) - 1;
  switch (operand.special) {
    case SpecialRegister::tid:
      return component(x.warp.thread(lane));
    case SpecialRegister::ntid:
      return component(context.block);
    case SpecialRegister::ctaid:
      return component(context.cta);
    case SpecialRegister::nctaid:
      return component(context.grid);
    case SpecialRegister::laneid:  // in a 64-lane warp, the lane's place in its 32-lane half
      return lane_in_half;
    case SpecialRegister::warpid:
      return x.warp.warp_id();
    case SpecialRegister::nwarpid:
      return (context.block.count() + x.warp.warp_size() - 1) / x.warp.warp_size();
    case SpecialRegister::smid:
      return context.sm_id;
    case SpecialRegister::nsmid:
      return context.sm_count;
    case SpecialRegister::gridid:
      return context.grid_id;
    case SpecialRegister::clock:
      return context.clock & 0xffffffff;
    case SpecialRegister::clock64:
      return context.clock;
    case SpecialRegister::globaltimer:
      return context.globaltimer_ns;
    case SpecialRegister::lanemask_eq:
      return below + 1;
    case SpecialRegister::lanemask_lt:
      return below;
    case SpecialRegister::lanemask_le:
      return (below << 1) | 1;
    case SpecialRegister::lanemask_gt:
      return ~((below << 1) | 1) & 0xffffffff;
    case SpecialRegister::lanemask_ge:
      return ~below & 0xffffffff;
    case SpecialRegister::dynamic_smem_size:
      return context.dynamic_shared_bytes;
    case SpecialRegister::total_smem_size:
      return context.shared_bytes;
    case SpecialRegister::globaltimer_lo:
      return context.globaltimer_ns & 0xffffffff;
    case SpecialRegister::globaltimer_hi:
      return context.globaltimer_ns >> 32;
    case SpecialRegister::clock_hi:
      return context.clock >> 32;
    case SpecialRegister::envreg:
      return environment_register(context, operand.component);
    case SpecialRegister::warp_sz:  // the lanes a warp instruction sees: a 64-lane warp's half
      return std::min<uint32_t>(x.warp.warp_size(), 32);
  }
  return 0;
}

uint64_t symbol_address(const Exec& x, uint32_t index) {
  const KernelLayout& layout = *x.context.layout;
  if (index >= layout.module().symbols.size()) return 0;
  const Symbol& symbol = layout.module().symbols[index];
  switch (symbol.space) {
    case StateSpace::global:
      return x.context.global_segment_base + symbol.offset;
    case StateSpace::const_:
      return symbol.offset;
    case StateSpace::shared:
      return layout.module().shared_offset(layout.kernel_index(), index);
    case StateSpace::local:
      return symbol.function >= 0
                 ? x.warp.local_frame_base(static_cast<uint32_t>(symbol.function)) + symbol.offset
                 : symbol.offset;
    case StateSpace::param:
      return layout.param_kind(index) == ParamKind::kernel_argument
                 ? layout.param_offset(index)
                 : param_arena_tag | layout.param_offset(index);
    default:
      return symbol.offset;
  }
}

namespace {

bool same_in_every_lane(SpecialRegister special) {
  using S = SpecialRegister;
  return special != S::tid && special != S::laneid && special != S::lanemask_eq &&
         special != S::lanemask_lt && special != S::lanemask_le && special != S::lanemask_gt &&
         special != S::lanemask_ge;
}

}  // namespace

void prepare_operands(Exec& x) {
  const Instruction& in = x.instruction;
  for (uint32_t i = 0; i < in.operand_count; ++i) {
    const Operand& operand = in.operands[i];
    LaneSource& source = x.sources[i];
    switch (operand.kind) {
      case Operand::Kind::reg:
        if (operand.negated)
          source.per_lane = &operand;
        else
          source.row = x.warp.row(operand.reg);
        break;
      case Operand::Kind::special:
        if (operand.special == SpecialRegister::tid)
          source.row = x.warp.thread_row(operand.component);
        else if (same_in_every_lane(operand.special))
          source.constant = special_value(x, operand, 0);
        else
          source.per_lane = &operand;
        break;
      default:
        source.constant = read(x, operand, 0);  // the same for every lane
        break;
    }
  }
  if (in.operands[0].kind == Operand::Kind::reg) x.destination = x.warp.row(in.operands[0].reg);
}

Exec path_exec(const Exec& x, uint64_t lanes, uint32_t pc) {
  const Instruction& in = x.context.layout->module().functions[x.function].instructions[pc];
  Exec path{x.warp, x.context, in, x.function, pc, lanes, guarded_lanes(x.warp, in, lanes)};
  prepare_operands(path);
  return path;
}

namespace {

void move(Exec& x) {
  const Instruction& in = x.instruction;
  const Operand& destination = in.operands[0];
  const Operand& source = in.operands[1];
  if (destination.kind == Operand::Kind::vector || source.kind == Operand::Kind::vector) {
    // mov.b64 {lo, hi}, %rd (unpack) and mov.b64 %rd, {lo, hi} (pack).
    const Operand& vector = destination.kind == Operand::Kind::vector ? destination : source;
    const unsigned count = vector.vector_count ? vector.vector_count : 1;
    const unsigned part_bits = type_bits(in.type) / count;
    for_each_lane(x.lanes, [&](uint32_t lane) {
      if (destination.kind == Operand::Kind::vector) {
        const uint64_t value = read(x, 1, lane);
        for (unsigned i = 0; i < count; ++i)
          if (vector.vector_regs[i] != no_register)
            x.warp.reg(vector.vector_regs[i], lane) =
                (value >> (i * part_bits)) & width_mask(part_bits);
      } else {
        uint64_t value = 0;
        for (unsigned i = 0; i < count; ++i)
          if (vector.vector_regs[i] != no_register)
            value |= (x.warp.reg(vector.vector_regs[i], lane) & width_mask(part_bits))
                     << (i * part_bits);
        write(x, lane, value);
      }
    });
    return;
  }
  const IntImage image(is_float(in.type) ? DataType::b64 : in.type);
  if (plain_sources(x, 1)) {
    map_plain<1>(x, [=](uint64_t value) { return image(value); });
    return;
  }
  const LaneSource value = x.sources[1];
  for_each_lane(
      x.lanes, [&](uint32_t lane)
                   __attribute__((always_inline)) { write(x, lane, image(read(x, value, lane))); });
}

void convert_address(Exec& x) {
  const Instruction& in = x.instruction;
  uint64_t window = 0;
  if (in.space == StateSpace::shared) window = shared_window_base;
  if (in.space == StateSpace::local) window = local_window_base;
  if (in.space == StateSpace::const_) window = x.context.const_segment_base;
  if (in.space == StateSpace::param) window = param_window_base;
  for_each_lane(x.lanes, [&](uint32_t lane) {
    const uint64_t value = read(x, 1, lane);
    if (in.space == StateSpace::param && in.mod.to_generic && (value & param_arena_tag)) {
      // Only a kernel's parameters have generic addresses (PTX ISA, cvta).
      x.fail(FaultKind::unsupported, lane, "cvta.param of a .func parameter's address");
      return;
    }
    uint64_t result = in.mod.to_generic ? value + window : value - window;
    if (in.type == DataType::u32 || in.type == DataType::b32) result &= 0xffffffff;
    write(x, lane, result);
  });
}

// isspacep: whether a generic address falls in the space's window. Generic addresses have
// shared, local and param (a kernel parameter's cvta.param address) windows, the constant bank's
// copy is const, the rest is global.
void test_space(Exec& x) {
  const Instruction& in = x.instruction;
  const uint64_t const_base = x.context.const_segment_base;
  for_each_lane(x.lanes, [&](uint32_t lane) {
    const uint64_t address = read(x, 1, lane);
    const bool constant = address - const_base < x.context.const_bytes;
    const bool in_space = in.space == StateSpace::const_
                              ? constant
                              : !constant && resolve_generic(address).space == in.space;
    write(x, lane, in_space ? 1 : 0);
  });
}

// Copies call-site argument blocks into the callee's parameter block, lane by lane.
void copy_parameters(Exec& x, const std::vector<uint32_t>& from, const std::vector<uint32_t>& to) {
  const KernelLayout& layout = *x.context.layout;
  const Module& module = layout.module();
  const size_t count = std::min(from.size(), to.size());
  for (size_t i = 0; i < count; ++i) {
    if (from[i] >= module.symbols.size() || to[i] >= module.symbols.size()) continue;
    const uint64_t size = std::min(module.symbols[from[i]].size, module.symbols[to[i]].size);
    const uint64_t source = layout.param_offset(from[i]), target = layout.param_offset(to[i]);
    if (std::max(source, target) + size > x.warp.param_arena_bytes()) {
      x.fail(FaultKind::out_of_window, 0, "call parameter outside the parameter arena");
      return;
    }
    for_each_lane(x.lanes, [&](uint32_t lane) {
      uint8_t* arena = x.warp.param_arena(lane);
      std::memmove(arena + target, arena + source, size);
    });
  }
}

// The function an indirect call's lanes call: the first executing lane's target, when every
// executing lane holds it. Lanes holding other targets wait at the call, which they make again
// once these have returned (the SIMT stack splits them as a branch to the call itself would);
// then no_target. A target that is no function's address is a fault.
uint32_t indirect_callee(Exec& x) {
  const uint32_t reg = x.instruction.operands[0].reg;
  const uint64_t address = x.warp.reg(reg, static_cast<uint32_t>(__builtin_ctzll(x.lanes)));
  uint64_t same = 0;
  for_each_lane(x.lanes, [&](uint32_t lane) {
    if (x.warp.reg(reg, lane) == address) same |= uint64_t{1} << lane;
  });
  if (same != x.lanes) {
    if (x.lanes != x.active) {
      x.fail(FaultKind::unsupported, 0, "indirect call to several functions under a guard");
      return no_target;
    }
    x.warp.branch(same, x.pc, x.pc, x.pc + 1);
    return no_target;
  }
  const Module& module = x.context.layout->module();
  const uint64_t index = address - function_address_base;
  if (address < function_address_base || index >= module.functions.size() ||
      !x.context.layout->reachable(static_cast<uint32_t>(index))) {
    x.fail(FaultKind::bad_control_flow, static_cast<uint32_t>(__builtin_ctzll(x.lanes)),
           "indirect call to an address that is no function's", address);
    return no_target;
  }
  return static_cast<uint32_t>(index);
}

void call(Exec& x) {
  const Instruction& in = x.instruction;
  uint32_t callee = no_target;
  for (uint32_t i = 0; i < in.operand_count; ++i)
    if (in.operands[i].kind == Operand::Kind::function) callee = in.operands[i].target;
  if (in.operands[0].kind == Operand::Kind::reg) {
    callee = indirect_callee(x);
    if (callee == no_target) return;  // a fault, or the lanes split
  }
  const Module& module = x.context.layout->module();
  if (callee < module.functions.size() && module.functions[callee].is_runtime_call()) {
    execute_runtime_call(x, module.functions[callee]);
    return;
  }
  if (callee < module.functions.size() && module.functions[callee].instructions.empty()) {
    x.fail(FaultKind::unsupported, 0,
           "call of a function without a body (external functions such as malloc and free are "
           "not supported)");
    return;
  }
  if (callee >= module.functions.size() || !x.context.layout->reachable(callee)) {
    x.fail(FaultKind::bad_control_flow, 0, "call to an unknown function");
    return;
  }
  if (x.lanes != x.active) {
    x.fail(FaultKind::unsupported, 0, "call under a divergent guard");
    return;
  }
  // Entered first: a recursive call keeps the outer activation's parameters before they are
  // overwritten.
  if (!x.warp.call(callee, x.pc)) {
    x.fail(FaultKind::stack_overflow, static_cast<uint32_t>(__builtin_ctzll(x.lanes)),
           "recursion deeper than the thread's call stack holds (its size is the stack limit, "
           "1 KiB unless the program sets it)");
    return;
  }
  copy_parameters(x, in.call_arguments, module.functions[callee].params);
}

// alloca: every lane gets the same offset of its own local storage, as large as the largest
// size an executing lane asks for; the result is a .local address (nvcc converts it with
// cvta.local). The alignment is 8 unless given.
void allocate_on_stack(Exec& x) {
  const Instruction& in = x.instruction;
  const uint64_t alignment = in.operand_count > 2 ? in.operands[2].imm : 8;
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    x.fail(FaultKind::unsupported, 0, "alloca's alignment is not a power of two");
    return;
  }
  uint64_t bytes = 0;
  for_each_lane(x.lanes, [&](uint32_t lane) { bytes = std::max(bytes, read(x, 1, lane)); });
  const std::optional<uint64_t> base = x.warp.allocate_stack(bytes, alignment);
  if (!base) {
    x.fail(FaultKind::stack_overflow, static_cast<uint32_t>(__builtin_ctzll(x.lanes)),
           "alloca asks for more than the thread's call stack has left (its size is the stack "
           "limit, 1 KiB unless the program sets it)");
    return;
  }
  for_each_lane(x.lanes, [&](uint32_t lane) { write(x, lane, *base); });
}

void restore_stack(Exec& x) {
  const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(x.lanes));
  if (!x.warp.restore_stack(read(x, 0, lane)))
    x.fail(FaultKind::bad_control_flow, lane, "stackrestore to no place on the call stack");
}

void return_from_function(Exec& x) {
  const Module& module = x.context.layout->module();
  const CallFrame& frame = x.warp.current_frame();
  const Instruction& call_site = module.functions[frame.caller].instructions[frame.call_pc];
  copy_parameters(x, module.functions[x.function].return_params, call_site.call_returns);
  x.warp.set_pc(x.pc + 1);
  x.warp.return_lanes(x.lanes);
}

// Where bar.warp.sync, shfl.sync, vote.sync, redux.sync and match.sync hold their member mask;
// nothing for other instructions. These are what sm_70 lets the threads of one warp reach at
// different instructions and still meet (unlike the .aligned CTA barriers and tensor-core
// instructions, which the warp must reach together).
std::optional<unsigned> member_mask_operand(const Instruction& in) {
  unsigned mask_operand = 0;
  switch (in.op) {
    case Opcode::bar:
      if (in.mod.barrier != BarrierMode::warp) return std::nullopt;
      break;
    case Opcode::shfl:
      mask_operand = 4;
      break;
    case Opcode::vote:
    case Opcode::redux:
    case Opcode::match:
      mask_operand = 2;
      break;
    default:
      return std::nullopt;
  }
  if (in.operand_count <= mask_operand) return std::nullopt;  // a form without .sync
  return mask_operand;
}

bool is_warp_synchronous(const Instruction& in) {
  return member_mask_operand(in).has_value();
}

// The lanes an instruction waits for under independent thread scheduling: every lane for a CTA
// barrier (not bar.arrive) and a tensor-core instruction, the member mask of a warp-synchronous
// instruction; none otherwise.
std::optional<uint64_t> synchronised_lanes(const Exec& x) {
  const Instruction& in = x.instruction;
  if (is_tensor_core_op(in.op)) return ~uint64_t{0};  // .sync.aligned: the whole warp
  if (in.op == Opcode::bar && in.mod.barrier != BarrierMode::warp)
    return in.mod.barrier == BarrierMode::arrive ? std::nullopt
                                                 : std::optional<uint64_t>(~uint64_t{0});
  const std::optional<unsigned> mask_operand = member_mask_operand(in);
  if (!mask_operand) return std::nullopt;
  const uint64_t from = x.lanes != 0 ? x.lanes : x.active;  // an executing lane's mask
  if (from == 0) return ~uint64_t{0};
  const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(from));
  return expand_member_mask(x, read(x, *mask_operand, lane));
}

constexpr const char* k_different_meeting_points =
    "a warp-synchronous instruction's member lanes wait at a different synchronising "
    "instruction (PTX requires the same instruction and qualifiers of the threads that meet)";

constexpr const char* k_tensor_core_apart =
    "a tensor-core instruction waits for lanes of its warp parked at another synchronising "
    "instruction after paths ran apart (.aligned: the warp must reach it together)";

// Without a yield: the member lanes of a warp-synchronous instruction that live but do not run
// on the executing path, or nothing when there are none.
std::optional<uint64_t> waits_for_other_arms(const Exec& x) {
  if (x.lanes == 0 || !is_warp_synchronous(x.instruction)) return std::nullopt;
  const std::optional<uint64_t> members = synchronised_lanes(x);
  if (!members || (*members & x.warp.live_lanes() & ~x.active) == 0) return std::nullopt;
  return members;
}

}  // namespace
}  // namespace detail

using namespace detail;

StepResult Interpreter::step(WarpState& warp, const ExecutionContext& context) {
  StepResult result;
  if (warp.finished()) {
    result.status = StepStatus::exited;
    return result;
  }
  const uint32_t function_index = warp.function();
  const uint32_t pc = warp.pc();
  const Function& function = context.layout->module().functions[function_index];
  result.function = function_index;
  result.pc = pc;
  result.active_mask = warp.active_mask();
  auto fault = [&](FaultKind kind, const char* detail) {
    warp.set_fault(
        {kind,
         function_index,
         pc,
         static_cast<uint32_t>(__builtin_ctzll(result.active_mask | (uint64_t{1} << 63))),
         0,
         StateSpace::generic,
         detail,
         {}});
    result.status = StepStatus::fault;
    return result;
  };
  if (warp.memory_pending())
    return fault(FaultKind::bad_control_flow, "stepped with a memory access pending");
  if (pc >= function.instructions.size())
    return fault(FaultKind::bad_control_flow, "ran past the end of the function");

  const Instruction& in = function.instructions[pc];
  const uint64_t lanes = guarded_lanes(warp, in, result.active_mask);
  result.executed_mask = lanes;
  Exec x{warp, context, in, function_index, pc, result.active_mask, lanes};
  prepare_operands(x);
  if (!warp.paths_split()) {
    if (const std::optional<uint64_t> members = waits_for_other_arms(x)) {
      auto waits_at = [&](uint64_t sibling_lanes, uint32_t sibling_pc) {
        return waits_for_other_arms(path_exec(x, sibling_lanes, sibling_pc)).has_value();
      };
      switch (warp.wait_for_siblings(*members, waits_at)) {
        case WarpState::SiblingWait::alone:
          break;
        case WarpState::SiblingWait::run_siblings:
          result.executed_mask = 0;  // the path stays at the instruction
          result.yielded = true;
          return result;
        case WarpState::SiblingWait::met:
          if (!meet_parked_paths(x, *members))
            return fault(FaultKind::unsupported, k_different_meeting_points);
          warp.pass_parked_paths(*members);
          result.executed_mask |= x.partners;  // the parked paths ran theirs with it
          break;
      }
    }
  } else {
    const std::optional<uint64_t> members = synchronised_lanes(x);
    if (!members) {
      warp.note_unsynchronised_step();
    } else {
      switch (warp.converge(*members)) {
        case WarpState::Convergence::ready:
          break;
        case WarpState::Convergence::gathered:
          return step(warp, context);  // with the lanes that joined
        case WarpState::Convergence::yielded:
          result.executed_mask = 0;  // the path stays at the instruction
          result.yielded = true;
          warp.reconverge();
          return result;
        case WarpState::Convergence::apart:
          // A barrier runs without the parked paths; an exchange meets them where they wait.
          if (in.op == Opcode::bar) break;
          if (!is_warp_synchronous(in) || !meet_parked_paths(x, *members))
            return fault(FaultKind::unsupported, is_tensor_core_op(in.op)
                                                     ? k_tensor_core_apart
                                                     : k_different_meeting_points);
          warp.pass_parked_paths(*members);
          result.executed_mask |= x.partners;
          break;
        case WarpState::Convergence::outside_function:
          return fault(FaultKind::unsupported,
                       "a barrier or warp-synchronous instruction in a called function waits "
                       "for threads of its warp outside the call (independent thread "
                       "scheduling across calls is not modelled)");
      }
    }
  }
  bool pending = false;
  bool control = false;  // the instruction set the pc itself

  switch (in.op) {
    case Opcode::mov:
      move(x);
      break;
    case Opcode::cvta:
      convert_address(x);
      break;
    case Opcode::isspacep:
      test_space(x);
      break;
    case Opcode::cvt:
      execute_convert(x);
      break;
    case Opcode::ld:
    case Opcode::ldu:
    case Opcode::st:
    case Opcode::atom:
    case Opcode::red:
      execute_memory(x, pending);
      break;
    case Opcode::wmma_load_a:
    case Opcode::wmma_load_b:
    case Opcode::wmma_load_c:
    case Opcode::wmma_store_d:
      execute_fragment_memory(x, pending);
      break;
    case Opcode::wmma_mma:
    case Opcode::mma:
      execute_matrix_multiply(x);
      break;
    case Opcode::ldmatrix:
      execute_ldmatrix(x);
      break;
    case Opcode::tex:
    case Opcode::tld4:
      execute_texture(x, pending);
      break;
    case Opcode::suld:
    case Opcode::sust:
      execute_surface(x, pending);
      break;
    case Opcode::prefetch:
    case Opcode::membar:
    case Opcode::fence:
    case Opcode::nanosleep:
      break;
    case Opcode::add:
    case Opcode::sub:
    case Opcode::mul:
    case Opcode::mad:
    case Opcode::div:
    case Opcode::min:
    case Opcode::max:
    case Opcode::abs:
    case Opcode::neg:
      if (is_float(in.type))
        execute_float(x);
      else
        execute_integer(x);
      break;
    case Opcode::mul24:
    case Opcode::mad24:
    case Opcode::rem:
    case Opcode::sad:
    case Opcode::and_:
    case Opcode::or_:
    case Opcode::xor_:
    case Opcode::not_:
    case Opcode::cnot:
    case Opcode::shl:
    case Opcode::shr:
      execute_integer(x);
      break;
    case Opcode::fma:
    case Opcode::rcp:
    case Opcode::sqrt:
    case Opcode::rsqrt:
    case Opcode::ex2:
    case Opcode::lg2:
    case Opcode::sin:
    case Opcode::cos:
    case Opcode::tanh:
    case Opcode::copysign:
    case Opcode::testp:
      execute_float(x);
      break;
    case Opcode::popc:
    case Opcode::clz:
    case Opcode::brev:
    case Opcode::bfe:
    case Opcode::bfi:
    case Opcode::prmt:
    case Opcode::bfind:
    case Opcode::fns:
    case Opcode::bmsk:
    case Opcode::szext:
    case Opcode::shf:
    case Opcode::lop3:
    case Opcode::dp4a:
    case Opcode::dp2a:
    case Opcode::vabsdiff4:
    case Opcode::vabsdiff2:
      execute_bits(x);
      break;
    case Opcode::setp:
    case Opcode::set:
    case Opcode::selp:
    case Opcode::slct:
      execute_compare(x);
      break;
    case Opcode::shfl:
    case Opcode::vote:
    case Opcode::redux:
    case Opcode::match:
      execute_warp_collective(x);
      break;
    case Opcode::alloca_:
      allocate_on_stack(x);
      break;
    case Opcode::stacksave:
      for_each_lane(lanes, [&](uint32_t lane) { write(x, lane, x.warp.stack_top()); });
      break;
    case Opcode::stackrestore:
      restore_stack(x);
      break;
    case Opcode::activemask:
      for_each_lane(lanes, [&](uint32_t lane) {
        write(x, lane, (result.active_mask >> half_shift(x, lane)) & 0xffffffff);
      });
      break;
    case Opcode::bra: {
      const uint32_t target = in.operands[0].target;
      if (target >= function.instructions.size())
        return fault(FaultKind::bad_control_flow, "branch target outside the function");
      result.yielded = warp.branch(lanes, target, pc + 1, in.reconvergence_pc);
      control = true;
      break;
    }
    case Opcode::call:
      if (lanes == 0) break;
      call(x);
      control = !x.failed();
      break;
    case Opcode::ret:
      if (warp.call_depth() == 0) {
        warp.set_pc(pc + 1);
        warp.exit_lanes(lanes);
      } else {
        return_from_function(x);
      }
      control = true;
      break;
    case Opcode::exit:
      warp.set_pc(pc + 1);
      warp.exit_lanes(lanes);
      control = true;
      break;
    case Opcode::bar:
      // bar.warp.sync: the lanes of a warp run in lockstep under the SIMT stack and memory is
      // sequentially consistent, so the executing lanes are already synchronised.
      if (in.mod.barrier == BarrierMode::warp) break;
      if (lanes == 0) break;
      {
        // bar.red d, a{, b}, {!}c: the barrier's operands follow the destination, the
        // predicate comes last.
        const bool reduces = in.mod.barrier == BarrierMode::reduce;
        const unsigned first = reduces ? 1 : 0;
        const unsigned given = in.operand_count - first - (reduces ? 1 : 0);
        const uint32_t lane = static_cast<uint32_t>(__builtin_ctzll(lanes));
        result.barrier_id = given > 0 ? static_cast<uint32_t>(read(x, first, lane)) : 0;
        result.barrier_threads = given > 1 ? static_cast<uint32_t>(read(x, first + 1, lane)) : 0;
        result.barrier_arrive_only = in.mod.barrier == BarrierMode::arrive;
        // PTX: 16 barriers a CTA, and a thread count that is a multiple of the warp size.
        if (result.barrier_id >= cta_barriers)
          x.fail(FaultKind::invalid_barrier, lane, "its id is past 15 (a CTA has 16 barriers)");
        else if (given > 1 &&
                 (result.barrier_threads == 0 || result.barrier_threads % warp.warp_size() != 0))
          x.fail(FaultKind::invalid_barrier, lane,
                 "its thread count is not a positive multiple of the warp size");
        if (reduces) {
          BarrierReductionShare& share = result.barrier_reduction;
          share.op = in.mod.barrier_reduction;
          share.destination = in.operands[0].reg;
          share.lanes = lanes;
          const unsigned predicate = in.operand_count - 1u;
          for_each_lane(lanes, [&](uint32_t l) {
            if (read(x, predicate, l) & 1) share.true_lanes |= uint64_t{1} << l;
          });
        }
        result.status = StepStatus::barrier;
      }
      break;
    case Opcode::trap:
      if (lanes) x.fail(FaultKind::trap, static_cast<uint32_t>(__builtin_ctzll(lanes)));
      break;
    case Opcode::brkpt:
      if (lanes) x.fail(FaultKind::breakpoint, static_cast<uint32_t>(__builtin_ctzll(lanes)));
      break;
    case Opcode::unsupported:  // reached through a function pointer (KernelLayout)
      if (lanes)
        x.fail(FaultKind::unsupported, static_cast<uint32_t>(__builtin_ctzll(lanes)),
               function.unsupported_at(pc).reason.c_str());
      break;
    default:
      x.fail(FaultKind::unsupported, 0, "instruction not executed by the interpreter");
      break;
  }

  if (x.failed()) {
    warp.set_fault(x.fault);
    result.status = StepStatus::fault;
    return result;
  }
  if (!control) warp.set_pc(pc + 1);
  warp.reconverge();
  if (pending) {
    warp.set_memory_pending(true);
    result.status = StepStatus::memory_pending;
  } else if (warp.finished()) {
    result.status = StepStatus::exited;
  }
  return result;
}

}  // namespace ohmvp::gpu
