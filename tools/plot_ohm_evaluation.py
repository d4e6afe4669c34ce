#!/usr/bin/python3
"""Plots the Ohm-GPU evaluation figures from the results.json tools/ohm_evaluation.sh writes.

    /usr/bin/python3 tools/plot_ohm_evaluation.py results.json FIGURE_DIR

Writes FIGURE_DIR/ohm_ipc.png (Fig. 16), ohm_latency.png (17), ohm_migration_share.png (18),
ohm_busy.png (how long the channels and the XPoint media work), ohm_energy.png (19),
ohm_waveguides.png (20a), ohm_ber.png (20b) and ohm_mrr.png (Table 3); black crosses are the
paper's figures. Needs matplotlib, which on this machine only Debian's /usr/bin/python3 has
(python3-matplotlib).
"""

import json
import os
import sys

from plot_support import pyplot

import ohm_evaluation_paper as paper

FAMILIES = ["origin", "hetero", "ohm_base", "auto_rw", "ohm_wom", "ohm_bw", "oracle"]
MODES = ["planar", "two_level"]
TITLES = {"planar": "planar", "two_level": "two-level"}


def families_run(results, mode, families=FAMILIES):
    return [f for f in families if f + "_" + mode in results["runs"]]


def grouped_bars(axes, groups, series, values, colours, log=False):
    """Bars of values[s][g] for each series s side by side within each group g."""
    width = 0.8 / max(len(series), 1)
    for index, name in enumerate(series):
        xs = [g + (index - (len(series) - 1) / 2.0) * width for g in range(len(groups))]
        heights = [values[name][g] for g in groups]
        axes.bar([x for x, h in zip(xs, heights) if h is not None],
                 [h for h in heights if h is not None], width, label=name,
                 color=colours[name])
    axes.set_xticks(range(len(groups)))
    axes.set_xticklabels(groups, rotation=30, ha="right", fontsize=8)
    if log:
        axes.set_yscale("log")
    axes.grid(True, axis="y", alpha=0.3)


def paper_crosses(axes, x_of, values):
    points = [(x_of(k), v) for k, v in values.items() if x_of(k) is not None]
    if points:
        axes.plot([p[0] for p in points], [p[1] for p in points], "kx", markersize=8,
                  label="paper")


def colour_map(plt):
    cmap = plt.get_cmap("tab10")
    return {f: cmap(i) for i, f in enumerate(FAMILIES)}


def per_workload_figure(plt, results, figure, summary_key, summary_name, ylabel, paper_values,
                        path, log=False):
    fig, axes_pair = plt.subplots(1, 2, figsize=(13, 4.8))
    colours = colour_map(plt)
    for axes, mode in zip(axes_pair, MODES):
        table = results["figures"][figure][mode] or {}
        families = [f for f in families_run(results, mode) if f + "_" + mode in table]
        groups = results["workloads"] + [summary_name]
        values = {}
        for f in families:
            entry = table[f + "_" + mode]
            values[f] = dict(entry["per_workload"], **{summary_name: entry[summary_key]})
        grouped_bars(axes, groups, families, values, colours, log)
        width = 0.8 / max(len(families), 1)
        offsets = {f: len(groups) - 1 + (i - (len(families) - 1) / 2.0) * width
                   for i, f in enumerate(families)}
        paper_crosses(axes, offsets.get, paper_values.get(mode, {}))
        axes.set_title(TITLES[mode])
        axes.set_ylabel(ylabel)
    legend(axes_pair)
    save(fig, path)


def busy_figure(plt, results, path):
    """Per mode, the channels' data time and the XPoint media's partition time over the kernels'
    time, per workload and their mean, one bar per platform that has them."""
    fig, grid = plt.subplots(2, 2, figsize=(13, 8), sharey="row")
    colours = colour_map(plt)
    groups = results["workloads"] + ["mean"]
    panels = (("light_busy", "channels carry data (% of kernel time)"),
              ("xpoint_media_busy", "XPoint media works (% of kernel time)"))
    for row_axes, mode in zip(grid, MODES):
        table = results["figures"]["busy"][mode]
        for axes, (key, ylabel) in zip(row_axes, panels):
            values = {}
            for f in families_run(results, mode):
                entry = table[f + "_" + mode][key]
                if entry["mean"] is None:
                    continue
                shares = dict(entry["per_workload"], mean=entry["mean"])
                values[f] = {g: None if v is None else 100 * v for g, v in shares.items()}
            grouped_bars(axes, groups, list(values), values, colours)
            axes.set_title(TITLES[mode])
            axes.set_ylabel(ylabel)
    legend([a for row in grid for a in row])
    save(fig, path)


def energy_figure(plt, results, path):
    fig, axes_pair = plt.subplots(1, 2, figsize=(12, 4.8))
    cmap = plt.get_cmap("tab10")
    for axes, mode in zip(axes_pair, MODES):
        table = results["figures"]["fig19_energy"][mode]
        families = [f for f in families_run(results, mode) if table[f + "_" + mode]]
        components = sorted({c for f in families for c in table[f + "_" + mode]["components_j"]})
        bottoms = [0.0] * len(families)
        for index, component in enumerate(components):
            heights = [table[f + "_" + mode]["components_j"].get(component, 0.0) * 1e6
                       for f in families]
            axes.bar(range(len(families)), heights, 0.6, bottom=bottoms, label=component,
                     color=cmap(index % 10))
            bottoms = [b + h for b, h in zip(bottoms, heights)]
        axes.set_xticks(range(len(families)))
        axes.set_xticklabels(families, fontsize=8)
        axes.set_ylabel("energy over the suite (uJ)")
        axes.set_title(TITLES[mode] + " (platforms that report energy)")
        axes.margins(y=0.25)
        axes.grid(True, axis="y", alpha=0.3)
    legend(axes_pair)
    save(fig, path)


