#include "platforms/platform_config.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/optical/optical_routes.h"
#include "modules/optical/transfer_timing.h"

namespace ohmvp {

DramTiming MemorySystemConfig::timing_cycles() const {
  return to_cycles(timing, burst_ns(burst_bytes()));
}

double MemorySystemConfig::burst_ns(uint32_t bytes) const {
  if (!is_optical()) return channel.burst_ns(bytes);
  // The virtual channel's beats, line code included, as the light carries them (every virtual
  // channel has the same width: parse_optical checks it).
  TransferShape shape;
  shape.data_bits = uint64_t{bytes} * 8;
  return static_cast<double>(transfer_timing(optical, shape).beats) / optical.rate_gbps;
}

std::string MemorySystemConfig::burst_rounding_warning() const {
  const double burst = burst_ns(burst_bytes());
  const DramTiming cycles = timing_cycles();
  const double clock_ns = static_cast<double>(cycles.tCK_ps) / 1000.0;
  const double carried = burst / (cycles.BURST * clock_ns);
  if (carried >= 0.99) return "";
  std::ostringstream text;
  text << "a " << burst_bytes() << "-byte burst takes " << burst << " ns, " << burst / clock_ns
       << " clocks of memory.dram.timing.tCK_ns (" << timing.tCK << " ns), rounded up to "
       << cycles.BURST << ": the channels carry " << std::lround(100.0 * carried)
       << "% of their rate; a tCK_ns of " << burst / std::max(1.0, std::round(burst / clock_ns))
       << " makes the burst whole clocks";
  return text.str();
}

double MemorySystemConfig::peak_gb_per_s() const {
  if (is_optical()) return optical.bandwidth_gbps() / (1.0 + optical.coding_overhead) / 8.0;
  return channels * channel.lanes * channel.rate_gbps / 8.0;
}

std::optional<DualRouteMode> MemorySystemConfig::memory_route() const {
  if (!is_optical() || !(hetero.swap_cmd || hetero.reverse_write)) return std::nullopt;
  return dual_route_mode(ohm_platform, hetero.mode);
}

uint64_t MemorySystemConfig::longest_operation_ps() const {
  const DramTimingNs& t = timing;
  double ns = std::max({t.tCL, t.tCWL, t.tRCD, t.tRP, t.tRAS, t.tRC, t.tRRD_S, t.tRRD_L, t.tFAW,
                        t.tCCD_S, t.tCCD_L, t.tWR, t.tWTR_S, t.tWTR_L, t.tRTP, t.tRFC, t.tRTRS});
  if (mode == MemoryMode::planar || mode == MemoryMode::two_level)
    ns = std::max({ns, xpoint.read_ns, xpoint.write_ns});
  if (is_paged()) ns = std::max(ns, hetero.fault_ns);
  return static_cast<uint64_t>(std::ceil(ns * 1000.0));
}

uint64_t MemorySystemConfig::channel_capacity_bytes() const {
  if (!is_hetero()) return dram_bytes_per_channel();
  return check_capacities(hetero, dram_bytes_per_channel(), far_bytes_per_channel(), "memory")
      .capacity_bytes;
}

std::string MemorySystemConfig::capacity_text() const {
  const std::string dram = std::to_string(dram_bytes_per_channel()) + " bytes of DRAM";
  const std::string far = std::to_string(far_bytes_per_channel()) +
                          (is_paged() ? " bytes of host memory" : " bytes of XPoint");
  std::string parts, keys = "memory.channels";
  const std::string dram_keys = ", memory.dram.geometry, memory." + std::string(bus_width_key());
  switch (mode) {
    case MemoryMode::dram:
      parts = dram;
      keys += dram_keys;
      break;
    case MemoryMode::planar:
      parts = "(" + dram + " + " + far + ")";
      keys += dram_keys + ", memory.xpoint.capacity_kib";
      break;
    case MemoryMode::two_level:
      parts = far;
      keys += ", memory.xpoint.capacity_kib";
      break;
    case MemoryMode::paged:
      parts = far;
      keys += ", memory.host_memory.capacity_kib";
      break;
  }
  return std::to_string(channels) + (channels == 1 ? " channel x " : " channels x ") + parts +
         " (" + keys + ")";
}

static const char* mode_name(MemoryMode mode) {
  switch (mode) {
    case MemoryMode::dram:
      return "dram";
    case MemoryMode::planar:
      return "planar";
    case MemoryMode::two_level:
      return "two_level";
    case MemoryMode::paged:
      return "paged";
  }
  return "?";
}

// A section that only a mode other than memory.mode's takes; the message names memory.mode and
// where it was set, since memory.hetero.mode (which only repeats it) is easily taken for it.
[[noreturn]] static void fail_for_mode(const ConfigReader& reader, const MemorySystemConfig& m,
                                       const char* key, const std::string& modes) {
  const std::string mode_path = reader.path() + ".mode";
  std::string problem =
      "only when " + mode_path + " is " + modes +
      (reader.raw("mode") ? ", not \"" : "; " + mode_path + " is not set and defaults to \"") +
      mode_name(m.mode) + "\"";
  const nlohmann::json* section_mode = reader.child("hetero").raw("mode");
  if (section_mode && *section_mode != mode_name(m.mode))
    problem += "; " + reader.path() + ".hetero.mode does not set the mode, " + mode_path + " does";
  if (!reader.raw("mode")) reader.fail(key, problem);
  reader.fail_against(key, mode_path, problem);
}

static void parse_hetero(const ConfigReader& reader, MemorySystemConfig& m) {
  if (!m.is_hetero()) {
    for (const char* key : {"hetero", "xpoint"})
      if (reader.has(key)) fail_for_mode(reader, m, key, "\"planar\", \"two_level\" or \"paged\"");
  }
  if (!m.is_paged() && reader.has("host_memory"))
    fail_for_mode(reader, m, "host_memory", "\"paged\"");
  if (!m.is_hetero()) return;
  const HeteroMode mode = m.mode == MemoryMode::planar      ? HeteroMode::planar
                          : m.mode == MemoryMode::two_level ? HeteroMode::two_level
                                                            : HeteroMode::paged;
  m.hetero.mode = mode;
  const ConfigReader hetero = reader.child("hetero");
  const double burst_ns = m.burst_ns(64);
  if (hetero.has("burst_ns")) {
    hetero.fail("burst_ns", "nothing: a platform takes it from the channel (" +
                                std::to_string(burst_ns) + " ns per 64-byte burst)");
  }
  // Before the section's own keys, which are checked against its mode.
  if (const nlohmann::json* given = hetero.raw("mode");
      given != nullptr && *given != to_string(mode)) {
    hetero.fail_against("mode", reader.path() + ".mode",
                        "expected " + reader.path() + ".mode's value (\"" +
                            std::string(to_string(mode)) + "\") or nothing, got " + given->dump());
  }
  parse(hetero, m.hetero);
  m.hetero.burst_ns = burst_ns;
  if (m.is_optical()) m.hetero.register_buffer_bytes = m.optical.serdes.buffer_bytes;
  if (m.is_paged()) {
    if (reader.has("xpoint")) reader.fail("xpoint", "nothing in paged mode (DRAM and host memory)");
    const ConfigReader host = reader.child("host_memory");
    host.get("capacity_kib", m.host_memory_kib, uint64_t{1}, uint64_t{1} << 32);
    host.finish();
  } else {
    parse(reader.child("xpoint"), m.xpoint);
  }
  // The manager serves requests of at most one 64-byte burst.
  if (m.burst_bytes() != 64) {
    reader.fail_against("dram", reader.path() + ".dram.geometry.burst_length",
                        "a hetero mode needs 64-byte DRAM bursts (bus width x burst length), "
                        "got " +
                            std::to_string(m.burst_bytes()));
  }
  // The capacities must fit the mode; checked here so that a bad pair is reported before a run,
  // against the file (or --set) that made it.
  const CapacityProblem problem =
      capacity_problem(m.hetero, m.dram_bytes_per_channel(), m.far_bytes_per_channel());
  if (problem.text.empty()) return;
  const std::string far_key = reader.path() + (m.is_paged() ? ".host_memory" : ".xpoint");
  std::vector<std::string> others{reader.path() + ".dram.geometry",
                                  reader.path() + "." + m.bus_width_key()};
  // A page that does not divide the capacities is the page's problem; a ratio, the capacities'.
  if (problem.pages) {
    others.push_back(far_key + ".capacity_kib");
    reader.child("hetero").fail_against("page_bytes", others, problem.text);
  }
  reader.child(m.is_paged() ? "host_memory" : "xpoint")
      .fail_against("capacity_kib", others, problem.text);
}

// `channel` is reader's "channel" child, its type already read.
static void parse_optical(const ConfigReader& reader, const ConfigReader& channel,
                          MemorySystemConfig& m) {
  for (const char* key : {"lanes", "rate_gbps"}) {
    if (channel.has(key)) {
      channel.fail(key,
                   "only with \"type\": \"electrical\"; an optical channel's width and "
                   "rate are memory.optical's (wavelengths_per_waveguide, rate_gbps)");
    }
  }
  channel.get("device_lanes", m.optical_device_lanes, 8u, 4096u);
  if (m.optical_device_lanes % 8 != 0) channel.fail("device_lanes", "expected a multiple of 8");
  channel.get_enum("ohm_platform", m.ohm_platform,
                   {{"ohm_base", OhmPlatform::ohm_base},
                    {"auto_rw", OhmPlatform::auto_rw},
                    {"ohm_wom", OhmPlatform::ohm_wom},
                    {"ohm_bw", OhmPlatform::ohm_bw}});
  channel.finish();
  if (!reader.has("optical")) {
    reader.fail("optical",
                "missing: \"type\": \"optical\" needs the optical channel's "
                "configuration (e.g. \"extends\": [\"optical/ohm_channel\"])");
  }
  if (reader.has("energy")) parse(reader.child("energy"), m.energy);
  const ConfigReader optical = reader.child("optical");
  parse(optical, m.optical);
  if (m.optical.virtual_channels != m.channels) {
    optical.fail_against("virtual_channels", reader.path() + ".channels",
                         std::to_string(m.optical.virtual_channels) + " virtual channels for " +
                             std::to_string(m.channels) +
                             " memory channels (memory.channels): expected one per memory "
                             "controller");
  }
  const uint32_t lanes = m.optical.lanes(VirtualChannelId{0});
  for (uint32_t vc = 1; vc < m.optical.virtual_channels; ++vc) {
    if (m.optical.lanes(VirtualChannelId{vc}) != lanes) {
      optical.fail("wavelength_sets", "virtual channel " + std::to_string(vc) + " has " +
                                          std::to_string(m.optical.lanes(VirtualChannelId{vc})) +
                                          " lanes, virtual channel 0 " + std::to_string(lanes) +
                                          ": the memory controllers share one DRAM timing, so "
                                          "every virtual channel needs the same width");
    }
  }
}

static void parse_channel(const ConfigReader& reader, MemorySystemConfig& m) {
  const ConfigReader channel = reader.child("channel");
  channel.get_enum("type", m.channel_type,
                   {{"electrical", ChannelType::electrical}, {"optical", ChannelType::optical}});
  if (m.is_optical()) {
    parse_optical(reader, channel, m);
    return;
  }
  for (const char* key : {"device_lanes", "ohm_platform"}) {
    if (channel.has(key)) channel.fail(key, "only with \"type\": \"optical\"");
  }
  if (reader.has("optical")) {
    reader.fail("optical", "only with \"channel\": {\"type\": \"optical\"}");
  }
  if (reader.has("energy")) parse(reader.child("energy"), m.energy);
  parse(channel, m.channel);
}

// SWAP-CMD presets the banks of a swap's DRAM page, each on one row: a page that needs two rows
// of one bank could never be held. The first DRAM page stands for all: the mapping is linear in
// the address bits (fields and XORs), so another page's rows and banks are the first's, each
// XORed with the same constant, and two of its bursts share a bank, and differ in row, exactly
// when the first page's do.
static void check_swap_cmd_page(const ConfigReader& reader, const MemorySystemConfig& m) {
  const AddressMapper mapper(m.controller.address_mapping, m.geometry, m.bus_bytes());
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> row_of;  // (rank, bank) -> row
  for (uint64_t address = 0; address < m.hetero.page_bytes; address += mapper.burst_bytes()) {
    const DramAddress d = mapper.decode(address);
    const auto [held, first] =
        row_of.emplace(std::make_pair(index(d.rank), index(d.bank)), index(d.row));
    if (first || held->second == index(d.row)) continue;
    std::ostringstream bank;
    bank << "bank " << index(d.bank);
    if (m.geometry.ranks > 1) bank << " of rank " << index(d.rank);
    reader.child("hetero").fail(
        "page_bytes",
        "at most one row of each bank in a DRAM page with SWAP-CMD (a bank preset "
        "holds one row); a page of " +
            std::to_string(m.hetero.page_bytes) + " bytes needs rows " +
            std::to_string(held->second) + " and " + std::to_string(index(d.row)) + " of " +
            bank.str() + " under memory.controller.address_mapping");
  }
}

// The manager's Ohm functions need the optical layout that supports them (half-coupled
// receivers for auto-read/write, the memory route for SWAP-CMD and reverse write): each flag
// and the channel's platform go together.
static void check_ohm_functions(const ConfigReader& reader, const MemorySystemConfig& m) {
  const bool xpoint = m.mode == MemoryMode::planar || m.mode == MemoryMode::two_level;
  const HeteroMode mode = m.optical_mode();
  const std::vector<OhmFunction> functions =
      m.is_optical() && xpoint ? functions_of(m.ohm_platform, mode) : std::vector<OhmFunction>{};
  if (!xpoint && m.is_optical() && m.ohm_platform != OhmPlatform::ohm_base) {
    reader.child("channel").fail_against("ohm_platform", reader.path() + ".mode",
                                         std::string("\"ohm_base\" without XPoint; \"") +
                                             to_string(m.ohm_platform) +
                                             "\" needs \"mode\": \"planar\" or \"two_level\"");
  }
  if (!m.is_hetero()) return;
  const std::string platform = !xpoint          ? std::string("no XPoint (paged mode)")
                               : m.is_optical() ? std::string("\"ohm_platform\": \"") +
                                                      to_string(m.ohm_platform) + "\" in " +
                                                      to_string(mode) + " mode"
                                                : std::string("an electrical channel");
  const struct {
    const char* key;
    bool flag;
    OhmFunction function;
  } flags[] = {{"auto_rw", m.hetero.auto_rw, OhmFunction::auto_rw},
               {"swap_cmd", m.hetero.swap_cmd, OhmFunction::swap},
               {"reverse_write", m.hetero.reverse_write, OhmFunction::reverse_write}};
  for (const auto& f : flags) {
    const bool supported =
        std::find(functions.begin(), functions.end(), f.function) != functions.end();
    if (f.flag == supported) continue;
    reader.child("hetero").fail_against(
        f.key,
        !xpoint          ? std::vector<std::string>{reader.path() + ".mode"}
        : m.is_optical() ? std::vector<std::string>{reader.path() + ".channel.ohm_platform",
                                                    reader.path() + ".mode"}
                         : std::vector<std::string>{reader.path() + ".channel.type"},
        std::string("expected ") + (supported ? "true" : "false") + " with " + platform + " (" +
            (supported ? "it has" : "it lacks") + " the " + to_string(f.function) + " function)");
  }
  // SWAP-CMD holds both halves of a burst in the register buffer before either goes on.
  if (m.hetero.swap_cmd && m.optical.serdes.buffer_bytes < 128) {
    reader.child("optical").child("serdes").fail(
        "buffer_bytes", "at least 128 with SWAP-CMD (both 64-byte halves of a swapped burst)");
  }
  if (m.hetero.swap_cmd) check_swap_cmd_page(reader, m);
}

// Every receiver on the platform's routes must tell a 1 from a 0, or no laser power gives the
// link budget a BER: a half-coupled transmitter's 0 keeps 1 - half_coupling_ratio of the light,
// and a modulator's dark level, 1 / extinction ratio, must stay below it.
static void check_light_levels(const ConfigReader& reader, const MemorySystemConfig& m) {
  if (!m.is_optical()) return;
  const HeteroMode mode = m.optical_mode();
  const ReceiverConfig& receiver = m.optical.receiver;
  for (const OpticalRoute& route : routes_of(m.ohm_platform, mode, m.optical, MrrCounts{})) {
    const LightLevels& levels = route.levels;
    std::ostringstream problem;
    problem << receiver.extinction_ratio_db << " dB: the " << route.receiver
            << " (\"ohm_platform\": \"" << to_string(m.ohm_platform) << "\" in " << to_string(mode)
            << " mode) ";
    if (!levels.separable()) {
      // The dark levels scale with the modulator's extinction share; the bright ones do not.
      const double needed_db =
          -10.0 * std::log10(levels.dimmest_bright() * extinction_share(receiver) /
                             levels.brightest_dark());
      problem << "sees its dimmest 1 at " << levels.dimmest_bright()
              << " of the light and its brightest 0 at " << levels.brightest_dark()
              << ", so no light tells them apart; expected more than " << needed_db
              << " dB, or a smaller memory.optical.loss.half_coupling_ratio (now "
              << m.optical.loss.half_coupling_ratio << ")";
      reader.child("optical").child("receiver").fail("extinction_ratio_db", problem.str());
    }
    try {
      required_power_mw(receiver, m.optical.rate_gbps, levels);
    } catch (const std::invalid_argument&) {
      problem << "would need more than 1e9 mW of light per wavelength to tell its dimmest 1 ("
              << levels.dimmest_bright() << ") from its brightest 0 (" << levels.brightest_dark()
              << ") at memory.optical.receiver.target_ber; expected a larger extinction ratio";
      reader.child("optical").child("receiver").fail("extinction_ratio_db", problem.str());
    }
  }
}

static void parse_memory(const ConfigReader& reader, MemorySystemConfig& m) {
  // A misspelt key is named before the checks between the sections, which would blame the value
  // it meant to set.
  reader.finish({"mode", "channels", "interleave_bytes", "controller", "channel", "dram", "optical",
                 "energy", "hetero", "host_memory", "xpoint"});
  reader.get_enum("mode", m.mode,
                  {{"dram", MemoryMode::dram},
                   {"planar", MemoryMode::planar},
                   {"two_level", MemoryMode::two_level},
                   {"paged", MemoryMode::paged}});
  reader.get("channels", m.channels, 1u, 64u);
  reader.get("interleave_bytes", m.interleave_bytes, uint64_t{64}, uint64_t{1} << 30);
  parse(reader.child("controller"), m.controller);
  parse_channel(reader, m);
  const ConfigReader dram = reader.child("dram");
  parse(dram.child("geometry"), m.geometry);
  parse(dram.child("timing"), m.timing);
  dram.finish();
  // The mapping must fit the geometry and bus; checking it here reports a bad one before a run
  // writes anything.
  const std::string mapping_path = reader.path() + ".controller.address_mapping";
  const std::string geometry_path = reader.path() + ".dram.geometry";
  try {
    AddressMapper(m.controller.address_mapping, m.geometry, m.bus_bytes(), mapping_path,
                  geometry_path);
  } catch (const ConfigError& error) {
    // The mapper names the keys; the document knows the files (a geometry from --set, say).
    const std::string message = error.what();
    const std::string scheme_path = mapping_path + ".scheme";
    const std::string blamed =
        message.rfind(scheme_path + ":", 0) == 0 ? scheme_path : mapping_path;
    std::string origin = reader.origin_prefix(blamed);  // "<file>: "
    std::string where_geometry;
    for (const char* key :
         {"ranks", "bank_groups", "banks_per_group", "rows", "columns", "burst_length"}) {
      const std::string path = geometry_path + "." + key;
      if (message.find(path + " ") != std::string::npos && !origin.empty())
        where_geometry += reader.where_set(path, origin.substr(0, origin.size() - 2));
    }
    throw ConfigError(origin + message + where_geometry);
  }
  const uint64_t burst_bytes = m.burst_bytes();
  if (m.interleave_bytes % burst_bytes != 0) {
    const std::string lanes_path = reader.path() + "." + m.bus_width_key();
    reader.fail_against(
        "interleave_bytes", std::vector<std::string>{geometry_path + ".burst_length", lanes_path},
        "expected a multiple of the burst size (" + std::to_string(burst_bytes) + " bytes)");
  }
  parse_hetero(reader, m);
  // Addresses are 64-bit: every channel's bytes together must fit them, with room to spare.
  if (const uint64_t limit = uint64_t{1} << 62; m.channel_capacity_bytes() > limit / m.channels)
    reader.fail("channels", "the memory would hold more than 2^62 bytes: " + m.capacity_text() +
                                "; expected fewer channels, or smaller ones");
  // The channels' blocks must tile the address space: in a partial last round some channels'
  // blocks would lie past their ends.
  if (const uint64_t capacity = m.channel_capacity_bytes(); capacity % m.interleave_bytes != 0) {
    reader.fail("interleave_bytes", "expected a divisor of a channel's " +
                                        std::to_string(capacity) + " bytes, so that the " +
                                        "channels' blocks tile the memory: " + m.capacity_text());
  }
  check_ohm_functions(reader, m);
  check_light_levels(reader, m);
}

PlatformConfig parse_platform(const ConfigDocument& document) {
  const ConfigReader root(document.json(), "", &document);
  // A misspelt section is named before the checks between sections, which would otherwise blame a
  // value the section was meant to set.
  root.finish({"platform", "memory", "gpu", "host", "uvm", "multi_gpu"});
  PlatformConfig config;
  const ConfigReader platform = root.child("platform");
  platform.get("name", config.name);
  if (platform.has("name") && config.name.empty())
    platform.fail("name", "is empty; expected the platform's name (or leave it out: the file's)");
  platform.get("description", config.description);
  platform.get("default_workload", config.default_workload);
  if (platform.has("default_workload") && config.default_workload.empty())
    platform.fail("default_workload",
                  "is empty; expected a workload name or a path to a .json file");
  platform.finish();
  if (config.name.empty()) config.name = document.file().stem().string();
  parse_memory(root.child("memory"), config.memory);
  if (root.has("gpu")) {
    const ConfigReader gpu = root.child("gpu");
    config.gpu = gpu::parse_gpu_config(gpu);
    if (const auto problem = config.gpu->l2.slicing_problem(config.memory.channels))
      gpu.child("l2").fail_against(
          "size_bytes",
          std::vector<std::string>{"gpu.l2.ways", "gpu.l2.line_bytes", "gpu.l2.slices_per_channel",
                                   "memory.channels"},
          *problem);
    // The L2 slices own whole lines: a line never straddles two channels.
    if (config.memory.interleave_bytes % config.gpu->l2.line_bytes != 0)
      root.child("memory").fail_against("interleave_bytes", "gpu.l2.line_bytes",
                                        "expected a multiple of the L2 line, " +
                                            std::to_string(config.gpu->l2.line_bytes) +
                                            " bytes, so that each line lies in one channel");
    // An L2 sector is fetched and written back as one memory request.
    if (config.gpu->l2.sector_bytes > config.memory.burst_bytes()) {
      gpu.child("l2").fail_against(
          "sector_bytes",
          std::vector<std::string>{"memory.dram.geometry.burst_length",
                                   std::string("memory.") + config.memory.bus_width_key()},
          "expected at most the memory burst, " + std::to_string(config.memory.burst_bytes()) +
              " bytes (" + std::to_string(config.memory.bus_bytes()) +
              "-byte columns x burst_length " +
              std::to_string(config.memory.geometry.burst_length) + ")");
    }
  }
  const ConfigReader host = root.child("host");
  parse(host.child("pcie"), config.pcie);
  host.finish();
  config.memory.host_link = config.pcie;
  parse(root.child("uvm"), config.uvm);
  const ConfigReader multi_gpu = root.child("multi_gpu");
  multi_gpu.get("gpus", config.gpus, 1u, 16u);
  parse(multi_gpu.child("nvlink"), config.nvlink);
  multi_gpu.finish();
  if (config.gpus > 1 && !config.gpu)
    multi_gpu.fail("gpus", "is " + std::to_string(config.gpus) +
                               "; GPUs need a \"gpu\" section (this platform is memory only)");
  if (config.gpu && config.uvm.harvest_bytes > config.memory.capacity_bytes())
    root.child("uvm").fail("harvest_bytes", "is " + std::to_string(config.uvm.harvest_bytes) +
                                                "; a neighbour lends at most its memory, " +
                                                std::to_string(config.memory.capacity_bytes()) +
                                                " bytes");
  if (config.uvm.harvest && config.gpus < 2)
    root.child("uvm").fail_against("harvest", "multi_gpu.gpus",
                                   "expected neighbour GPUs to harvest memory from "
                                   "(multi_gpu.gpus of at least 2)");
  if (config.uvm.parallel_fetch && !config.uvm.harvest)
    root.child("uvm").fail_against("parallel_fetch", "uvm.harvest",
                                   "expected harvest: the pages go through the yielding GPUs");
  if (config.uvm.harvest && config.uvm.harvesters >= config.gpus)
    root.child("uvm").fail_against(
        "harvesters", "multi_gpu.gpus",
        "is " + std::to_string(config.uvm.harvesters) + " of " + std::to_string(config.gpus) +
            " GPUs; expected fewer, so that at least one GPU yields its memory");
  root.finish();
  return config;
}

}  // namespace ohmvp
