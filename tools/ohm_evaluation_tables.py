"""Markdown tables of the Ohm-GPU evaluation, one block per figure, from results.json's content.

Each table puts the paper's figure (ohm_evaluation_paper.py) beside ours; a platform of the
matrix that was not run is named under its mode's table, so no row is silently missing.
"""

import textwrap

import ohm_evaluation_paper as paper

FAMILIES = ["origin", "hetero", "ohm_base", "auto_rw", "ohm_wom", "ohm_bw", "oracle"]
MODES = ["planar", "two_level"]
MODE_TITLES = {"planar": "Planar mode", "two_level": "Two-level mode"}


def fmt(value, spec="%.3f"):
    return "-" if value is None else spec % value


def percent(share):
    return "-" if share is None else "%.0f%%" % (100 * share)


def row(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def header(names, numeric_from=1):
    align = ["---"] * numeric_from + ["---:"] * (len(names) - numeric_from)
    return [row(names), row(align)]


def mode_platforms(results, mode, families=FAMILIES):
    return [(f, f + "_" + mode) for f in families if f + "_" + mode in results["runs"]]


def not_run_note(results, mode, families=FAMILIES):
    missing = [f + "_" + mode for f in families if f + "_" + mode in results["pending_platforms"]]
    return ["", "Not run: %s." % ", ".join(missing)] if missing else []


def per_workload_table(results, figure, mode, summary_key, summary_title, paper_values):
    workloads = results["workloads"]
    table = results["figures"][figure][mode]
    lines = ["**%s**" % MODE_TITLES[mode], ""]
    if table is None:
        return lines + ["(needs ohm_base_%s, the reference, in the run)" % mode]
    if not table:
        return lines + ["(no platform of this mode in the run)"]
    lines += header(["platform"] + workloads + [summary_title, "paper"])
    for family, name in mode_platforms(results, mode):
        if name not in table:
            continue
        entry = table[name]
        lines.append(row([family] + [fmt(entry["per_workload"][w]) for w in workloads]
                         + [fmt(entry[summary_key]), fmt(paper_values[mode].get(family), "%.2f")]))
    return lines + not_run_note(results, mode)


def both_modes(render_mode):
    lines = []
    for mode in MODES:
        lines += render_mode(mode) + [""]
    return "\n".join(lines).rstrip()


def suite(results):
    """Each kernel's footprint and memory intensity (on Ohm-base planar when it ran: the GPU and
    its L2 are the same on every platform, what reaches memory differs only by timing) beside the
    paper's Table 2 workloads it stands for."""
    measured = "ohm_base_planar" if "ohm_base_planar" in results["runs"] else results["platforms"][0]
    lines = header(["workload", "bytes copied to the GPU (KiB)", "APKI", "read ratio",
                    "paper (Table 2: APKI / read ratio)"])
    for w in results["workloads"]:
        run = results["runs"][measured][w]
        paper_rows = ", ".join("%s %d / %.2f" % entry for entry in paper.TABLE2.get(w, []))
        lines.append(row([w, fmt(run["host_to_device_bytes"] / 1024.0, "%.1f"),
                          fmt(run["memory_apki"], "%.0f"), fmt(run["memory_read_ratio"], "%.2f"),
                          paper_rows or "-"]))
    note = ("APKI and read ratio: the L2's requests to memory per 1000 warp instructions and "
            "their share of reads (`memory_apki`, `memory_read_ratio`, docs/report.md), on %s."
            % measured)
    lines += [""] + textwrap.wrap(note, 100)
    if results.get("scale", 1) != 1:
        lines += ["", "The suite and the platforms' capacities at %d times the shipped sizes "
                  "(`--scale %d`)." % (results["scale"], results["scale"])]
    if results["overrides"]:
        lines += ["", "Every run with: %s." % ", ".join("`%s`" % o for o in results["overrides"])]
    return "\n".join(lines)


def busy(results, mode):
    workloads = results["workloads"]
    table = results["figures"]["busy"][mode]
    lines = ["**%s** (%% of the kernels' time that the channels carry data / that the XPoint "
             "media's partitions work)" % MODE_TITLES[mode], ""]
    lines += header(["platform"] + workloads + ["mean"])

    def pair(light, media):
        return "%s / %s" % (fmt(light and 100 * light, "%.1f"), fmt(media and 100 * media, "%.1f"))

    for family, name in mode_platforms(results, mode):
        light, media = table[name]["light_busy"], table[name]["xpoint_media_busy"]
        lines.append(row([family] + [pair(light["per_workload"][w], media["per_workload"][w])
                                     for w in workloads] + [pair(light["mean"], media["mean"])]))
    return lines + not_run_note(results, mode)


def energy(results, mode):
    table = results["figures"]["fig19_energy"][mode]
    names = sorted({c for e in table.values() if e for c in e["components_j"]})
    lines = ["**%s** (uJ over the whole suite)" % MODE_TITLES[mode], ""]
    lines += header(["platform"] + names + ["total", "/ Ohm-base", "paper"])
    unmodelled = []
    for family, name in mode_platforms(results, mode):
        entry = table[name]
        if entry is None:
            unmodelled.append(family)
            continue
        lines.append(row([family] + [fmt(entry["components_j"].get(c, 0.0) * 1e6, "%.1f")
                                     for c in names]
                         + [fmt(entry["total_j"] * 1e6, "%.1f"), fmt(entry["normalised"]),
                            fmt(paper.ENERGY[mode].get(family), "%.2f")]))
    if unmodelled:
        lines += ["", "No energy in the report: %s." % ", ".join(unmodelled)]
    return lines + not_run_note(results, mode)


def waveguides(results, mode):
    counts = [str(n) for n in results["waveguides"]]
    table = results["figures"]["fig20a_waveguides"][mode]
    lines = ["**%s** (IPC / Hetero, geometric mean; light time at %s over at %s)"
             % (MODE_TITLES[mode], counts[-1], counts[0]), ""]
    lines += header(["platform"] + ["%s wg" % n for n in counts]
                    + ["light time ratio", "paper (8 wg)"])
    optical = [f for f in FAMILIES if f in ("ohm_base", "auto_rw", "ohm_wom", "ohm_bw")]
    for family, name in mode_platforms(results, mode, optical):
        sweep = table[name]
        light = sweep[counts[-1]]["channel_light_ps"] / sweep[counts[0]]["channel_light_ps"]
        lines.append(row([family] + [fmt(sweep[n]["ipc_over_hetero"]) for n in counts]
                         + [fmt(light), fmt(paper.WAVEGUIDES_8_OVER_HETERO.get(family), "%.2f")]))
    return lines + not_run_note(results, mode, optical)


def budget(results):
    entries = results["figures"]["fig20b_ber_table3_mrr"]
    ber = header(["platform", "mode", "BER, worst route", "worst route", "meets 1e-15",
                  "laser per wavelength / needed for 1e-15 (mW)", "paper"], numeric_from=2)
    mrr = header(["platform", "mode", "modulators", "detectors", "MRRs", "cost (USD)",
                  "laser per wavelength (mW)", "general layout MRRs", "saving",
                  "paper modulators + detectors", "paper saving"], numeric_from=2)
    for mode in MODES:
        for family, name in mode_platforms(results, mode):
            if name not in entries:
                continue
            e = entries[name]
            worst = max(e["ber_routes"], key=lambda r: e["ber_routes"][r]) if e["ber_routes"] \
                else "-"
            ber.append(row([family, mode, fmt(e["ber_max"], "%.2e"), worst,
                            "yes" if e["ber_max"] <= paper.BER_REQUIRED else "no",
                            "%s / %s" % (fmt(e["laser_power_mw"], "%.2f"),
                                         fmt(e["laser_needed_mw"], "%.3f")),
                            fmt(paper.BER[mode].get(family), "%.1e")]))
            published = paper.MRR[mode].get(family)
            mrr.append(row([family, mode, fmt(e["mrr_modulators"], "%d"),
                            fmt(e["mrr_detectors"], "%d"), fmt(e["mrr_count"], "%d"),
                            fmt(e["mrr_cost_usd"], "%.2f"), fmt(e["laser_power_mw"], "%.2f"),
                            fmt(e["mrr_general_count"], "%d"), percent(e["mrr_saving"]),
                            "%d + %d" % published if published else "-",
                            percent(paper.MRR_SAVING[mode].get(family))]))
    return "\n".join(ber), "\n".join(mrr)


def direction_table(results):
    lines = header(["expected", "mode", "holds", "evidence"], numeric_from=4)
    marks = {True: "yes", False: "**no**", None: "pending"}
    for d in results["directions"]:
        lines.append(row([d["claim"], d["mode"], marks[d["holds"]], d["evidence"]]))
    return "\n".join(lines)


# The blocks render() writes (ohm_evaluation_spread.py writes "spread").
BLOCKS = ("suite", "fig16", "fig17", "fig18", "busy", "fig19", "fig20a", "fig20b", "table3",
          "directions")


def render(results):
    ber, mrr = budget(results)
    return {
        "suite": suite(results),
        "fig16": both_modes(lambda m: per_workload_table(results, "fig16_ipc", m, "geomean",
                                                         "geomean", paper.IPC)),
        "fig17": both_modes(lambda m: per_workload_table(results, "fig17_latency", m, "geomean",
                                                         "geomean", paper.LATENCY)),
        "fig18": both_modes(lambda m: per_workload_table(results, "fig18_migration_share", m,
                                                         "mean", "mean", paper.MIGRATION_SHARE)),
        "busy": both_modes(lambda m: busy(results, m)),
        "fig19": both_modes(lambda m: energy(results, m)),
        "fig20a": both_modes(lambda m: waveguides(results, m)),
        "fig20b": ber,
        "table3": mrr,
        "directions": direction_table(results),
    }
