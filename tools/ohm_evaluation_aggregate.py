#!/usr/bin/env python3
"""Aggregates the runs of tools/ohm_evaluation.sh into results.json and markdown tables.

    ohm_evaluation_aggregate.py --runs DIR --platforms P,... --all-platforms P,...
        --workloads W,... --waveguides N,... --seed N --version TEXT
        --json OUT.json --tables OUT.md [--inputs K] [--scale N] [--overrides LINES] [--docs FILE]

DIR/<platform>/<workload>/report.json is each platform's run, and
DIR/<platform>/<workload>/waveguides_<N>/report.json an optical platform's run with N waveguides.
Standard library only. --docs FILE: each block of FILE between '<!-- ohm_evaluation:NAME -->' and
'<!-- /ohm_evaluation -->' is replaced by the table NAME.
"""

import argparse
import json
import math
import os
import re
import sys

import ohm_evaluation_directions as directions
import ohm_evaluation_tables as tables

FAMILIES = ["origin", "hetero", "ohm_base", "auto_rw", "ohm_wom", "ohm_bw", "oracle"]
OPTICAL = {"ohm_base", "auto_rw", "ohm_wom", "ohm_bw"}
MODES = ["planar", "two_level"]


class InputError(Exception):
    pass


def split_platform(platform):
    for mode in MODES:
        if platform.endswith("_" + mode):
            return platform[: -len(mode) - 1], mode
    raise InputError("%s: not <family>_<mode>" % platform)


def stat_value(group, name):
    entry = group.get(name)
    return None if entry is None else entry.get("value")


def load_report(path):
    try:
        with open(path) as handle:
            report = json.load(handle)
    except OSError as error:
        raise InputError("%s: %s" % (path, error.strerror))
    except ValueError as error:
        raise InputError("%s: not JSON (%s)" % (path, error))
    if "summary" not in report or "stats" not in report:
        raise InputError("%s: no summary or stats (not an ohmvp report)" % path)
    summary = report["summary"]
    stats = report["stats"]
    optical = stats.get("memory.optical", {})
    run = {key: summary.get(key) for key in
           ("ipc", "cycles", "avg_latency_ns", "migration_channel_share", "energy_j", "ber_max",
            "mrr_count", "laser_power_mw", "memory_apki", "memory_read_ratio")}
    run["host_to_device_bytes"] = stat_value(stats.get("host", {}), "host_to_device_bytes")
    channels = [group for name, group in stats.items() if re.match(r"memory\.channel\d+$", name)]
    run["channel_light_ps"] = sum(stat_value(group, "data_busy_ps") or 0 for group in channels)
    run.update(busy_over_kernel_time(report, stats, channels, run["channel_light_ps"]))
    energy = stats.get("memory.energy", {})
    run["energy_breakdown_j"] = {
        name[len("energy_"):-len("_j")]: entry["value"] for name, entry in energy.items()
        if name.startswith("energy_") and name.endswith("_j") and name != "energy_j"}
    run["ber_routes"] = {name[len("ber_"):]: entry["value"] for name, entry in optical.items()
                         if name.startswith("ber_") and name != "ber_max"}
    for name in ("mrr_modulators", "mrr_detectors", "mrr_cost_usd", "mrr_general_count",
                 "mrr_saving", "laser_optical_mw", "laser_needed_mw"):
        run[name] = stat_value(optical, name)
    return run


def busy_over_kernel_time(report, stats, channels, light_ps):
    """The channels' data time and the XPoint media's partition time over the kernels' own time
    (gpu.cycles at the core clock): the host's copies are functional and keep neither busy, but
    for migrations still in flight when a kernel ends."""
    platform = report.get("config", {}).get("platform", {})
    clock_mhz = platform.get("gpu", {}).get("core_clock_mhz")
    cycles = report["summary"].get("cycles")
    if not clock_mhz or not cycles:
        return {"light_busy": None, "xpoint_media_busy": None}
    kernel_ps = cycles * 1e6 / clock_mhz
    xpoints = [group for name, group in stats.items() if re.match(r"memory\.xpc\d+$", name)]
    partitions = platform.get("memory", {}).get("xpoint", {}).get("partitions")
    media_ps = [stat_value(group, "media_busy_ps") for group in xpoints]
    media = None
    if xpoints and partitions and None not in media_ps:
        media = sum(media_ps) / (len(xpoints) * partitions * kernel_ps)
    return {"light_busy": light_ps / (len(channels) * kernel_ps) if channels else None,
            "xpoint_media_busy": media}


