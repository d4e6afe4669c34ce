#include "modules/gpu/ptx/unsupported_ptx.h"

#include <vector>

namespace ohmvp::gpu {
namespace {

constexpr std::string_view k_see = "; docs/gpu_ptx.md lists the instructions this model runs";

struct Family {
  std::string_view what;
  std::vector<std::string_view> names;
};

const std::vector<Family> k_families{
    {"a SIMD video instruction",
     {"vadd",  "vsub",  "vabsdiff", "vmin",   "vmax",   "vshl",  "vshr",
      "vmad",  "vset",  "vadd2",    "vsub2",  "vavrg2", "vmin2", "vmax2",
      "vset2", "vadd4", "vsub4",    "vavrg4", "vmin4",  "vmax4", "vset4"}},
    {"a surface reduction or query", {"sured", "suq"}},
    {"a texture query", {"txq"}},
    {"a performance-monitor instruction", {"pmevent"}},
    {"a texture/sampler/surface type test", {"istypep"}},
    {"an indexed branch", {"brx"}},
    {"an asynchronous copy or memory barrier object (sm_80 and later)", {"cp", "mbarrier"}},
    {"a cache eviction priority instruction (sm_80 and later)",
     {"createpolicy", "applypriority", "discard"}},
    {"a matrix fragment store or transpose (stmatrix sm_90, movmatrix sm_75)",
     {"stmatrix", "movmatrix"}},
    {"grid dependency control (sm_90)", {"griddepcontrol"}},
    {"a warp leader election (sm_90)", {"elect"}},
    {"a thread-block cluster instruction (sm_90 and later)",
     {"mapa", "getctarank", "clusterlaunchcontrol"}},
    {"a multimem (multicast memory) instruction (sm_90)", {"multimem"}},
    {"a tensor map instruction (sm_90)", {"tensormap"}},
    {"a register count hint (sm_90a)", {"setmaxnreg"}},
    {"a warpgroup matrix multiply-accumulate (sm_90a)", {"wgmma"}},
    {"a fifth-generation tensor core instruction (sm_100a)", {"tcgen05"}},
};

struct NewerModifier {
  std::vector<std::string_view> instructions;
  std::string_view modifier;
  std::string_view since;
  std::string_view kind = "modifier";
};

const std::vector<NewerModifier> k_newer_modifiers{
    {{"min", "max"}, "NaN", "PTX ISA 7.0, sm_80"},
    {{"min", "max"}, "relu", "PTX ISA 8.0, sm_90"},
    {{"min", "max"}, "u16x2", "PTX ISA 8.0, sm_90", "type"},
    {{"min", "max"}, "s16x2", "PTX ISA 8.0, sm_90", "type"},
    {{"min", "max"}, "xorsign", "PTX ISA 7.2, sm_86"},
    {{"fma", "cvt"}, "relu", "PTX ISA 7.0, sm_80"},
    {{"fma"}, "oob", "PTX ISA 8.1, sm_90"},
    {{"cvt"}, "satfinite", "PTX ISA 8.1, sm_89"},
    {{"fence"}, "proxy", "PTX ISA 7.5 and later, sm_70 and later"},
    {{"ld", "st"}, "mmio", "PTX ISA 8.2, sm_70"},
    {{"atom", "red"}, "v2", "PTX ISA 8.1, sm_90", "vector"},
    {{"atom", "red"}, "v4", "PTX ISA 8.1, sm_90", "vector"},
    {{"atom", "red"}, "v8", "PTX ISA 8.1, sm_90", "vector"},
    {{"red"}, "async", "PTX ISA 8.1, sm_90"},
};

bool contains(const std::vector<std::string_view>& names, std::string_view name) {
  for (std::string_view candidate : names)
    if (candidate == name) return true;
  return false;
}

}  // namespace

std::optional<std::string> unsupported_instruction(std::string_view name) {
  for (const Family& family : k_families)
    if (contains(family.names, name))
      return "'" + std::string(name) + "' (" + std::string(family.what) + ") is not supported" +
             std::string(k_see);
  return std::nullopt;
}

std::optional<std::string> unsupported_modifier(std::string_view instruction,
                                                std::string_view modifier) {
  for (const NewerModifier& newer : k_newer_modifiers)
    if (newer.modifier == modifier && contains(newer.instructions, instruction))
      return std::string(newer.kind) + " '." + std::string(modifier) + "' of " +
             std::string(instruction) + " (" + std::string(newer.since) + ") is not supported" +
             std::string(k_see);
  return std::nullopt;
}

std::optional<std::string> unsupported_atomic(std::string_view instruction,
                                              std::string_view operation, std::string_view type) {
  if (operation != "add" || (type != "bf16" && type != "bf16x2")) return std::nullopt;
  return std::string(instruction) + ".add." + std::string(type) +
         " (PTX ISA 7.8, sm_90) is not supported" + std::string(k_see);
}

}  // namespace ohmvp::gpu
