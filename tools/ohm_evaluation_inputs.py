#!/usr/bin/env python3
"""Writes a shipped kernel workload with other inputs: every generator's and random buffer's
seed moved by 1000 * K, the PTX path made absolute. Input set 0 is the shipped workload.

    ohm_evaluation_inputs.py SOURCE.json DESTINATION.json K

Standard library only. Used by tools/ohm_evaluation.sh --inputs.
"""

import json
import os
import sys

SEED_STEP = 1000


def moved(node, offset):
    if isinstance(node, dict):
        return {key: (value + offset if key == "seed" and isinstance(value, int)
                      else moved(value, offset)) for key, value in node.items()}
    if isinstance(node, list):
        return [moved(value, offset) for value in node]
    return node


def main(argv):
    if len(argv) != 4 or not argv[3].isdigit():
        print("usage: ohm_evaluation_inputs.py SOURCE.json DESTINATION.json K", file=sys.stderr)
        return 2
    source, destination, k = argv[1], argv[2], int(argv[3])
    with open(source) as f:
        workload = json.load(f)
    variant = moved(workload, SEED_STEP * k)
    if "ptx" in variant:
        variant["ptx"] = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(source)),
                                                       variant["ptx"]))
    variant["description"] = "%s (input set %d: seeds + %d)" % (
        workload.get("description", ""), k, SEED_STEP * k)
    with open(destination, "w") as f:
        json.dump(variant, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
