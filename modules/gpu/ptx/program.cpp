#include "modules/gpu/ptx/program.h"

#include "modules/common/closest_match.h"
#include "modules/common/errors.h"

namespace ohmvp::gpu {

const Function& Module::kernel(const std::string& name) const {
  const Function* found = find_function(name);
  if (found != nullptr && found->is_kernel) return *found;
  std::vector<std::string> kernels;
  for (const Function& function : functions)
    if (function.is_kernel) kernels.push_back(function.name);
  std::string message = file + ": no kernel (.entry) named '" + name + "'";
  const std::string suggestion = closest_match(name, kernels);
  if (!suggestion.empty()) {
    message += "; did you mean '" + suggestion + "'?";
  } else if (kernels.empty()) {
    message += "; it has none";
  } else {
    message += "; it has";
    for (size_t i = 0; i < kernels.size(); ++i) message += (i ? ", '" : " '") + kernels[i] + "'";
  }
  throw ConfigError(message);
}

}  // namespace ohmvp::gpu
