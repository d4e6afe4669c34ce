#!/usr/bin/env python3
"""Prints the --set overrides that make a platform N times larger, for the suite at N times its
size (tools/ohm_evaluation.sh --scale N): reads the platform's resolved config (ohmvp config) on
standard input and writes one json.path=value a line, each a capacity of the platform times N.

    ohmvp config --platform P | ohm_evaluation_scale.py N

What grows: the DRAM's rows (memory.dram.geometry.columns; at 16 the evaluation platforms'
256-byte rows become 4 KiB, so a 4 KiB page is one row of one bank instead of spanning every
bank), the XPoint (capacity_kib, with its Start-Gap regions), Origin's host memory, and the GPU's
L2. Everything else (the GPU, timings, channels, policies) stays the platform's. Standard library
only.
"""

import json
import sys

SCALED = (
    ("memory", "dram", "geometry", "columns"),
    ("memory", "xpoint", "capacity_kib"),
    ("memory", "xpoint", "start_gap", "region_lines"),
    ("memory", "host_memory", "capacity_kib"),
    ("gpu", "l2", "size_bytes"),
)


def leaf(config, path):
    for key in path:
        if not isinstance(config, dict) or key not in config:
            return None
        config = config[key]
    return config


def main(argv):
    if len(argv) != 2 or not argv[1].isdigit() or int(argv[1]) < 1:
        print("usage: ohmvp config --platform P | ohm_evaluation_scale.py N (N >= 1)",
              file=sys.stderr)
        return 2
    factor = int(argv[1])
    try:
        config = json.load(sys.stdin)
    except ValueError as error:
        print("ohm_evaluation_scale: standard input is not a platform config: %s" % error,
              file=sys.stderr)
        return 2
    for path in SCALED:
        value = leaf(config, path)
        if isinstance(value, int) and not isinstance(value, bool):
            print("%s=%d" % (".".join(path), value * factor))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