def waveguide_figure(plt, results, path):
    fig, axes_pair = plt.subplots(1, 2, figsize=(11, 4.5))
    colours = colour_map(plt)
    counts = results["waveguides"]
    for axes, mode in zip(axes_pair, MODES):
        table = results["figures"]["fig20a_waveguides"][mode]
        for family in families_run(results, mode):
            name = family + "_" + mode
            if name not in table:
                continue
            ys = [table[name][str(n)]["ipc_over_hetero"] for n in counts]
            axes.plot(counts, ys, "-o", label=family, color=colours[family])
        axes.axhline(1.0, color=colours["hetero"], linestyle="--", label="hetero")
        paper_crosses(axes, lambda f: 8 if f + "_" + mode in table else None,
                      paper.WAVEGUIDES_8_OVER_HETERO)
        axes.set_xscale("log", base=2)
        axes.set_xticks(counts)
        axes.set_xticklabels([str(n) for n in counts])
        axes.set_xlabel("waveguides")
        axes.set_ylabel("IPC / Hetero (geometric mean)")
        axes.set_title(TITLES[mode])
        axes.grid(True, alpha=0.3)
    legend(axes_pair)
    save(fig, path)


def budget_labels(results):
    entries = results["figures"]["fig20b_ber_table3_mrr"]
    names = [f + "_" + m for m in MODES for f in FAMILIES if f + "_" + m in entries]
    return entries, names


def ber_figure(plt, results, path):
    entries, names = budget_labels(results)
    fig, axes = plt.subplots(figsize=(8, 4.5))
    axes.bar(range(len(names)), [entries[n]["ber_max"] for n in names], 0.6, color="tab:blue",
             label="OhmVP, worst route")
    paper_crosses(axes, lambda n: names.index(n) if n in names else None,
                  {f + "_" + m: v for m in MODES for f, v in paper.BER[m].items()})
    axes.axhline(paper.BER_REQUIRED, color="tab:red", linestyle="--", label="required 1e-15")
    axes.set_yscale("log")
    axes.set_xticks(range(len(names)))
    axes.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
    axes.set_ylabel("bit error rate at the configured laser")
    axes.grid(True, axis="y", alpha=0.3)
    axes.legend(fontsize=7)
    save(fig, path)


def mrr_figure(plt, results, path):
    entries, names = budget_labels(results)
    fig, axes = plt.subplots(figsize=(9, 4.5))
    xs = range(len(names))
    modulators = [entries[n]["mrr_modulators"] for n in names]
    axes.bar(xs, modulators, 0.6, label="modulators")
    axes.bar(xs, [entries[n]["mrr_detectors"] for n in names], 0.6, bottom=modulators,
             label="detectors")
    published = {f + "_" + m: sum(v) for m, by in paper.MRR.items() for f, v in by.items()}
    paper_crosses(axes, lambda n: names.index(n) if n in names else None, published)
    for x, n in zip(xs, names):
        axes.annotate("$%.2f" % entries[n]["mrr_cost_usd"], (x, entries[n]["mrr_count"]),
                      ha="center", va="bottom", fontsize=7)
    axes.set_xticks(list(xs))
    axes.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
    axes.set_ylabel("MRRs (label: cost)")
    axes.grid(True, axis="y", alpha=0.3)
    axes.legend(fontsize=7)
    save(fig, path)


def legend(axes_list):
    for axes in axes_list:
        if axes.get_legend_handles_labels()[0]:
            axes.legend(fontsize=7, loc="best")


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: plot_ohm_evaluation.py results.json FIGURE_DIR\n")
        return 2
    plt = pyplot("plot_ohm_evaluation.py")
    if plt is None:
        return 2
    try:
        with open(argv[1]) as handle:
            results = json.load(handle)
    except (OSError, ValueError) as error:
        sys.stderr.write("%s: %s\n" % (argv[1], error))
        return 2
    out = argv[2]
    per_workload_figure(plt, results, "fig16_ipc", "geomean", "geomean", "IPC / Ohm-base",
                        paper.IPC, os.path.join(out, "ohm_ipc.png"))
    per_workload_figure(plt, results, "fig17_latency", "geomean", "geomean",
                        "average memory latency / Ohm-base", paper.LATENCY,
                        os.path.join(out, "ohm_latency.png"), log=True)
    per_workload_figure(plt, results, "fig18_migration_share", "mean", "mean",
                        "migration share of channel time", paper.MIGRATION_SHARE,
                        os.path.join(out, "ohm_migration_share.png"))
    busy_figure(plt, results, os.path.join(out, "ohm_busy.png"))
    energy_figure(plt, results, os.path.join(out, "ohm_energy.png"))
    waveguide_figure(plt, results, os.path.join(out, "ohm_waveguides.png"))
    ber_figure(plt, results, os.path.join(out, "ohm_ber.png"))
    mrr_figure(plt, results, os.path.join(out, "ohm_mrr.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
