#include "modules/common/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace ohmvp {

std::string demangle(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> readable(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && readable ? std::string(readable.get()) : name;
}

namespace {

constexpr size_t no_parameter_list = std::string::npos;

// Where the parameter list opens: the last parenthesised group, whose '(' is found by walking
// back, as template arguments may hold parentheses of their own ("(Op)1").
size_t parameter_list_start(const std::string& demangled) {
  if (demangled.empty() || demangled.back() != ')') return no_parameter_list;
  int depth = 0;
  for (size_t open = demangled.size(); open-- > 0;) {
    if (demangled[open] == ')') ++depth;
    if (demangled[open] == '(' && --depth == 0) return open;
  }
  return no_parameter_list;
}

}  // namespace

std::string function_name(const std::string& demangled) {
  const size_t open = parameter_list_start(demangled);
  if (open == no_parameter_list) return demangled;
  // A return type (only templates carry one) ends at the last space outside template arguments.
  size_t start = 0;
  int angle = 0;
  for (size_t i = 0; i < open; ++i) {
    if (demangled[i] == '<') ++angle;
    if (demangled[i] == '>') --angle;
    if (demangled[i] == ' ' && angle == 0) start = i + 1;
  }
  return demangled.substr(start, open - start);
}

std::vector<std::string> parameter_types(const std::string& demangled) {
  const size_t open = parameter_list_start(demangled);
  if (open == no_parameter_list) return {};
  const std::string list = demangled.substr(open + 1, demangled.size() - open - 2);
  if (list.empty() || list == "void") return {};
  std::vector<std::string> types(1);
  int depth = 0;
  for (const char c : list) {
    if (c == '<' || c == '(' || c == '[') ++depth;
    if (c == '>' || c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      types.emplace_back();
    } else if (!(c == ' ' && types.back().empty())) {
      types.back() += c;
    }
  }
  return types;
}

std::string without_template_arguments(const std::string& name) {
  std::string bare;
  int angle = 0;
  for (const char c : name) {
    if (c == '<') ++angle;
    if (angle == 0) bare += c;
    if (c == '>' && angle > 0) --angle;
  }
  return bare;
}

std::string unqualified(const std::string& name) {
  size_t start = 0;
  int angle = 0;
  for (size_t i = 0; i + 1 < name.size(); ++i) {
    if (name[i] == '<') ++angle;
    if (name[i] == '>') --angle;
    if (angle == 0 && name[i] == ':' && name[i + 1] == ':') start = i + 2;
  }
  return name.substr(start);
}

}  // namespace ohmvp
