#include "modules/common/vcd_scope_tree.h"

#include <algorithm>

namespace ohmvp {

std::vector<std::string> split_vcd_scope(const std::string& scope) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t dot = scope.find('.', begin);
    parts.push_back(scope.substr(begin, dot - begin));
    if (dot == std::string::npos) return parts;
    begin = dot + 1;
  }
}

std::vector<VcdScopeNode> vcd_scope_tree(const std::vector<VcdDeclaration>& declarations) {
  std::vector<VcdScopeNode> nodes(1);
  for (std::size_t id = 0; id < declarations.size(); ++id) {
    std::size_t node = 0;
    for (const std::string& part : split_vcd_scope(declarations[id].scope)) {
      const auto& children = nodes[node].children;
      const auto child = std::find_if(children.begin(), children.end(),
                                      [&](std::size_t c) { return nodes[c].name == part; });
      if (child != children.end()) {
        node = *child;
      } else {
        nodes.push_back(VcdScopeNode{part, {}, {}});
        nodes[node].children.push_back(nodes.size() - 1);
        node = nodes.size() - 1;
      }
    }
    nodes[node].signals.push_back(id);
  }
  return nodes;
}

}  // namespace ohmvp
