#include "modules/gpu/ptx/ptx_parser.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "modules/common/errors.h"
#include "modules/common/json_file.h"
#include "modules/common/power_of_two.h"
#include "modules/gpu/ptx/control_flow.h"
#include "modules/gpu/ptx/operand_type_rules.h"
#include "modules/gpu/ptx/ptx_decode.h"
#include "modules/gpu/ptx/ptx_immediate.h"
#include "modules/gpu/ptx/ptx_layout.h"
#include "modules/gpu/ptx/ptx_lexer.h"
#include "modules/gpu/ptx/ptx_names.h"
#include "modules/gpu/ptx/unsupported_ptx.h"

namespace ohmvp::gpu {
namespace {

struct Scope {
  std::unordered_map<std::string, uint32_t> registers;
  std::unordered_map<std::string, uint32_t> symbols;
};

struct PendingLabel {
  uint32_t instruction;
  uint32_t operand;
  std::string name;
  uint32_t line;
};

struct PendingCall {
  uint32_t function;
  uint32_t instruction;
  std::string callee;
  uint32_t line;
};

// sm_NN, or sm_NNa / sm_NNf (architecture- and family-specific targets).
bool is_target_name(const std::string& target) {
  if (target.rfind("sm_", 0) != 0) return false;
  size_t end = target.size();
  if (end > 3 && (target[end - 1] == 'a' || target[end - 1] == 'f')) --end;
  if (end < 5) return false;  // at least two digits
  for (size_t i = 3; i < end; ++i)
    if (!std::isdigit(static_cast<unsigned char>(target[i]))) return false;
  return true;
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& file)
      : m_tokens(tokenize_ptx(text, file)), m_file(file) {
    size_t start = 0;
    while (start <= text.size()) {
      const size_t end = text.find('\n', start);
      std::string_view line = text.substr(start, end == std::string_view::npos ? end : end - start);
      while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front())))
        line.remove_prefix(1);
      while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
        line.remove_suffix(1);
      m_lines.emplace_back(line);
      if (end == std::string_view::npos) break;
      start = end + 1;
    }
    m_module.file = file;
  }

  Module run() {
    // Every PTX module begins with .version (PTX ISA, "PTX Module Directives"): a file without
    // one is not PTX, or not whole.
    if (peek().kind == Token::Kind::end)
      throw ConfigError(m_module.file + ": empty: expected PTX beginning with .version");
    if (peek().text != ".version")
      fail_here("expected .version first (every PTX module begins with it), found " +
                describe(peek()));
    parse_module_statement();
    if (peek().text != ".target")
      fail_here("expected .target after .version (a module names its target next), found " +
                describe(peek()));
    while (peek().kind != Token::Kind::end) parse_module_statement();
    // Without the directive PTX has 32-bit addresses (PTX ISA, ".address_size").
    if (!m_address_size_seen)
      throw ConfigError(m_module.file +
                        ": no .address_size: PTX then has 32-bit addresses, which the model does "
                        "not run (nvcc writes .address_size 64 after .target)");
    resolve_calls();
    for (const Function& function : m_module.functions)
      if (function.is_kernel && !function.defined)
        fail(function.source_line, "kernel '" + function.name + "' has no body");
    lay_out_symbols(m_module);
    check_state_space_limits();
    for (Function& function : m_module.functions) assign_reconvergence_points(function);
    return std::move(m_module);
  }

 private:
  // --- tokens and errors ---
  const Token& peek(size_t ahead = 0) const {
    return m_tokens[std::min(m_pos + ahead, m_tokens.size() - 1)];
  }
  const Token& next() {
    const Token& token = peek();
    if (m_pos < m_tokens.size() - 1) ++m_pos;
    return token;
  }

  [[noreturn]] void fail(uint32_t line, const std::string& problem) const {
    std::string_view text;
    if (line >= 1 && line <= m_lines.size()) text = m_lines[line - 1];
    // Both cut short: a megabyte token would otherwise be quoted twice in full.
    throw ConfigError(m_file + ":" + std::to_string(line) + ": " + excerpt(problem, 300) + " in '" +
                      excerpt(text, 200) + "'");
  }

  // CUDA's limits on the state spaces whose size a module fixes (the CUDA C++ Programming Guide,
  // "Features and Technical Specifications"): 64 KiB of constant memory, 512 KiB of local memory
  // a thread, 32,764 bytes of kernel parameters (4 KiB before CUDA 12.1; Volta and later).
  void check_state_space_limits() const {
    constexpr uint64_t const_limit = 64 * 1024, local_limit = 512 * 1024, param_limit = 32764;
    if (m_module.const_bytes > const_limit)
      throw ConfigError(m_file + ": .const variables take " + std::to_string(m_module.const_bytes) +
                        " bytes; a GPU's constant memory holds " + std::to_string(const_limit));
    for (const Function& function : m_module.functions) {
      if (function.local_bytes > local_limit)
        fail(function.source_line,
             "'" + function.name + "' has " + std::to_string(function.local_bytes) +
                 " bytes of .local variables; a thread may have " + std::to_string(local_limit));
      if (function.is_kernel && function.param_bytes > param_limit)
        fail(function.source_line,
             "kernel '" + function.name + "' takes " + std::to_string(function.param_bytes) +
                 " bytes of parameters; a launch passes at most " + std::to_string(param_limit));
    }
  }
  [[noreturn]] void fail_here(const std::string& problem) const { fail(peek().line, problem); }

  static std::string describe(const Token& token) {
    switch (token.kind) {
      case Token::Kind::end:
        return "end of file";
      case Token::Kind::string:
        return "\"" + token.text + "\"";
      default:
        return "'" + token.text + "'";
    }
  }

  void expect(char c) {
    if (!peek().is(c)) fail_here(std::string("expected '") + c + "', found " + describe(peek()));
    next();
  }
  bool accept(char c) {
    if (!peek().is(c)) return false;
    next();
    return true;
  }
  std::string expect_word(const char* what) {
    if (peek().kind != Token::Kind::word)
      fail_here(std::string("expected ") + what + ", found " + describe(peek()));
    return next().text;
  }
  uint64_t expect_unsigned(const char* what) {
    const Token& token = peek();
    if (token.kind != Token::Kind::number)
      fail_here(std::string("expected ") + what + ", found " + describe(token));
    const auto value = parse_unsigned_literal(token.text);
    if (!value) fail_here("bad " + std::string(what) + " '" + token.text + "'");
    next();
    return *value;
  }
  void skip_rest_of_line(uint32_t line) {
    while (peek().kind != Token::Kind::end && peek().line == line) next();
  }

  // --- module scope ---
  void parse_module_statement() {
    const Token& token = peek();
    if (token.kind != Token::Kind::word || token.text[0] != '.')
      fail_here("expected a directive, found " + describe(token));
    const std::string directive = token.text;
    const uint32_t line = token.line;
    if (directive == ".version") {
      if (m_version_seen) fail(line, "a second .version (a module has one, at its start)");
      m_version_seen = true;
      next();
      const Token& number = next();
      const size_t dot = number.text.find('.');
      const auto major = parse_unsigned_literal(number.text.substr(0, dot));
      const auto minor = dot == std::string::npos
                             ? std::optional<uint64_t>{}
                             : parse_unsigned_literal(number.text.substr(dot + 1));
      if (number.kind != Token::Kind::number || !major || !minor) fail(line, "bad .version");
      m_module.version_major = static_cast<uint32_t>(*major);
      m_module.version_minor = static_cast<uint32_t>(*minor);
    } else if (directive == ".target") {
      if (!m_module.target.empty()) fail(line, "a second .target (a module has one)");
      next();
      m_module.target = expect_word("a target");
      if (!is_target_name(m_module.target))
        fail(line, "unknown target '" + m_module.target +
                       "': expected sm_NN (sm_75), with a or f "
                       "after it for an architecture-specific one (sm_90a)");
      while (accept(',')) {
        const std::string option = expect_word("a target option");
        if (option != "texmode_independent" && option != "texmode_unified" && option != "debug")
          fail(line, "unknown .target option '" + option + "'");
      }
    } else if (directive == ".address_size") {
      next();
      const uint64_t size = expect_unsigned("an address size");
      if (m_address_size_seen) fail(line, "a second .address_size (a module has one)");
      m_address_size_seen = true;
      if (size != 64)
        fail(line, ".address_size " + std::to_string(size) + " is not supported (only 64)");
      m_module.address_size = 64;
    } else if (directive == ".file") {
      next();
      skip_rest_of_line(line);
    } else if (directive == ".pragma") {
      parse_pragma();
    } else {
      parse_linkage_and_declaration();
    }
  }

  // `.section .debug_str { ... }` as -lineinfo emits it: debug data with no effect on execution.
  void skip_debug_section() {
    const uint32_t line = next().line;
    const std::string name = expect_word("a section name");
    if (name.rfind(".debug_", 0) != 0) fail(line, "unknown section '" + name + "'");
    expect('{');
    for (int depth = 1; depth > 0; next()) {
      if (peek().kind == Token::Kind::end) fail(line, "section '" + name + "' has no closing '}'");
      if (peek().is('{')) ++depth;
      if (peek().is('}')) --depth;
    }
  }

  void parse_pragma() {
    const uint32_t line = next().line;
    if (peek().kind != Token::Kind::string) fail(line, ".pragma needs a string");
    while (peek().kind == Token::Kind::string) {
      next();
      accept(',');
    }
    if (!accept(';')) fail(line, "expected ';' after .pragma");
  }

  void parse_linkage_and_declaration() {
    bool is_extern = false, is_visible = false;
    while (true) {
      const std::string& word = peek().text;
      if (word == ".visible" || word == ".weak" || word == ".common")
        is_visible = true;
      else if (word == ".extern")
        is_extern = true;
      else
        break;
      next();
    }
    const Token& token = peek();
    if (token.is_word(".entry") || token.is_word(".func")) {
      parse_function(is_visible, is_extern);
    } else if (token.is_word(".global") || token.is_word(".const") || token.is_word(".shared")) {
      declare_variable(-1, is_extern);
    } else if (token.is_word(".section")) {
      skip_debug_section();
    } else {
      fail_here("unknown directive " + describe(token));
    }
  }

  // --- variables ---
  struct Declaration {
    std::string name;
    DataType type = DataType::none;
    uint32_t align = 0;
    uint64_t size = 0;
    bool unsized = false;
    bool has_pointer_attributes = false;
    std::vector<uint8_t> initializer;
    size_t initializer_element = 0;
    std::vector<AddressInitializer> addresses;
    uint32_t line = 0;
  };

  // After the space directive: [.align N] [.v2|.v4] [.ptr [.space] [.align N]] .type name [N]...
  Declaration parse_declaration(StateSpace space, bool allow_initializer) {
    Declaration decl;
    decl.line = peek().line;
    uint32_t vector = 1;
    while (peek().kind == Token::Kind::word && peek().text[0] == '.') {
      const std::string word = next().text;
      if (word == ".align") {
        const uint64_t align = expect_unsigned("an alignment");
        if (!is_power_of_two(align)) fail(decl.line, "alignment must be a power of two");
        // After .ptr the alignment is the pointee's, which does not place the parameter.
        if (!decl.has_pointer_attributes) decl.align = static_cast<uint32_t>(align);
      } else if (word == ".v2" || word == ".v4") {
        vector = static_cast<uint32_t>(word[2] - '0');
      } else if (word == ".ptr" && space == StateSpace::param) {
        decl.has_pointer_attributes = true;
      } else if (decl.has_pointer_attributes &&
                 (word == ".global" || word == ".shared" || word == ".const" || word == ".local")) {
        // the pointee's state space: a hint only
      } else if (auto type = type_from_name(std::string_view(word).substr(1));
                 type && decl.type == DataType::none) {
        decl.type = *type;
      } else if (word == ".attribute" && space == StateSpace::global) {
        // `.attribute(.managed)`: a __managed__ variable. Device memory is the host's to read
        // and write here anyway (a workload's "symbol" buffers), so it is an ordinary one.
        expect('(');
        const std::string attribute = expect_word("a variable attribute");
        if (attribute != ".managed")
          fail(decl.line, "unknown variable attribute '" + attribute + "' (.managed is known)");
        expect(')');
      } else if (word == ".texref" || word == ".samplerref" || word == ".surfref") {
        fail(decl.line, "texture references (" + word + ") are not supported; use texture objects");
      } else {
        fail(decl.line, "unknown qualifier '" + word + "' in a declaration");
      }
    }
    if (decl.type == DataType::none) fail(decl.line, "declaration without a type");
    if (decl.type == DataType::pred && space != StateSpace::reg)
      fail(decl.line, ".pred variables are not supported");
    decl.name = expect_word("a name");
    const uint64_t element = type_bytes(decl.type) * vector;
    if (decl.align == 0) decl.align = static_cast<uint32_t>(element);
    uint64_t count = 1;
    while (accept('[')) {
      if (accept(']')) {
        decl.unsized = true;
        continue;
      }
      const uint64_t size = expect_unsigned("an array size");
      // Far beyond any memory: refused before the product can wrap.
      if (size != 0 && count > (uint64_t{1} << 48) / size)
        fail(decl.line, "array '" + decl.name + "' is too large (more than 2^48 elements)");
      count *= size;
      expect(']');
    }
    decl.size = decl.unsized ? 0 : count * element;
    if (accept('=')) {
      if (!allow_initializer) fail(decl.line, "initialiser not allowed here");
      parse_initializer(decl, decl.type);
    }
    return decl;
  }

  void parse_initializer(Declaration& decl, DataType element_type) {
    std::vector<uint8_t>& bytes = decl.initializer;
    const size_t element = type_bytes(element_type);
    decl.initializer_element = element;
    auto add_value = [&]() {
      if (peek().kind == Token::Kind::word) {  // an address: 8 bytes
        if (element != 8)
          fail(decl.line, "an address in an initialiser of " + std::to_string(element) +
                              "-byte elements; addresses take 8 bytes");
        add_address(decl, 0);
        return;
      }
      const bool negative = accept('-');
      const Token& literal = peek();
      if (literal.kind != Token::Kind::number)
        fail(decl.line, "expected a number in the initialiser, found " + describe(literal));
      if (!negative && peek(1).is('(')) {  // mask(address): some bytes of an address
        const std::string mask = literal.text;
        const std::optional<uint32_t> shift = byte_mask_shift(mask);
        if (!shift) fail(decl.line, "address mask " + mask + " is not 0xFF shifted by whole bytes");
        next();
        expect('(');
        add_address(decl, *shift);
        expect(')');
        return;
      }
      const ImmediateResult value = immediate_bits(literal.text, negative, element_type);
      if (!value.error.empty()) fail(decl.line, value.error);
      next();
      for (size_t b = 0; b < element; ++b)
        bytes.push_back(static_cast<uint8_t>(value.bits >> (8 * b)));
    };
    std::function<void()> parse_list = [&]() {
      expect('{');
      if (!peek().is('}')) {
        do {
          if (peek().is('{'))
            parse_list();
          else
            add_value();
        } while (accept(','));
      }
      expect('}');
    };
    if (peek().is('{'))
      parse_list();
    else
      add_value();
    if (decl.unsized) {
      decl.unsized = false;
      decl.size = bytes.size();
    }
    if (bytes.size() > decl.size)
      fail(decl.line, "initialiser has " + std::to_string(bytes.size() / element) +
                          " elements, the variable holds " + std::to_string(decl.size / element));
    // The bytes given; the rest of the variable is zero (not stored: it may be large).
  }

  // The shift of a byte mask 0xFF << 8k (0XFF, 0xFF00, ...), as in `0xFF00(generic(x)+8)`.
  static std::optional<uint32_t> byte_mask_shift(const std::string& text) {
    if (text.size() < 4 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
      return std::nullopt;
    const std::string digits = text.substr(2);
    if (digits.size() > 16 || (digits.size() % 2) != 0) return std::nullopt;
    if (digits.substr(0, 2) != "FF" && digits.substr(0, 2) != "ff") return std::nullopt;
    if (digits.find_first_not_of('0', 2) != std::string::npos) return std::nullopt;
    return static_cast<uint32_t>(4 * (digits.size() - 2));
  }

  // `function`, `variable`, `generic(variable)`, each with an optional `+ n` / `- n`: the
  // address's bytes from bit `shift` on fill the next element of the initialiser. A function's
  // address is known now; a variable's once the loader has placed the module's segments.
  void add_address(Declaration& decl, uint32_t shift) {
    const size_t element = decl.initializer_element;
    const uint32_t line = decl.line;
    bool generic = false;
    std::string name;
    if (peek().is_word("generic") && peek(1).is('(')) {
      next();
      expect('(');
      generic = true;
      name = expect_word("a variable");
      expect(')');
    } else {
      name = expect_word("an address");
    }
    int64_t addend = 0;
    if (peek().is('+') || peek().is('-')) {
      const bool minus = next().is('-');
      const uint64_t magnitude = expect_unsigned("an offset");
      addend = minus ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
    }
    uint64_t known = 0;
    if (const auto function = m_functions_by_name.find(name);
        function != m_functions_by_name.end() && !generic) {
      known = take_address(function->second) + static_cast<uint64_t>(addend);
    } else {
      const auto variable = m_module_symbols.find(name);
      if (variable == m_module_symbols.end())
        fail(line, "unknown " + std::string(generic ? "variable" : "function or variable") + " '" +
                       name + "' in the initialiser of '" + decl.name + "'");
      const StateSpace space = m_module.symbols[variable->second].space;
      if (space != StateSpace::global && space != StateSpace::const_)
        fail(line, "the initialiser of '" + decl.name + "' takes the address of '" + name +
                       "', a ." + std::string(space_name(space)) +
                       " variable; only .global and .const "
                       "variables have addresses before a launch");
      AddressInitializer address;
      address.offset = decl.initializer.size();
      address.width = static_cast<uint32_t>(element);
      address.symbol = variable->second;
      address.generic = generic;
      address.addend = addend;
      address.shift = shift;
      decl.addresses.push_back(address);
    }
    for (size_t b = 0; b < element; ++b)
      decl.initializer.push_back(shift + 8 * b < 64 ? static_cast<uint8_t>(known >> (shift + 8 * b))
                                                    : 0);
  }

  uint32_t add_symbol(const Declaration& decl, StateSpace space, int32_t function, bool is_extern) {
    Symbol symbol;
    symbol.name = decl.name;
    symbol.space = space;
    symbol.type = decl.type;
    symbol.align = decl.align;
    symbol.size = decl.size;
    symbol.is_extern = is_extern;
    symbol.initializer = decl.initializer;
    symbol.addresses = decl.addresses;
    symbol.function = function;
    if (is_extern && space == StateSpace::shared)
      m_module.extern_shared_align = std::max(m_module.extern_shared_align, decl.align);
    m_module.symbols.push_back(std::move(symbol));
    return static_cast<uint32_t>(m_module.symbols.size() - 1);
  }

  // A .global/.const/.shared (module or function scope) or .local (function scope) variable.
  void declare_variable(int32_t function, bool is_extern) {
    const Token& directive = next();
    const uint32_t line = directive.line;
    const StateSpace space = *space_from_name(std::string_view(directive.text).substr(1));
    if (function >= 0 && (space == StateSpace::global || space == StateSpace::const_))
      fail(line, "function-scope " + directive.text + " variables are not supported");
    if (function < 0 && space == StateSpace::local)
      fail(line, "module-scope .local variables are not supported");
    Declaration decl =
        parse_declaration(space, space == StateSpace::global || space == StateSpace::const_);
    expect(';');
    if (is_extern && space != StateSpace::shared)
      fail(line, "external " + directive.text + " variable '" + decl.name +
                     "' is not defined in this module");
    if (decl.unsized && !is_extern) fail(line, "array '" + decl.name + "' has no size");
    if (is_extern) decl.size = 0;
    const uint32_t index = add_symbol(decl, space, function, is_extern);
    auto& names = function < 0 ? m_module_symbols : m_scopes.back().symbols;
    if (function < 0 && m_functions_by_name.count(decl.name))
      fail(line, "'" + decl.name + "' is already a function");
    if (!names.emplace(decl.name, index).second)
      fail(line, "'" + decl.name + "' is declared twice");
  }

  // --- functions ---
  std::vector<Declaration> parse_parameter_list(bool kernel) {
    std::vector<Declaration> params;
    expect('(');
    if (!peek().is(')')) {
      do {
        const Token& token = peek();
        if (!token.is_word(".param") && !(kernel && token.is_word(".reg")))
          fail_here("expected .param, found " + describe(token));
        if (token.is_word(".reg")) fail_here(".reg parameters are not supported");
        next();
        params.push_back(parse_declaration(StateSpace::param, false));
        if (params.back().unsized) fail(params.back().line, "parameter without a size");
        for (size_t i = 0; i + 1 < params.size(); ++i)
          if (params[i].name == params.back().name)
            fail(params.back().line, "parameter '" + params.back().name + "' is declared twice");
      } while (accept(','));
    }
    expect(')');
    return params;
  }

  void parse_function(bool is_visible, bool is_extern) {
    const Token& kind = next();
    const bool is_kernel = kind.text == ".entry";
    const uint32_t line = kind.line;
    while (peek().is_word(".noreturn")) next();
    std::vector<Declaration> returns;
    if (!is_kernel && peek().is('(')) returns = parse_parameter_list(false);
    const std::string name = expect_word("a function name");
    while (peek().is_word(".noreturn")) next();
    std::vector<Declaration> params;
    if (peek().is('(')) params = parse_parameter_list(is_kernel);
    if (is_kernel && !returns.empty()) fail(line, "a kernel cannot return values");
    for (const Declaration& param : params)
      for (const Declaration& result : returns)
        if (param.name == result.name)
          fail(param.line, "'" + param.name + "' is both a return value and a parameter");

    uint32_t index;
    auto existing = m_functions_by_name.find(name);
    if (m_module_symbols.count(name)) fail(line, "'" + name + "' is already a variable");
    if (existing == m_functions_by_name.end()) {
      index = static_cast<uint32_t>(m_module.functions.size());
      m_module.functions.emplace_back();
      m_functions_by_name.emplace(name, index);
    } else {
      index = existing->second;
      const Function& earlier = m_module.functions[index];
      if (earlier.defined) fail(line, "function '" + name + "' is defined twice");
      if (earlier.is_kernel != is_kernel || earlier.params.size() != params.size() ||
          earlier.return_params.size() != returns.size())
        fail(line, "definition of '" + name + "' does not match its declaration");
    }
    Function& function = m_module.functions[index];
    function.name = name;
    function.is_kernel = is_kernel;
    function.is_visible = function.is_visible || is_visible;
    function.source_line = line;
    auto set_params = [&](std::vector<uint32_t>& list, const std::vector<Declaration>& decls) {
      if (list.empty()) {
        for (const Declaration& decl : decls)
          list.push_back(add_symbol(decl, StateSpace::param, static_cast<int32_t>(index), false));
      } else {
        for (size_t i = 0; i < decls.size(); ++i) {
          Symbol& symbol = m_module.symbols[list[i]];
          symbol.name = decls[i].name;
          symbol.type = decls[i].type;
          symbol.align = decls[i].align;
          symbol.size = decls[i].size;
        }
      }
    };
    set_params(function.return_params, returns);
    set_params(function.params, params);

    while (peek().kind == Token::Kind::word && peek().text[0] == '.') {
      const Token& directive = next();
      if (directive.text == ".maxntid" || directive.text == ".reqntid") {
        std::array<uint32_t, 3> block{1, 1, 1};
        for (size_t i = 0; i < 3; ++i) {
          if (i > 0 && !accept(',')) break;
          const uint64_t count = expect_unsigned("a thread count");
          if (count == 0 || count > 1024)
            fail(directive.line, directive.text + " takes thread counts from 1 to 1024");
          block[i] = static_cast<uint32_t>(count);
        }
        function.max_threads = block[0] * block[1] * block[2];
        if (directive.text == ".reqntid") function.required_block = block;
      } else if (directive.text == ".minnctapersm") {
        function.min_ctas_per_sm = static_cast<uint32_t>(expect_unsigned("a CTA count"));
      } else if (directive.text == ".maxnreg") {
        function.max_registers = static_cast<uint32_t>(expect_unsigned("a register count"));
      } else if (directive.text == ".maxnctapersm") {
        expect_unsigned("a count");  // register allocation hints: no effect on the model
      } else if (directive.text == ".pragma") {
        --m_pos;
        parse_pragma();
      } else {
        fail(directive.line, "unknown function directive '" + directive.text + "'");
      }
    }
    if (accept(';')) return;  // a declaration (prototype)
    if (is_extern) fail(line, "external function '" + name + "' cannot have a body");
    function.defined = true;
    parse_body(index);
  }

  // --- function bodies ---
  void parse_body(uint32_t index) {
    m_function = index;
    m_labels.clear();
    m_prototypes.clear();
    m_pending_labels.clear();
    m_scopes.clear();
    m_scopes.emplace_back();
    Function& function = m_module.functions[index];
    for (uint32_t symbol : function.params)
      m_scopes.back().symbols[m_module.symbols[symbol].name] = symbol;
    for (uint32_t symbol : function.return_params)
      m_scopes.back().symbols[m_module.symbols[symbol].name] = symbol;
    expect('{');
    m_scopes.emplace_back();
    while (m_scopes.size() > 1) {
      const Token& token = peek();
      if (token.kind == Token::Kind::end)
        fail(function.source_line, "function '" + function.name + "' has no closing '}'");
      if (token.is('{')) {
        next();
        m_scopes.emplace_back();
      } else if (token.is('}')) {
        next();
        m_scopes.pop_back();
      } else if (token.kind == Token::Kind::word && token.text[0] == '.') {
        parse_body_directive();
      } else if (token.kind == Token::Kind::word && peek(1).is(':') &&
                 peek(2).is_word(".callprototype")) {
        parse_call_prototype();
      } else if (token.kind == Token::Kind::word && peek(1).is(':')) {
        const uint32_t target = static_cast<uint32_t>(function.instructions.size());
        if (!m_labels.emplace(token.text, target).second)
          fail(token.line, "label '" + token.text + "' is defined twice");
        next();
        next();
      } else {
        parse_instruction();
      }
    }
    for (const PendingLabel& pending : m_pending_labels) {
      const auto found = m_labels.find(pending.name);
      if (found == m_labels.end()) fail(pending.line, "unknown label '" + pending.name + "'");
      function.instructions[pending.instruction].operands[pending.operand].target = found->second;
    }
  }

  void parse_body_directive() {
    const Token& token = peek();
    const uint32_t line = token.line;
    const int32_t function = static_cast<int32_t>(m_function);
    if (token.text == ".reg") {
      next();
      declare_registers(line, {});
    } else if (token.text.rfind(".reg.", 0) == 0) {  // `.reg.b32 f;`, as cuda_fp16.hpp writes it
      const std::string qualifiers = next().text.substr(4);
      declare_registers(line, qualifiers);
    } else if (token.text == ".local" || token.text == ".shared") {
      declare_variable(function, false);
    } else if (token.text == ".extern" && peek(1).is_word(".shared")) {
      next();
      declare_variable(function, true);
    } else if (token.text == ".param") {
      next();
      const Declaration decl = parse_declaration(StateSpace::param, false);
      expect(';');
      if (decl.unsized) fail(line, "parameter without a size");
      const uint32_t symbol = add_symbol(decl, StateSpace::param, function, false);
      if (!m_scopes.back().symbols.emplace(decl.name, symbol).second)
        fail(line, "'" + decl.name + "' is declared twice in this scope");
    } else if (token.text == ".pragma") {
      parse_pragma();
    } else if (token.text == ".loc") {
      next();
      skip_rest_of_line(line);
    } else if (token.text == ".branchtargets") {
      // The label list of a brx.idx, which is kept only to refuse the kernels that reach it.
      skip_to_semicolon();
      expect(';');
    } else {
      fail(line, "unknown directive '" + token.text + "' in a function body");
    }
  }

  // `attached`: qualifiers written onto `.reg` itself (".b32" of `.reg.b32`), before those that
  // follow as words.
  void declare_registers(uint32_t line, const std::string& attached) {
    DataType type = DataType::none;
    std::vector<std::string> words;
    for (size_t start = 0; start < attached.size();) {
      const size_t end = attached.find('.', start + 1);
      words.push_back(attached.substr(start, end - start));
      start = end == std::string::npos ? attached.size() : end;
    }
    while (peek().kind == Token::Kind::word && peek().text[0] == '.') words.push_back(next().text);
    for (const std::string& word : words) {
      const auto parsed = type_from_name(std::string_view(word).substr(1));
      if (word == ".v2" || word == ".v4") fail(line, "vector registers are not supported");
      if (!parsed || type != DataType::none) fail(line, "unknown qualifier '" + word + "' in .reg");
      type = *parsed;
    }
    if (!is_register_type(type))
      fail(line, ".reg needs a register type (.pred, .b16, .b32, .b64, .f16, .f32, .f64)");
    Function& function = m_module.functions[m_function];
    auto add = [&](const std::string& name) {
      function.register_types.push_back(type);
      function.register_names.push_back(name);
      const uint32_t index = function.register_count++;
      if (!m_scopes.back().registers.emplace(name, index).second)
        fail(line, "register '" + name + "' is declared twice in this scope");
    };
    do {
      const std::string name = expect_word("a register name");
      if (accept('<')) {
        const uint64_t count = expect_unsigned("a register count");
        expect('>');
        if (count > 1'000'000) fail(line, "too many registers");
        for (uint64_t i = 0; i < count; ++i) add(name + std::to_string(i));
      } else {
        add(name);
      }
    } while (accept(','));
    expect(';');
  }

  // --- instructions ---
  std::optional<uint32_t> find_register(const std::string& name) const {
    for (auto scope = m_scopes.rbegin(); scope != m_scopes.rend(); ++scope) {
      const auto found = scope->registers.find(name);
      if (found != scope->registers.end()) return found->second;
    }
    return std::nullopt;
  }

  std::optional<uint32_t> find_symbol(const std::string& name) const {
    for (auto scope = m_scopes.rbegin(); scope != m_scopes.rend(); ++scope) {
      const auto found = scope->symbols.find(name);
      if (found != scope->symbols.end()) return found->second;
    }
    const auto found = m_module_symbols.find(name);
    if (found != m_module_symbols.end()) return found->second;
    return std::nullopt;
  }

  uint32_t expect_register(const char* what) {
    const Token& token = peek();
    if (token.kind != Token::Kind::word)
      fail_here(std::string("expected ") + what + ", found " + describe(token));
    const auto reg = find_register(token.text);
    if (!reg) fail_undeclared_register(token);
    next();
    return *reg;
  }

  // A register name the file ends on may be cut short: say so rather than call it undeclared.
  [[noreturn]] void fail_undeclared_register(const Token& token) const {
    if (peek(1).kind == Token::Kind::end)
      fail_here("the file ends inside this instruction, at '" + token.text +
                "' (is it cut short?)");
    const size_t dot = token.text.find('.');
    if (dot != std::string::npos && find_register(token.text.substr(0, dot)))
      fail_here("operand selectors and destination masks ('" + token.text +
                "') are not supported; docs/gpu_ptx.md");
    fail_here("undeclared register '" + token.text + "'");
  }

  // Register, special register, symbol or (for branches) label.
  void parse_word_operand(RawOperand& raw, bool branch) {
    const Token& token = peek();
    Operand& operand = raw.operand;
    if (token.text == "_") {
      next();
      operand.kind = Operand::Kind::sink;
      return;
    }
    if (const auto reg = find_register(token.text)) {
      next();
      operand.kind = Operand::Kind::reg;
      operand.reg = *reg;
      if (accept('|')) raw.pipe_predicate = expect_register("a predicate register");
      return;
    }
    if (const auto number = environment_register_number(token.text)) {
      next();
      operand.kind = Operand::Kind::special;
      operand.special = SpecialRegister::envreg;
      operand.component = *number;
      return;
    }
    if (token.text[0] == '%') {
      const size_t dot = token.text.find('.');
      const auto special = special_register_from_name(std::string_view(token.text).substr(0, dot));
      if (special) {
        operand.kind = Operand::Kind::special;
        operand.special = *special;
        if (special_register_has_components(*special)) {
          const std::string_view component =
              dot == std::string::npos ? "" : std::string_view(token.text).substr(dot + 1);
          if (component != "x" && component != "y" && component != "z")
            fail_here(std::string(special_register_name(*special)) + " needs .x, .y or .z");
          operand.component = static_cast<uint8_t>(component[0] - 'x');
        } else if (dot != std::string::npos) {
          fail_here("special register '" + token.text + "' has no components");
        }
        next();
        return;
      }
      fail_undeclared_register(token);
    }
    if (token.text == "WARP_SZ") {  // PTX's predefined warp-size constant (cuda_fp16.h's shuffles)
      operand.kind = Operand::Kind::special;
      operand.special = SpecialRegister::warp_sz;
      next();
      return;
    }
    if (const auto symbol = find_symbol(token.text)) {
      next();
      operand.kind = Operand::Kind::symbol;
      operand.symbol = *symbol;
      return;
    }
    if (branch) {
      operand.kind = Operand::Kind::label;
      raw.literal = token.text;
      next();
      return;
    }
    if (const auto found = m_functions_by_name.find(token.text);
        found != m_functions_by_name.end()) {  // its address, for an indirect call
      next();
      operand.kind = Operand::Kind::function;
      operand.target = found->second;
      take_address(found->second);
      return;
    }
    fail_here("unknown symbol '" + token.text + "'");
  }

  void parse_address(RawOperand& raw, std::vector<RawOperand>& operands) {
    Operand& operand = raw.operand;
    operand.kind = Operand::Kind::address;
    const Token& base = peek();
    if (base.kind == Token::Kind::word) {
      parse_word_operand(raw, false);
      if (operand.kind == Operand::Kind::special || operand.kind == Operand::Kind::sink ||
          raw.pipe_predicate != no_register)
        fail(base.line, "bad address base '" + base.text + "'");
      if (peek().is(',')) {  // texture: [handle, {coordinates}]
        next();
        operands.push_back(raw);
        RawOperand coordinates;
        if (!peek().is('{')) fail_here("expected '{' for texture coordinates");
        parse_vector(coordinates);
        expect(']');
        operands.push_back(coordinates);
        raw.operand.kind = Operand::Kind::none;
        return;
      }
      operand.kind = Operand::Kind::address;
      if (accept('+')) {
        const bool negative = accept('-');
        operand.offset = parse_offset(negative);
      } else if (accept('-')) {
        operand.offset = parse_offset(true);
      }
    } else {
      const bool negative = accept('-');
      operand.offset = parse_offset(negative);
    }
    expect(']');
  }

  int64_t parse_offset(bool negative) {
    const Token& token = peek();
    if (token.kind != Token::Kind::number)
      fail_here("expected an address offset, found " + describe(token));
    const auto value = parse_unsigned_literal(token.text);
    if (!value || *value > static_cast<uint64_t>(INT64_MAX))
      fail_here("bad address offset '" + token.text + "'");
    next();
    return negative ? -static_cast<int64_t>(*value) : static_cast<int64_t>(*value);
  }

  void parse_vector(RawOperand& raw) {
    expect('{');
    Operand& operand = raw.operand;
    operand.kind = Operand::Kind::vector;
    do {
      if (operand.vector_count == Operand::k_max_vector)
        fail_here("vector operands have at most " + std::to_string(Operand::k_max_vector) +
                  " elements");
      const Token& token = peek();
      if (token.text == "_") {
        next();
        operand.vector_regs[operand.vector_count++] = no_register;
        continue;
      }
      if (token.kind == Token::Kind::number && parse_unsigned_literal(token.text) == 0) {
        next();  // `{0, %rs1}`: given a register once the instruction's type is known
        raw.zero_elements |= uint8_t(1u << operand.vector_count);
        operand.vector_regs[operand.vector_count++] = no_register;
        continue;
      }
      if (token.kind != Token::Kind::word)
        fail_here("vector elements must be registers or 0, found " + describe(token));
      operand.vector_regs[operand.vector_count++] = expect_register("a register");
    } while (accept(','));
    expect('}');
  }

  // `mov.b32 %f1, {0, %rs1}` (cuda_bf16.hpp widening a bf16): each 0 is read from a register of
  // the part's size that nothing writes, which holds 0 as every register does at a warp's start.
  void give_zero_elements(RawOperand& raw, const std::string& word, uint32_t line) {
    const size_t dot = word.rfind('.');
    const auto type = dot == std::string::npos || word.rfind("mov.", 0) != 0
                          ? std::nullopt
                          : type_from_name(std::string_view(word).substr(dot + 1));
    const size_t count = raw.operand.vector_count;
    if (!type || count < 2 || type_bytes(*type) % count != 0)
      fail(line, "a vector element may be 0 only in mov's parts, found it in '" + word + "'");
    const DataType part = bits_of_size(type_bytes(*type) / count);
    Function& function = m_module.functions[m_function];
    // Named "0", which no PTX register can be, so that it prints as written.
    const std::string name = "0";
    uint32_t reg = no_register;
    for (uint32_t i = 0; i < function.register_count && reg == no_register; ++i)
      if (function.register_names[i] == name && function.register_types[i] == part) reg = i;
    if (reg == no_register) {
      reg = function.register_count++;
      function.register_types.push_back(part);
      function.register_names.push_back(name);
    }
    for (size_t k = 0; k < count; ++k)
      if (raw.zero_elements & (1u << k)) raw.operand.vector_regs[k] = reg;
  }

  std::vector<RawOperand> parse_operands(bool branch) {
    std::vector<RawOperand> operands;
    if (peek().is(';')) return operands;
    do {
      RawOperand raw;
      const Token& token = peek();
      if (token.is('[')) {
        next();
        parse_address(raw, operands);
        if (raw.operand.kind == Operand::Kind::none) continue;  // texture operands already added
      } else if (token.is('{')) {
        parse_vector(raw);
      } else if (token.is('!')) {
        next();
        raw.operand.kind = Operand::Kind::reg;
        raw.operand.reg = expect_register("a predicate register");
        raw.operand.negated = true;
      } else if (token.is('-') || token.kind == Token::Kind::number) {
        raw.literal_negative = accept('-');
        if (peek().kind != Token::Kind::number) fail_here("expected a number after '-'");
        raw.operand.kind = Operand::Kind::imm;
        raw.literal = next().text;
      } else if (token.kind == Token::Kind::word) {
        parse_word_operand(raw, branch);
      } else {
        fail_here("unexpected " + describe(token) + " in operands");
      }
      operands.push_back(raw);
    } while (accept(','));
    return operands;
  }

  void parse_instruction() {
    Function& function = m_module.functions[m_function];
    const size_t first_token = m_pos;
    Instruction inst;
    const uint32_t line = peek().line;
    inst.source_line = line;
    if (accept('@')) {
      inst.guard_negated = accept('!');
      inst.guard_reg = expect_register("a guard predicate");
      if (function.register_types[inst.guard_reg] != DataType::pred)
        fail(line,
             "guard '" + function.register_names[inst.guard_reg] + "' is not a predicate register");
    }
    const std::string word = expect_word("an instruction");
    if (const auto refusal = unsupported_instruction(word.substr(0, word.find('.')))) {
      skip_to_semicolon();
      keep_unsupported(inst, *refusal, first_token);
    } else if (word == "call" || word.rfind("call.", 0) == 0) {
      parse_call(inst, word);
    } else {
      check_statement_ends(word, line);
      const bool branch = word == "bra" || word.rfind("bra.", 0) == 0;
      std::vector<RawOperand> operands = parse_operands(branch);
      if (!peek().is(';')) fail(line, "expected ';' after the operands, found " + describe(peek()));
      for (RawOperand& raw : operands)
        if (raw.zero_elements != 0) give_zero_elements(raw, word, line);
      try {
        decode_instruction(word, operands, function, inst);
        check_symbol_space(inst, function, line);
      } catch (const DecodeError& error) {
        if (!error.unsupported) fail(line, error.message);
        keep_unsupported(inst, error.message, first_token);
        operands.clear();
      }
      for (uint32_t i = 0; i < operands.size(); ++i)
        if (operands[i].operand.kind == Operand::Kind::label)
          m_pending_labels.push_back(
              {static_cast<uint32_t>(function.instructions.size()), i, operands[i].literal, line});
    }
    expect(';');
    function.instructions.push_back(std::move(inst));
  }

  // A variable named as an address ([x]) is in the space the instruction reaches, as ptxas has
  // it: .global, .shared and .local variables in theirs or through a generic access; .const and
  // .param ones read with ld.const and ld.param only; a function's own parameters never written.
  void check_symbol_space(const Instruction& inst, const Function& function, uint32_t line) const {
    const bool write = inst.op == Opcode::st;
    const bool read = inst.op == Opcode::ld || inst.op == Opcode::ldu;
    if (!write && !read && inst.op != Opcode::atom && inst.op != Opcode::red &&
        inst.op != Opcode::prefetch)
      return;
    for (uint32_t i = 0; i < inst.operand_count; ++i) {
      const Operand& operand = inst.operands[i];
      if (operand.kind != Operand::Kind::address || operand.symbol >= m_module.symbols.size())
        continue;
      const Symbol& symbol = m_module.symbols[operand.symbol];
      const std::string what =
          "'" + symbol.name + "' is a ." + std::string(space_name(symbol.space)) + " variable";
      const bool input = symbol.space == StateSpace::param &&
                         std::find(function.params.begin(), function.params.end(),
                                   operand.symbol) != function.params.end();
      if (write && symbol.space == StateSpace::const_)
        fail(line, what + ": .const memory is read only");
      if (write && input) fail(line, what + ", an input of the function: it cannot be written");
      const bool generic_reaches = symbol.space == StateSpace::global ||
                                   symbol.space == StateSpace::shared ||
                                   symbol.space == StateSpace::local;
      const bool reaches =
          inst.space == symbol.space || (inst.space == StateSpace::generic && generic_reaches);
      if (!reaches)
        fail(line, what + ", which " + std::string(opcode_name(inst.op)) +
                       (inst.space == StateSpace::generic
                            ? " without a state space does not reach (give ." +
                                  std::string(space_name(symbol.space)) + ")"
                            : "." + std::string(space_name(inst.space)) + " does not reach"));
    }
  }

  // A label without its ':', or an instruction without operands that lacks its ';', runs into
  // the next line: said so before what is there is taken for operands.
  void check_statement_ends(const std::string& word, uint32_t line) {
    const Token& after = peek();
    if (after.is(';') || after.line == line) return;
    if (!is_instruction_name(word.substr(0, word.find('.'))))
      fail(line, "unknown instruction '" + word + "' (a label is followed by ':')");
    const bool starts_statement =
        after.is('}') || after.is('@') ||
        (after.kind == Token::Kind::word &&
         is_instruction_name(after.text.substr(0, after.text.find('.'))) &&
         !find_register(after.text) && !find_symbol(after.text));
    if (starts_statement)
      fail(line, "expected ';' after '" + word + "', found " + describe(after) + " on line " +
                     std::to_string(after.line));
  }

  // Moves to the statement's ';' (or the end of the file) without reading what is before it.
  void skip_to_semicolon() {
    while (!peek().is(';') && peek().kind != Token::Kind::end) next();
  }

  // Keeps PTX the model does not run in its place, for the kernels that reach it to be refused
  // (KernelLayout) while the module's other kernels run. Its text is that of its tokens from
  // `first_token` on.
  void keep_unsupported(Instruction& inst, const std::string& reason, size_t first_token) {
    Function& function = m_module.functions[m_function];
    Instruction kept;
    kept.op = Opcode::unsupported;
    kept.source_line = inst.source_line;
    kept.guard_reg = inst.guard_reg;
    kept.guard_negated = inst.guard_negated;
    inst = kept;
    function.unsupported.push_back({static_cast<uint32_t>(function.instructions.size()),
                                    excerpt(statement_text(first_token), 200), reason});
  }

  // The statement of tokens [first, current) and its ';', spaced as PTX is written.
  std::string statement_text(size_t first) const {
    const auto punct = [&](size_t i, std::string_view set) {
      return m_tokens[i].kind == Token::Kind::punct && set.find(m_tokens[i].text[0]) != set.npos;
    };
    std::string text;
    for (size_t i = first; i < m_pos; ++i) {
      const bool tight = i == first || punct(i, ",;)]}|") || punct(i - 1, "([{@!|+-") ||
                         (punct(i, "+-") && !punct(i - 1, ",({["));
      if (!tight) text += ' ';
      text += m_tokens[i].text;
    }
    return text + ";";
  }

  std::vector<uint32_t> parse_call_list(uint32_t line) {
    std::vector<uint32_t> symbols;
    expect('(');
    if (!peek().is(')')) {
      do {
        const Token& token = peek();
        const auto symbol =
            token.kind == Token::Kind::word ? find_symbol(token.text) : std::nullopt;
        if (!symbol || m_module.symbols[*symbol].space != StateSpace::param)
          fail(line, "call arguments must be .param variables, found " + describe(token));
        next();
        symbols.push_back(*symbol);
      } while (accept(','));
    }
    expect(')');
    return symbols;
  }

  void parse_call(Instruction& inst, const std::string& word) {
    const uint32_t line = inst.source_line;
    if (word != "call" && word != "call.uni") fail(line, "unknown modifier in '" + word + "'");
    inst.op = Opcode::call;
    inst.unit = UnitClass::branch;
    inst.mod.uniform = word == "call.uni";
    if (peek().is('(')) {
      inst.call_returns = parse_call_list(line);
      expect(',');
    }
    const Token& callee = peek();
    if (callee.kind != Token::Kind::word)
      fail(line, "expected a function name, found " + describe(callee));
    if (const auto reg = find_register(callee.text)) {  // indirect: call (r), %rd, (a), proto;
      next();
      const DataType type = m_module.functions[m_function].register_types[*reg];
      if (type_bytes(type) != 8 || type == DataType::pred || is_float(type))
        fail(line, "an indirect call takes a 64-bit register holding a function's address, '" +
                       callee.text + "' is ." + std::string(type_name(type)));
      bool separated = accept(',');
      if (separated && peek().is('(')) {
        inst.call_arguments = parse_call_list(line);
        separated = accept(',');
      }
      const Token& prototype = peek();
      if (!separated || prototype.kind != Token::Kind::word || !m_prototypes.count(prototype.text))
        fail(line,
             "an indirect call ends in its .callprototype label, found " + describe(prototype));
      next();
      inst.operand_count = 1;
      inst.operands[0].kind = Operand::Kind::reg;
      inst.operands[0].reg = *reg;
      return;
    }
    const std::string name = next().text;
    if (accept(',')) inst.call_arguments = parse_call_list(line);
    if (accept(',')) fail(line, "a call prototype belongs to an indirect call, through a register");
    inst.operand_count = 1;
    inst.operands[0].kind = Operand::Kind::function;
    m_pending_calls.push_back(
        {m_function, static_cast<uint32_t>(m_module.functions[m_function].instructions.size()),
         name, line});
  }

  // `name: .callprototype (.param .b32 _) _ (.param .b32 _);` names the signature of an indirect
  // call. The call's own argument lists say what it passes, so only the name is kept.
  void parse_call_prototype() {
    const Token& name = next();
    next();  // ':'
    next();  // .callprototype
    while (!peek().is(';')) {
      if (peek().kind == Token::Kind::end)
        fail(name.line, ".callprototype '" + name.text + "' has no closing ';'");
      next();
    }
    next();
    m_prototypes.insert(name.text);
  }

  // Records that the module takes `function`'s address; returns the address.
  uint64_t take_address(uint32_t function) {
    std::vector<uint32_t>& taken = m_module.address_taken;
    if (std::find(taken.begin(), taken.end(), function) == taken.end()) taken.push_back(function);
    return function_address(function);
  }

  void resolve_calls() {
    for (const PendingCall& call : m_pending_calls) {
      const auto found = m_functions_by_name.find(call.callee);
      if (found == m_functions_by_name.end())
        fail(call.line, "unknown function '" + call.callee + "'");
      const Function& callee = m_module.functions[found->second];
      if (callee.is_kernel) fail(call.line, "cannot call kernel '" + call.callee + "'");
      Instruction& inst = m_module.functions[call.function].instructions[call.instruction];
      if (inst.call_arguments.size() != callee.params.size())
        fail(call.line, "call to '" + call.callee + "' passes " +
                            std::to_string(inst.call_arguments.size()) + " arguments, it takes " +
                            std::to_string(callee.params.size()));
      if (inst.call_returns.size() != callee.return_params.size())
        fail(call.line,
             "call to '" + call.callee + "' receives " + std::to_string(inst.call_returns.size()) +
                 " return values, it returns " + std::to_string(callee.return_params.size()));
      inst.operands[0].target = found->second;
    }
  }

  std::vector<Token> m_tokens;
  size_t m_pos = 0;
  std::string m_file;
  std::vector<std::string> m_lines;
  Module m_module;
  bool m_version_seen = false;
  bool m_address_size_seen = false;
  std::unordered_map<std::string, uint32_t> m_module_symbols;
  std::unordered_map<std::string, uint32_t> m_functions_by_name;
  std::vector<PendingCall> m_pending_calls;
  // State of the function body being parsed.
  uint32_t m_function = 0;
  std::vector<Scope> m_scopes;
  std::unordered_map<std::string, uint32_t> m_labels;
  std::unordered_set<std::string> m_prototypes;  // .callprototype labels of the function
  std::vector<PendingLabel> m_pending_labels;
};

}  // namespace

Module parse_ptx(std::string_view text, const std::string& file_name) {
  // A UTF-8 byte-order mark, as some editors write, is not part of the first line.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  if (text.find('\r') != std::string_view::npos) {
    // One line-ending convention, so that the lines quoted in messages are the ones counted.
    const std::string lf = with_lf_line_ends(text);
    return Parser(lf, file_name).run();
  }
  return Parser(text, file_name).run();
}

Module load_ptx_file(const std::string& path) {
  // A folder reads as empty and a FIFO may never end: only regular files.
  const auto fail = [&path](const std::string& why) {
    throw ConfigError("cannot read PTX file '" + path + "': " + why);
  };
  if (const auto why = why_not_regular(path)) fail(*why);
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) fail("read error");
  return parse_ptx(text.str(), path);
}

}  // namespace ohmvp::gpu
