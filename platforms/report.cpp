#include "platforms/report.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iomanip>

#include "modules/common/errors.h"
#include "modules/common/fnv_hash.h"
#include "modules/common/hex_text.h"
#include "modules/common/json_file.h"

namespace ohmvp {

namespace {

nlohmann::json dim3_json(const gpu::Dim3& d) {
  return {d.x, d.y, d.z};
}

}  // namespace

nlohmann::json launches_json(const std::vector<gpu::LaunchRecord>& launches) {
  nlohmann::json list = nlohmann::json::array();
  for (const gpu::LaunchRecord& l : launches) {
    const gpu::Occupancy& o = l.occupancy;
    list.push_back({{"kernel", l.kernel},
                    {"grid", dim3_json(l.grid)},
                    {"block", dim3_json(l.block)},
                    {"start_cycle", l.start_cycle},
                    {"cycles", l.end_cycle - l.start_cycle},
                    {"warp_instructions", l.warp_instructions},
                    {"faulted", l.faulted},
                    {"stream", l.stream ? nlohmann::json(*l.stream) : nlohmann::json()},
                    {"priority", l.priority},
                    {"ctas_per_sm", o.ctas_per_sm},
                    {"occupancy_limiter", gpu::limiter_name(o.limiter)},
                    {"warps_per_sm", o.ctas_per_sm * o.warps_per_cta},
                    {"registers_per_thread", o.registers_per_thread},
                    {"shared_bytes_per_cta", o.shared_bytes_per_cta}});
  }
  return list;
}

nlohmann::json make_report(const std::string& platform, const std::string& workload, uint64_t seed,
                           const RunSummary& s, const StatsRegistry& stats,
                           const nlohmann::json& platform_config,
                           const nlohmann::json& workload_config,
                           const std::vector<RunInput>& inputs) {
  nlohmann::json report;
  report["schema_version"] = report_schema_version;
  report["ohmvp_version"] = OHMVP_VERSION;
  report["platform"] = platform;
  report["workload"] = workload;
  report["seed"] = seed;
  report["summary"] = {{"simulated_ns", s.simulated_ns},
                       {"requests", s.requests},
                       {"avg_latency_ns", s.avg_latency_ns},
                       {"p99_latency_ns", s.p99_latency_ns},
                       {"bandwidth_gbps", s.bandwidth_gbps}};
  if (s.gpu) {
    nlohmann::json& summary = report["summary"];
    summary["ipc"] = s.gpu->ipc;
    summary["cycles"] = s.gpu->cycles;
    summary["warp_instructions"] = s.gpu->warp_instructions;
    summary["thread_instructions"] = s.gpu->thread_instructions;
    summary["simd_efficiency"] = s.gpu->simd_efficiency;
    summary["hmma"] = s.gpu->hmma;
    summary["tensor_tflops"] = s.gpu->tensor_tflops;
    summary["tensor_utilization"] = s.gpu->tensor_utilization;
    summary["memory_apki"] = s.gpu->memory_apki;
    summary["memory_read_ratio"] = s.gpu->memory_read_ratio;
    report["launches"] = launches_json(s.gpu->launches);
  }
  if (s.hetero) {
    nlohmann::json& summary = report["summary"];
    summary["migrations"] = s.hetero->migrations;
    summary["migration_bytes"] = s.hetero->migration_bytes;
    summary["migration_channel_share"] = s.hetero->migration_channel_share;
    summary["dram_cache_hit_rate"] = s.hetero->dram_cache_hit_rate;
    // A figure the platform does not have is absent, not 0.
    if (s.hetero->xpoint_wear_max_over_mean)
      summary["xpoint_wear_max_over_mean"] = *s.hetero->xpoint_wear_max_over_mean;
    if (s.hetero->xpoint_media_utilisation)
      summary["xpoint_media_utilisation"] = *s.hetero->xpoint_media_utilisation;
  }
  if (s.optical) {
    nlohmann::json& summary = report["summary"];
    summary["laser_power_mw"] = s.optical->laser_power_mw;
    summary["mrr_count"] = s.optical->mrr_count;
    summary["ber_max"] = s.optical->ber_max;
  }
  if (s.energy_j) report["summary"]["energy_j"] = *s.energy_j;
  report["stats"] = stats.to_json();
  report["config"] = {{"platform", platform_config}, {"workload", workload_config}};
  report["inputs"] = inputs_json(inputs);
  return report;
}

nlohmann::json inputs_json(const std::vector<RunInput>& inputs) {
  nlohmann::json list = nlohmann::json::array();
  for (const RunInput& input : inputs) {
    if (input.file.empty()) continue;  // a document made in memory
    std::ifstream in(input.file, std::ios::binary);
    uint64_t hash = fnv1a64_basis;
    uint64_t bytes = 0;
    std::string chunk(std::size_t{1} << 16, '\0');
    while (in.read(chunk.data(), std::streamsize(chunk.size())) || in.gcount() > 0) {
      hash = fnv1a64(std::string_view(chunk.data(), std::size_t(in.gcount())), hash);
      bytes += uint64_t(in.gcount());
    }
    if (!in.eof())
      throw SimulationError("cannot read " + input.file.string() + " (" + input.role +
                            ") again to record it in the report");
    list.push_back({{"role", input.role},
                    {"file", input.file.filename().string()},
                    {"bytes", bytes},
                    {"fnv1a64", hex_text(hash)}});
  }
  return list;
}

std::filesystem::path create_folder(const std::filesystem::path& folder) {
  std::error_code error;
  std::filesystem::path top_created;
  // Lexically normal, so that "x/../y" is walked as "y" (and "x" is not thought made).
  for (std::filesystem::path missing = folder.lexically_normal(); !missing.empty();
       missing = missing.parent_path()) {
    // Only what is surely not there: a folder that cannot be looked at is not ours to remove.
    if (std::filesystem::status(missing, error).type() != std::filesystem::file_type::not_found)
      break;
    top_created = missing;
  }
  std::filesystem::create_directories(folder.lexically_normal(), error);
  if (error) {
    // A link to nothing reads as missing, but no folder can be made in its place.
    std::error_code no_link;
    if (std::filesystem::is_symlink(top_created, no_link))
      throw ConfigError("cannot create output folder " + folder.string() + ": " +
                        top_created.string() + " is a symbolic link to " +
                        std::filesystem::read_symlink(top_created, no_link).string() +
                        ", which does not exist");
    throw ConfigError("cannot create output folder " + folder.string() + ": " + error.message());
  }
  return top_created;
}

void check_folder_writable(const std::filesystem::path& folder) {
  // Permissions alone do not tell (a read-only mount; root): a file is made and removed.
  const std::filesystem::path probe = folder / (".ohmvp-write-check-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0)
    throw ConfigError("cannot write in output folder " + folder.string() + ": " +
                      std::strerror(errno));
  ::close(fd);
  std::error_code ignored;
  std::filesystem::remove(probe, ignored);
}

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  // Absolute first: weakly_canonical leaves a relative path relative when its first folder does
  // not exist yet, and it would never equal the same file named absolutely.
  const auto resolved = [](const std::filesystem::path& path) {
    const std::filesystem::path absolute = std::filesystem::absolute(path).lexically_normal();
    std::error_code unknown;
    const std::filesystem::path full = std::filesystem::weakly_canonical(absolute, unknown);
    return unknown ? absolute : full;
  };
  std::error_code missing;  // equivalent() needs both to exist
  return resolved(a) == resolved(b) || std::filesystem::equivalent(a, b, missing);
}

void write_file_atomically(const std::filesystem::path& file, const std::string& text) {
  if (!file.has_filename()) throw ConfigError("cannot write '" + file.string() + "': no file name");
  // Renaming over a device or a FIFO would replace it with a plain file.
  if (const auto why = why_not_regular(file))
    throw ConfigError("cannot write " + file.string() + ": " + *why);
  const std::filesystem::path temporary = file.string() + ".tmp";
  std::error_code error;
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw ConfigError("cannot write " + temporary.string() + ": " + std::strerror(errno));
    out << text;
    if (!out.flush()) error.assign(errno, std::generic_category());
  }
  if (!error) std::filesystem::rename(temporary, file, error);
  if (error) {
    const std::string reason = error.message();
    std::filesystem::remove(temporary, error);
    throw ConfigError("cannot write " + file.string() + ": " + reason);
  }
}

