#!/usr/bin/python3
"""Plots SIMD efficiency versus warp size from the CSV the simd_efficiency tool writes.

    /usr/bin/python3 tools/plot_simd_efficiency.py simd_efficiency.csv simd_efficiency.png

Needs matplotlib, which on this machine only Debian's /usr/bin/python3 has (python3-matplotlib).
"""

import csv
import sys

from plot_support import pyplot


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: plot_simd_efficiency.py IN.csv OUT.png\n")
        return 2
    plt = pyplot("plot_simd_efficiency.py")
    if plt is None:
        return 2

    series = {}
    required = {"workload", "warp_size", "simd_efficiency"}
    try:
        with open(argv[1], newline="") as handle:
            reader = csv.DictReader(handle)
            missing = required - set(reader.fieldnames or [])
            if missing:
                sys.stderr.write("%s: missing columns %s\n" % (argv[1], ", ".join(sorted(missing))))
                return 2
            for line, row in enumerate(reader, start=2):
                try:
                    point = (int(row["warp_size"]), float(row["simd_efficiency"]))
                except ValueError:
                    sys.stderr.write("%s:%d: warp_size or simd_efficiency is not a number\n"
                                     % (argv[1], line))
                    return 2
                series.setdefault(row["workload"], []).append(point)
    except OSError as error:
        sys.stderr.write("%s: %s\n" % (argv[1], error.strerror))
        return 2
    if not series:
        sys.stderr.write("%s: no rows\n" % argv[1])
        return 2

    figure, axes = plt.subplots(figsize=(9, 5.5))
    colours = plt.get_cmap("tab20")
    for index, name in enumerate(sorted(series)):
        points = sorted(series[name])
        style = "-o" if name.startswith("divergence") else "--."
        axes.plot([p[0] for p in points], [p[1] for p in points], style, label=name,
                  color=colours(index % 20))
    sizes = sorted({p[0] for points in series.values() for p in points})
    axes.set_xscale("log", base=2)
    axes.set_xticks(sizes)
    axes.set_xticklabels([str(s) for s in sizes])
    axes.set_ylim(0, 1.05)
    axes.set_xlabel("warp size (threads)")
    axes.set_ylabel("SIMD efficiency (active lanes / warp size per issued instruction)")
    axes.set_title("SIMD efficiency versus warp size (functional runs of the shipped kernels)")
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize=7, ncol=2, loc="lower left")
    figure.tight_layout()
    figure.savefig(argv[2], dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
