#include "modules/gpu/ptx/program.h"

#include <algorithm>
#include <cctype>
#include <regex>

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

// The value of the simple escape sequence \c, or -1.
int escape_value(char c) {
  switch (c) {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case '0':
      return 0;
    case 'a':
      return '\a';
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'v':
      return '\v';
    case '\\':
    case '\'':
    case '"':
    case '?':
      return c;
    default:
      return -1;
  }
}

// Character literals as the demangler spells a char template argument: 'x' as (char)120, '\n'
// and the other simple escapes likewise.
std::string char_literals_as_casts(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool plain =
        i + 2 < text.size() && text[i] == '\'' && text[i + 1] != '\\' && text[i + 2] == '\'';
    const bool escaped = i + 3 < text.size() && text[i] == '\'' && text[i + 1] == '\\' &&
                         text[i + 3] == '\'' && escape_value(text[i + 2]) >= 0;
    if (!plain && !escaped) {
      out += text[i];
      continue;
    }
    const int value = plain ? static_cast<signed char>(text[i + 1]) : escape_value(text[i + 2]);
    out += "(char)" + std::to_string(value);
    i += plain ? 2 : 3;
  }
  return out;
}

// A C++ name as the demangler spells it, without spaces, so that the ways people write one name
// compare equal: `const T` as `T const`, integer literals without suffixes (`3u`, `-5ll`),
// character literals as casts ('x' as (char)120), and no return type (kernels return void).
std::string canonical_name(const std::string& text) {
  static const std::regex east_const(
      R"(\bconst\s+((?:(?:unsigned|signed|long|short)\s+)*[A-Za-z_][\w:]*(?:<[^<>]*>)?))");
  static const std::regex literal_suffix(R"((\b-?\d+)(?:ull|llu|ul|lu|ll|u|l)\b)",
                                         std::regex::icase);
  static const std::regex return_type(R"(^\s*void\s+)");
  std::string name = std::regex_replace(char_literals_as_casts(text), return_type, "");
  name = std::regex_replace(name, east_const, "$1 const");
  name = std::regex_replace(name, literal_suffix, "$1");
  name.erase(std::remove_if(name.begin(), name.end(),
                            [](unsigned char c) { return std::isspace(c) != 0; }),
             name.end());
  return name;
}

// "'_Z3addPfi' (add(float*, int))", or "'add'" for a kernel that is not mangled.
std::string quoted_kernel(const std::string& mangled) {
  const std::string signature = demangle(mangled);
  if (signature == mangled) return "'" + mangled + "'";
  return "'" + mangled + "' (" + signature + ")";
}

}  // namespace

const UnsupportedInstruction& Function::unsupported_at(uint32_t pc) const {
  const auto found = std::lower_bound(
      unsupported.begin(), unsupported.end(), pc,
      [](const UnsupportedInstruction& entry, uint32_t at) { return entry.pc < at; });
  if (found == unsupported.end() || found->pc != pc)
    throw std::logic_error("no unsupported instruction at pc " + std::to_string(pc));
  return *found;
}

const Function& Module::kernel(const std::string& name) const {
  const Function* found = find_function(name);
  if (found != nullptr && found->is_kernel) return *found;

  const std::string wanted = canonical_name(name);
  std::vector<const Function*> matches;
  for (const Function& function : functions) {
    if (!function.is_kernel) continue;
    for (const std::string& form : kernel_name_forms(function.name)) {
      if (canonical_name(form) != wanted) continue;
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
