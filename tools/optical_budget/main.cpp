// The optical channel's power, reliability and MRR figures per platform and mode, as the tables
// of docs/optical.md (Ohm-GPU Fig. 20b and Table 3).
//   optical_budget [--config FILE] [--waveguides N] [--devices DRAM,XPOINT]
// FILE is an optical preset (memory.optical; default configs/optical/ohm_channel.json); the
// laser of each platform is the file's power per wavelength times the paper's 1x/2x/2x/4x.
// --devices sets the DRAM and XPoint devices per channel in both modes (default: 2,2 planar and
// 1,3 two-level, the 24 devices of the paper).

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include <systemc>  // sc_main's declaration (C linkage)

#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/optical/link_budget.h"

using namespace ohmvp;

namespace {

int usage(const std::string& problem) {
  std::cerr << "optical_budget: " << problem
            << "\nusage: optical_budget [--config FILE] [--waveguides N] [--devices DRAM,XPOINT]\n";
  return 2;
}

bool parse_count(const std::string& text, uint32_t min, uint32_t max, uint32_t& value) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < min || v > max) return false;
  value = static_cast<uint32_t>(v);
  return true;
}

constexpr OhmPlatform k_platforms[] = {OhmPlatform::ohm_base, OhmPlatform::auto_rw,
                                       OhmPlatform::ohm_wom, OhmPlatform::ohm_bw};
constexpr HeteroMode k_modes[] = {HeteroMode::planar, HeteroMode::two_level};

void print_budgets(const OpticalChannelConfig& config,
                   const std::optional<MrrLayoutShape>& devices) {
  std::printf(
      "| platform | mode | worst route | loss dB | laser needed mW | x Ohm-base | laser mW | "
      "BER |\n|---|---|---|---|---|---|---|---|\n");
  for (HeteroMode mode : k_modes) {
    const MrrLayoutShape shape = devices ? *devices : MrrLayoutShape::paper_default(mode);
    const double base =
        platform_budget(OhmPlatform::ohm_base, mode, config, shape).required_laser_mw;
    for (OhmPlatform platform : k_platforms) {
      OpticalChannelConfig c = config;
      c.laser.power_scale = paper_laser_scale(platform);
      const PlatformBudget b = platform_budget(platform, mode, c, shape);
      const RouteBudget& worst = b.worst_route();
      std::printf("| %s | %s | %s: %s | %.2f | %.3f | %.2f | %.2f | %.2g |\n", to_string(platform),
                  to_string(mode), to_string(worst.route.kind), worst.route.receiver.c_str(),
                  worst.route.loss.total_db(), b.required_laser_mw, b.required_laser_mw / base,
                  b.laser_mw, b.ber_max);
    }
  }
}

void print_mrr_counts(const OpticalChannelConfig& config,
                      const std::optional<MrrLayoutShape>& devices) {
  std::printf(
      "\n| platform | mode | modulators + detectors | saving vs general | cost USD | Table 3 |\n"
      "|---|---|---|---|---|---|\n");
  for (HeteroMode mode : k_modes) {
    const MrrLayoutShape shape = devices ? *devices : MrrLayoutShape::paper_default(mode);
    const MrrCounts general = count_channel_mrrs(config, shape, all_functions());
    for (OhmPlatform platform : k_platforms) {
      const MrrCounts m = count_channel_mrrs(config, shape, functions_of(platform, mode));
      const PublishedMrrCounts paper = published_mrr_counts(platform, mode);
      std::printf("| %s | %s | %llu + %llu | %.0f%% | %.2f | ", to_string(platform),
                  to_string(mode), static_cast<unsigned long long>(m.modulators),
                  static_cast<unsigned long long>(m.detectors), 100.0 * saving(m, general),
                  mrr_cost_usd(m));
      if (paper.modulators == 0) {
        std::printf("- |\n");
      } else {
        std::printf("%llu + %llu |\n", static_cast<unsigned long long>(paper.modulators),
                    static_cast<unsigned long long>(paper.detectors));
      }
    }
    std::printf("| general | %s | %llu + %llu | | %.2f | |\n", to_string(mode),
                static_cast<unsigned long long>(general.modulators),
                static_cast<unsigned long long>(general.detectors), mrr_cost_usd(general));
  }
}

}  // namespace

int sc_main(int argc, char** argv) {
  const std::filesystem::path configs = std::filesystem::path(OHMVP_SOURCE_DIR) / "configs";
  std::filesystem::path file = configs / "optical" / "ohm_channel.json";
  std::optional<uint32_t> waveguides;
  std::optional<MrrLayoutShape> devices;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--config" && has_value) {
      file = argv[++i];
    } else if (arg == "--waveguides" && has_value) {
      uint32_t n = 0;
      if (!parse_count(argv[++i], 1, 64, n)) return usage("--waveguides: expected 1 to 64");
      waveguides = n;
    } else if (arg == "--devices" && has_value) {
      const std::string value = argv[++i];
      const size_t comma = value.find(',');
      MrrLayoutShape shape;
      if (comma == std::string::npos ||
          !parse_count(value.substr(0, comma), 1, 64, shape.dram_per_channel) ||
          !parse_count(value.substr(comma + 1), 1, 64, shape.xpoint_per_channel))
        return usage("--devices: expected DRAM,XPOINT per channel, each 1 to 64");
      devices = shape;
    } else if (arg == "--help" || arg == "-h") {
      return usage("optical power, BER and MRR figures per platform");
    } else {
      return usage("unknown or incomplete option '" + arg + "'");
    }
  }
  try {
    const ConfigDocument document = ConfigDocument::load(file, {configs});
    const ConfigReader root(document.json(), "", &document);
    OpticalChannelConfig config;
    parse(root.child("memory").child("optical"), config);
    if (waveguides) config.waveguides = *waveguides;
    print_budgets(config, devices);
    print_mrr_counts(config, devices);
  } catch (const ConfigError& e) {
    std::cerr << "optical_budget: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "optical_budget: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
