#include "platforms/run_outputs.h"

#include "platforms/report.h"

namespace ohmvp {

RunOutputs::RunOutputs(const RunOptions& options) {
  guard([&] {
    for (const auto& folder : {std::optional(options.out_dir), options.dump}) {
      if (!folder) continue;
      const std::filesystem::path created = create_folder(*folder);
      if (!created.empty()) m_created_folders.push_back(created);
    }
    if (options.vcd) {
      m_vcd = std::make_unique<VcdWriter>(*options.vcd);
      m_vcd_file = options.vcd;
    }
  });
}

RunOutputs::~RunOutputs() = default;

void RunOutputs::discard() noexcept {
  std::error_code ignored;
  if (m_vcd_file) {
    m_vcd.reset();
    std::filesystem::remove(*m_vcd_file, ignored);
  }
  for (const std::filesystem::path& folder : m_created_folders)
    std::filesystem::remove_all(folder, ignored);
}

}  // namespace ohmvp
