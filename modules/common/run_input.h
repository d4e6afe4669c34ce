#pragma once

#include <filesystem>
#include <string>

namespace ohmvp {

// A file a run reads and what it is to the run: "platform", "workload", "ptx", "trace",
// "buffers.<name>", "expected.<name>"; another GPU's with "gpu<i>." in front.
struct RunInput {
  std::string role;
  std::filesystem::path file;
};

}  // namespace ohmvp
