#include "modules/optical/ohm_platform.h"

namespace ohmvp {

const char* to_string(OhmPlatform platform) {
  switch (platform) {
    case OhmPlatform::ohm_base:
      return "ohm_base";
    case OhmPlatform::auto_rw:
      return "auto_rw";
    case OhmPlatform::ohm_wom:
      return "ohm_wom";
    case OhmPlatform::ohm_bw:
      return "ohm_bw";
  }
  return "?";
}

const char* to_string(OhmFunction function) {
  switch (function) {
    case OhmFunction::conventional:
      return "conventional";
    case OhmFunction::auto_rw:
      return "auto_rw";
    case OhmFunction::reverse_write:
      return "reverse_write";
    case OhmFunction::swap:
      return "swap";
    case OhmFunction::half_coupled_controller:
      return "half_coupled_controller";
    case OhmFunction::parallel_tx:
      return "parallel_tx";
  }
  return "?";
}

std::vector<OhmFunction> functions_of(OhmPlatform platform, HeteroMode mode) {
  using F = OhmFunction;
  switch (platform) {
    case OhmPlatform::ohm_base:
      return {F::conventional};
    case OhmPlatform::auto_rw:
      return {F::conventional, F::auto_rw};
    case OhmPlatform::ohm_wom:
      if (mode == HeteroMode::planar) return {F::conventional, F::swap};
      return {F::conventional, F::auto_rw, F::reverse_write};
    case OhmPlatform::ohm_bw:
      if (mode == HeteroMode::planar) return {F::conventional, F::swap, F::half_coupled_controller};
      return {F::conventional, F::auto_rw, F::reverse_write};
  }
  return {};
}

std::vector<OhmFunction> all_functions() {
  using F = OhmFunction;
  return {F::conventional, F::auto_rw, F::reverse_write, F::swap, F::half_coupled_controller,
          F::parallel_tx};
}

double paper_laser_scale(OhmPlatform platform) {
  switch (platform) {
    case OhmPlatform::ohm_base:
      return 1.0;
    case OhmPlatform::auto_rw:
    case OhmPlatform::ohm_wom:
      return 2.0;
    case OhmPlatform::ohm_bw:
      return 4.0;
  }
  return 1.0;
}

}  // namespace ohmvp