def collect(runs_dir, platforms, workloads, waveguides):
    runs = {}
    for platform in platforms:
        family, _ = split_platform(platform)
        runs[platform] = {}
        for workload in workloads:
            base = os.path.join(runs_dir, platform, workload)
            run = load_report(os.path.join(base, "report.json"))
            if family in OPTICAL:
                run["waveguides"] = {
                    str(count): load_report(os.path.join(base, "waveguides_%d" % count,
                                                         "report.json"))
                    for count in waveguides}
            runs[platform][workload] = run
    return runs


def geomean(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def mode_runs(runs, mode):
    """(platform, its runs by workload) for the platforms of one memory mode."""
    return [(p, by_workload) for p, by_workload in runs.items() if split_platform(p)[1] == mode]


def normalised(runs, workloads, key, mode, reference):
    """Per platform of the mode: key / reference's key per workload, and their geometric mean."""
    if reference not in runs:
        return None
    result = {}
    for platform, by_workload in mode_runs(runs, mode):
        per = {w: ratio(by_workload[w][key], runs[reference][w][key]) for w in workloads}
        result[platform] = {"per_workload": per, "geomean": geomean(per.values())}
    return result


def per_workload_mean(by_workload, workloads, key):
    """One platform's key per workload, and its mean over the workloads that have it."""
    per = {w: by_workload[w].get(key) for w in workloads}
    known = [v for v in per.values() if v is not None]
    return {"per_workload": per, "mean": sum(known) / len(known) if known else None}


def migration_shares(runs, workloads, mode):
    return {platform: per_workload_mean(by_workload, workloads, "migration_channel_share")
            for platform, by_workload in mode_runs(runs, mode)}


def busy_shares(runs, workloads, mode):
    """Per platform: light and XPoint media busy over the kernels' time, per workload and mean."""
    return {platform: {key: per_workload_mean(by_workload, workloads, key)
                       for key in ("light_busy", "xpoint_media_busy")}
            for platform, by_workload in mode_runs(runs, mode)}


def energy_totals(runs, workloads, mode):
    """Energy of the whole suite per platform, by component (platforms that report energy)."""
    result = {}
    for platform, by_workload in mode_runs(runs, mode):
        if any(by_workload[w]["energy_j"] is None for w in workloads):
            result[platform] = None
            continue
        components = {}
        for w in workloads:
            for name, joules in by_workload[w]["energy_breakdown_j"].items():
                components[name] = components.get(name, 0.0) + joules
        result[platform] = {"components_j": components,
                            "total_j": sum(by_workload[w]["energy_j"] for w in workloads)}
    reference = result.get("ohm_base_" + mode)
    for entry in result.values():
        if entry is not None:
            entry["normalised"] = ratio(entry["total_j"], reference and reference["total_j"])
    return result


def waveguide_sweep(runs, workloads, waveguides, mode):
    """Per optical platform and waveguide count: IPC over Hetero's (geometric mean), light time."""
    hetero = runs.get("hetero_" + mode)
    result = {}
    for platform, by_workload in mode_runs(runs, mode):
        if split_platform(platform)[0] not in OPTICAL:
            continue
        result[platform] = {}
        for count in waveguides:
            sweep = [by_workload[w]["waveguides"][str(count)] for w in workloads]
            result[platform][str(count)] = {
                "ipc_over_hetero": None if hetero is None else geomean(
                    [ratio(run["ipc"], hetero[w]["ipc"]) for run, w in zip(sweep, workloads)]),
                "cycles": sum(run["cycles"] for run in sweep),
                "avg_latency_ns": geomean([run["avg_latency_ns"] for run in sweep]),
                "channel_light_ps": sum(run["channel_light_ps"] for run in sweep),
            }
    return result


def optical_budget(runs, workloads):
    """BER, MRRs and laser per optical platform (the budget does not depend on the workload)."""
    result = {}
    for platform, by_workload in runs.items():
        if split_platform(platform)[0] not in OPTICAL:
            continue
        first = by_workload[workloads[0]]
        keys = ("ber_max", "ber_routes", "mrr_count", "mrr_modulators", "mrr_detectors",
                "mrr_cost_usd", "mrr_general_count", "mrr_saving", "laser_power_mw",
                "laser_optical_mw", "laser_needed_mw")
        entry = {key: first[key] for key in keys}
        entry["same_for_every_workload"] = all(
            all(by_workload[w][key] == first[key] for key in keys) for w in workloads)
        result[platform] = entry
    return result


def figures(runs, workloads, waveguides):
    result = {"fig20b_ber_table3_mrr": optical_budget(runs, workloads)}
    for mode in MODES:
        reference = "ohm_base_" + mode
        result.setdefault("fig16_ipc", {})[mode] = normalised(runs, workloads, "ipc", mode,
                                                              reference)
        result.setdefault("fig17_latency", {})[mode] = normalised(
            runs, workloads, "avg_latency_ns", mode, reference)
        result.setdefault("fig18_migration_share", {})[mode] = migration_shares(runs, workloads,
                                                                                mode)
        result.setdefault("busy", {})[mode] = busy_shares(runs, workloads, mode)
        result.setdefault("fig19_energy", {})[mode] = energy_totals(runs, workloads, mode)
        result.setdefault("fig20a_waveguides", {})[mode] = waveguide_sweep(runs, workloads,
                                                                           waveguides, mode)
    return result


BLOCK = re.compile(r"^<!-- ohm_evaluation:(\w+) -->\n(.*?)^<!-- /ohm_evaluation -->$",
                   re.MULTILINE | re.DOTALL)


def splice(path, blocks, kept=()):
    """Replaces each block of the file, its markers on lines of their own, by its new table;
    the blocks named in `kept` (another tool's) stay as they are."""
    with open(path) as handle:
        text = handle.read()
    names = BLOCK.findall(text)
    if not any(name in blocks for name, _ in names):
        raise InputError("%s: no '<!-- ohm_evaluation:NAME -->' block to replace (NAME one of: %s)"
                         % (path, ", ".join(sorted(blocks))))
    for name, _ in names:
        if name not in blocks and name not in kept:
            raise InputError("%s: no generated table '%s' (there are: %s)"
                             % (path, name, ", ".join(sorted(blocks))))
    text = BLOCK.sub(lambda m: m.group(0) if m.group(1) not in blocks else
                     "<!-- ohm_evaluation:%s -->\n%s\n<!-- /ohm_evaluation -->"
                     % (m.group(1), blocks[m.group(1)]), text)
    with open(path, "w") as handle:
        handle.write(text)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("--runs", "--platforms", "--all-platforms", "--workloads", "--waveguides",
                 "--seed", "--version", "--json", "--tables"):
        parser.add_argument(name, required=True)
    parser.add_argument("--overrides", default="", help="the runs' --set overrides, one a line")
    parser.add_argument("--inputs", default="0", help="the kernels' input set (0: shipped)")
    parser.add_argument("--scale", default="1", help="the suite's scale (1: shipped sizes)")
    parser.add_argument("--docs")
    args = parser.parse_args(argv[1:])
    platforms = args.platforms.split(",")
    workloads = args.workloads.split(",")
    waveguides = [int(n) for n in args.waveguides.split(",")]
    try:
        runs = collect(args.runs, platforms, workloads, waveguides)
        results = {
            "schema": 1,
            "ohmvp_version": args.version,
            "seed": int(args.seed),
            "inputs": int(args.inputs),
            "scale": int(args.scale),
            "overrides": [line for line in args.overrides.splitlines() if line],
            "platforms": platforms,
            "pending_platforms": [p for p in args.all_platforms.split(",") if p not in runs],
            "workloads": workloads,
            "waveguides": waveguides,
            "runs": runs,
            "figures": figures(runs, workloads, waveguides),
        }
        results["directions"] = directions.check(results)
        with open(args.json, "w") as handle:
            json.dump(results, handle, indent=1, sort_keys=True)
            handle.write("\n")
        blocks = tables.render(results)
        with open(args.tables, "w") as handle:
            for name in sorted(blocks):
                handle.write("<!-- ohm_evaluation:%s -->\n%s\n<!-- /ohm_evaluation -->\n\n"
                             % (name, blocks[name]))
        if args.docs:
            splice(args.docs, blocks, kept={"spread"})
    except InputError as error:
        sys.stderr.write("ohm_evaluation_aggregate: %s\n" % error)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
