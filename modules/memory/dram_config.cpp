#include "modules/memory/dram_config.h"

#include <algorithm>

#include <cmath>

#include "modules/common/config_reader.h"
#include "modules/common/power_of_two.h"

namespace ohmvp {

uint32_t ns_to_cycles(double ns, double tCK_ns) {
  const double cycles = ns / tCK_ns;
  const double boundary = std::round(cycles);
  if (std::fabs(cycles - boundary) <= 1e-3 * boundary) return static_cast<uint32_t>(boundary);
  return static_cast<uint32_t>(std::ceil(cycles));
}

DramTiming to_cycles(const DramTimingNs& ns, double burst_ns) {
  auto c = [&](double v) { return ns_to_cycles(v, ns.tCK); };
  DramTiming t;
  t.tCK_ps = static_cast<uint64_t>(std::llround(ns.tCK * 1000.0));
  t.CL = c(ns.tCL);
  t.CWL = c(ns.tCWL);
  t.RCD = c(ns.tRCD);
  t.RP = c(ns.tRP);
  t.RAS = c(ns.tRAS);
  t.RC = c(ns.tRC);
  t.RRD_S = c(ns.tRRD_S);
  t.RRD_L = c(ns.tRRD_L);
  t.FAW = c(ns.tFAW);
  t.CCD_S = c(ns.tCCD_S);
  t.CCD_L = c(ns.tCCD_L);
  t.WR = c(ns.tWR);
  t.WTR_S = c(ns.tWTR_S);
  t.WTR_L = c(ns.tWTR_L);
  t.RTP = c(ns.tRTP);
  t.REFI = c(ns.tREFI);
  t.RFC = c(ns.tRFC);
  t.RTRS = c(ns.tRTRS);
  t.BURST = c(burst_ns);
  return t;
}

void parse(const ConfigReader& reader, DramGeometry& g) {
  reader.get("ranks", g.ranks, 1u, 16u);
  reader.get("bank_groups", g.bank_groups, 1u, 16u);
  reader.get("banks_per_group", g.banks_per_group, 1u, 64u);
  reader.get("rows", g.rows, 1u, 1u << 24);
  reader.get("columns", g.columns, 1u, 1u << 16);
  reader.get("burst_length", g.burst_length, 1u, 64u);
  reader.finish();
  const char* keys[] = {"ranks", "bank_groups", "banks_per_group",
                        "rows",  "columns",     "burst_length"};
  const uint32_t values[] = {g.ranks, g.bank_groups, g.banks_per_group,
                             g.rows,  g.columns,     g.burst_length};
  for (size_t i = 0; i < 6; ++i) {
    if (!is_power_of_two(values[i])) reader.fail(keys[i], "expected a power of two");
  }
  if (g.burst_length > g.columns)
    reader.fail_against("burst_length", reader.path() + ".columns", "expected at most 'columns'");
}

void parse(const ConfigReader& reader, DramTimingNs& t) {
  const double max_ns = 1e6;
  reader.get("tCK_ns", t.tCK, 0.01, 100.0);
  struct Field {
    const char* key;
    double* value;
  };
  const Field fields[] = {
      {"tCL_ns", &t.tCL},       {"tCWL_ns", &t.tCWL},     {"tRCD_ns", &t.tRCD},
      {"tRP_ns", &t.tRP},       {"tRAS_ns", &t.tRAS},     {"tRC_ns", &t.tRC},
      {"tRRD_S_ns", &t.tRRD_S}, {"tRRD_L_ns", &t.tRRD_L}, {"tFAW_ns", &t.tFAW},
      {"tCCD_S_ns", &t.tCCD_S}, {"tCCD_L_ns", &t.tCCD_L}, {"tWR_ns", &t.tWR},
      {"tWTR_S_ns", &t.tWTR_S}, {"tWTR_L_ns", &t.tWTR_L}, {"tRTP_ns", &t.tRTP},
      {"tREFI_ns", &t.tREFI},   {"tRFC_ns", &t.tRFC},     {"tRTRS_ns", &t.tRTRS}};
  for (const auto& f : fields) reader.get(f.key, *f.value, 0.0, max_ns);
  reader.finish();
  const auto paths = [&reader](std::initializer_list<const char*> keys) {
    std::vector<std::string> out;
    for (const char* key : keys) out.push_back(reader.path() + "." + key);
    return out;
  };
  if (t.tRC + 1e-9 < t.tRAS + t.tRP)
    reader.fail_against("tRC_ns", paths({"tRAS_ns", "tRP_ns"}),
                        "expected at least tRAS_ns + tRP_ns");
  if (t.tREFI <= t.tRFC)
    reader.fail_against("tREFI_ns", paths({"tRFC_ns"}), "expected more than tRFC_ns");
  // An activated row must be read or written, and closed, before the next refresh: else every
  // access is undone by a refresh and the controller never completes one.
  const double row_cycle =
      std::max(t.tRAS, t.tRCD + std::max(t.tRTP, t.tCWL + t.tWR)) + t.tRP + t.tRFC;
  if (t.tREFI <= row_cycle)
    reader.fail_against(
        "tREFI_ns",
        paths({"tRFC_ns", "tRAS_ns", "tRCD_ns", "tRTP_ns", "tCWL_ns", "tWR_ns", "tRP_ns"}),
        "expected more than the " + nlohmann::json(row_cycle).dump() +
            " ns an access and a refresh take (max(tRAS, tRCD + max(tRTP, "
            "tCWL + tWR)) + tRP + tRFC); an access would never finish");
}

}  // namespace ohmvp
