#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ohmvp {

// A signal as the VCD declares it: a dotted scope ("memory.mc0"), a name and a width in bits.
struct VcdDeclaration {
  std::string scope;
  std::string name;
  unsigned width;
};

// The scopes of a VCD's signals as a tree, in the order they first appear: nodes[0] is the
// unnamed root; each node lists its own signals (indices into the declarations) and its child
// scopes (indices into the nodes). The VCD header and GTKWave's save file both walk it, so the
// save file's traces come in the header's order.
struct VcdScopeNode {
  std::string name;
  std::vector<std::size_t> children;
  std::vector<std::size_t> signals;
};

// "memory.mc0" -> {"memory", "mc0"}.
std::vector<std::string> split_vcd_scope(const std::string& scope);

std::vector<VcdScopeNode> vcd_scope_tree(const std::vector<VcdDeclaration>& declarations);

}  // namespace ohmvp
