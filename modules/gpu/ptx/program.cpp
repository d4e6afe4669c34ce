#include "modules/gpu/ptx/program.h"

#include <algorithm>
#include <cctype>

#include "modules/common/closest_match.h"
#include "modules/common/demangle.h"
#include "modules/common/errors.h"

namespace ohmvp::gpu {

std::vector<std::string> kernel_name_forms(const std::string& mangled) {
  const std::string signature = demangle(mangled);
  if (signature == mangled) return {mangled};
  const std::string name = function_name(signature);
  const std::string bare = without_template_arguments(name);
  return {unqualified(bare), bare, unqualified(name), name, signature, mangled};
}

namespace {

std::string without_spaces(std::string text) {
  text.erase(std::remove_if(text.begin(), text.end(),
                            [](unsigned char c) { return std::isspace(c) != 0; }),
             text.end());
  return text;
}

// "'_Z3addPfi' (add(float*, int))", or "'add'" for a kernel that is not mangled.
std::string quoted_kernel(const std::string& mangled) {
  const std::string signature = demangle(mangled);
  if (signature == mangled) return "'" + mangled + "'";
  return "'" + mangled + "' (" + signature + ")";
}

}  // namespace

const Function& Module::kernel(const std::string& name) const {
  const Function* found = find_function(name);
  if (found != nullptr && found->is_kernel) return *found;

  const std::string wanted = without_spaces(name);
  std::vector<const Function*> matches;
  for (const Function& function : functions) {
    if (!function.is_kernel) continue;
    for (const std::string& form : kernel_name_forms(function.name)) {
      if (without_spaces(form) != wanted) continue;
      matches.push_back(&function);
      break;
    }
  }
  if (matches.size() == 1) return *matches.front();
  if (matches.size() > 1) {
    std::string message = file + ": kernel name '" + name + "' fits " +
                          std::to_string(matches.size()) + " kernels; give one of";
    for (size_t i = 0; i < matches.size(); ++i)
      message += (i ? ", " : " ") + quoted_kernel(matches[i]->name);
    throw ConfigError(message);
  }

  std::vector<std::string> kernels;
  std::vector<std::string> readable;
  for (const Function& function : functions) {
    if (!function.is_kernel) continue;
    kernels.push_back(function.name);
    readable.push_back(function_name(demangle(function.name)));
  }
  std::string message = file + ": no kernel (.entry) named '" + name + "'";
  std::string suggestion = closest_match(name, kernels);
  if (suggestion.empty()) suggestion = closest_match(name, readable);
  if (!suggestion.empty()) {
    message += "; did you mean '" + suggestion + "'?";
  } else if (kernels.empty()) {
    message += "; it has none";
  } else {
    message += "; it has";
    for (size_t i = 0; i < kernels.size(); ++i)
      message += (i ? ", " : " ") + quoted_kernel(kernels[i]);
  }
  throw ConfigError(message);
}

}  // namespace ohmvp::gpu