void print_summary(std::ostream& out, const std::string& platform, const std::string& workload,
                   const RunSummary& s, const StatsRegistry& stats) {
  out << "OhmVP " << OHMVP_VERSION << ": platform " << platform << ", workload " << workload << "\n"
      << std::fixed << std::setprecision(3) << "  simulated time    " << s.simulated_ns << " ns\n"
      << "  requests          " << s.requests << "\n"
      << "  read latency      " << s.avg_latency_ns << " ns mean, " << s.p99_latency_ns
      << " ns p99\n"
      << "  bandwidth         " << s.bandwidth_gbps << " GB/s\n";
  if (s.gpu)
    out << "  GPU cycles        " << s.gpu->cycles << "\n"
        << "  warp instructions " << s.gpu->warp_instructions << " (" << s.gpu->thread_instructions
        << " thread instructions)\n"
        << "  IPC               " << s.gpu->ipc << "\n"
        << "  SIMD efficiency   " << s.gpu->simd_efficiency << "\n"
        << "  memory APKI       " << s.gpu->memory_apki << " (read ratio "
        << s.gpu->memory_read_ratio << ")\n";
  if (s.gpu && s.gpu->hmma != 0)
    out << "  tensor cores      " << s.gpu->hmma << " HMMA, " << s.gpu->tensor_tflops << " TFLOPS, "
        << s.gpu->tensor_utilization << " utilization\n";
  if (s.hetero)
    out << "  migrations        " << s.hetero->migrations << " (" << s.hetero->migration_bytes
        << " bytes, " << s.hetero->migration_channel_share << " of channel time)\n"
        << "  DRAM hit rate     " << s.hetero->dram_cache_hit_rate << "\n";
  if (s.hetero && s.hetero->xpoint_wear_max_over_mean)
    out << "  XPoint wear       " << *s.hetero->xpoint_wear_max_over_mean << " max / mean\n";
  if (s.hetero && s.hetero->xpoint_media_utilisation)
    out << "  XPoint media busy " << *s.hetero->xpoint_media_utilisation << " of its time\n";
  if (s.optical)
    out << "  laser             " << s.optical->laser_power_mw << " mW per wavelength, "
        << s.optical->mrr_count << " MRRs\n"
        << std::scientific << std::setprecision(2) << "  BER (worst route) " << s.optical->ber_max
        << "\n"
        << std::fixed << std::setprecision(3);
  if (s.energy_j)
    out << std::scientific << std::setprecision(2) << "  energy            " << *s.energy_j
        << " J\n"
        << std::fixed << std::setprecision(3);
  out << "\n";
  out.unsetf(std::ios::floatfield);
  stats.write_text(out);
}

}  // namespace ohmvp
