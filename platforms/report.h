#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "modules/common/run_input.h"
#include "modules/common/stats.h"
#include "modules/gpu/launch_record.h"

namespace ohmvp {

constexpr int report_schema_version = 1;

// The headline figures every report carries under "summary" (see docs/report.md).
struct RunSummary {
  double simulated_ns = 0;
  uint64_t requests = 0;
  double avg_latency_ns = 0;
  double p99_latency_ns = 0;
  double bandwidth_gbps = 0;  // delivered data bandwidth, 10^9 bytes per second

  // Kernel runs on a GPU platform add these (totals over every launch).
  struct Gpu {
    double ipc = 0;  // warp instructions per core cycle, whole GPU
    uint64_t cycles = 0;
    uint64_t warp_instructions = 0;
    uint64_t thread_instructions = 0;
    double simd_efficiency = 0;     // active lanes / (warp size x warp instructions)
    uint64_t hmma = 0;              // HMMA steps of the tensor-core matrix multiplies
    double tensor_tflops = 0;       // 2 x multiply-adds / kernel time, 10^12 per second
    double tensor_utilization = 0;  // tensor-core busy cycles / (cycles x sub-cores)
    // The L2's traffic to memory (the summary's `requests`) per 1000 warp instructions, and its
    // reads over reads plus writes: a workload's memory intensity as APKI tables give it.
    double memory_apki = 0;
    double memory_read_ratio = 0;
    std::vector<gpu::LaunchRecord> launches;  // the report's "launches"
  };
  std::optional<Gpu> gpu;

  // Hetero platforms (memory.mode planar or two_level) add these (sums over every channel).
  struct Hetero {
    // Planar: page swaps; two-level: DRAM-cache fills plus dirty write-backs.
    uint64_t migrations = 0;
    uint64_t migration_bytes = 0;        // bytes moved on the channels for migration
    double migration_channel_share = 0;  // migration / all data-bus time of the managers
    // Two-level: DRAM-cache hits / lookups; planar: requests served by DRAM / all requests.
    double dram_cache_hit_rate = 0;
    // With XPoint (not paged, whose far memory is the host's): most written media line / mean
    // writes per line, and partition time busy / (partitions x time), mean over the channels.
    std::optional<double> xpoint_wear_max_over_mean;
    std::optional<double> xpoint_media_utilisation;
  };
  std::optional<Hetero> hetero;

  // Platforms on the optical channel (memory.channel.type "optical") add these.
  struct Optical {
    double laser_power_mw = 0;  // laser per wavelength, as configured (paper's scale included)
    uint64_t mrr_count = 0;     // modulators + detectors of the platform's layout
    double ber_max = 0;         // worst route's bit error rate at that laser
  };
  std::optional<Optical> optical;
  // The memory system's energy over the run, every component (energy_summary.h).
  std::optional<double> energy_j;
};

// The report's "inputs": each file the run read, by its role, with its name (not its folder: the
// report does not depend on where the run was made), size and FNV-1a hash, so that two reports
// tell whether their PTX, workload and platform files were the same.
nlohmann::json inputs_json(const std::vector<RunInput>& inputs);

// The report's "launches" (and each "other_gpus" entry's): one object per launch, as it ended.
nlohmann::json launches_json(const std::vector<gpu::LaunchRecord>& launches);

nlohmann::json make_report(const std::string& platform, const std::string& workload, uint64_t seed,
                           const RunSummary& summary, const StatsRegistry& stats,
                           const nlohmann::json& platform_config,
                           const nlohmann::json& workload_config,
                           const std::vector<RunInput>& inputs);

// Creates the folder and its parents; ConfigError naming it when that fails. Returns the top-most
// folder it created (empty when the folder was there).
std::filesystem::path create_folder(const std::filesystem::path& folder);

// ConfigError naming the folder when no file can be made in it (read-only), so that a run finds
// out before it simulates rather than after; leaves nothing behind.
void check_folder_writable(const std::filesystem::path& folder);

// Whether the two paths name one file (the same path once resolved, or the same inode).
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

// Writes the file whole or not at all (a temporary file renamed into place).
void write_file_atomically(const std::filesystem::path& file, const std::string& text);

void print_summary(std::ostream& out, const std::string& platform, const std::string& workload,
                   const RunSummary& summary, const StatsRegistry& stats);

}  // namespace ohmvp
