#!/usr/bin/env python3
"""Whether each expected ordering of the Ohm-GPU evaluation holds across input sets.

    ohm_evaluation_spread.py RESULTS.json... [--docs FILE]

Each RESULTS.json is tools/ohm_evaluation.sh's results.json of one input set (--inputs K) of
the same platforms, workloads and overrides. Prints a markdown table: per expected ordering, the
input sets it holds in, the figure it is decided on in each (a geometric mean, or the ratio
of two), and that figure's mean over the sets with its 95% interval (Student's t, the sets
taken as independent draws). An ordering that holds in some sets and not in others is not
resolved by the suite: its margin is within what the inputs alone move it. --docs FILE replaces FILE's block
'<!-- ohm_evaluation:spread -->' ... '<!-- /ohm_evaluation -->' with the table. Exit 2 on bad
input. Standard library only.
"""

import argparse
import json
import statistics
import sys

import ohm_evaluation_aggregate as aggregate
import ohm_evaluation_tables as tables

SAME = ("platforms", "workloads", "waveguides", "overrides", "scale")
# What results.json files written before a key existed meant by its absence.
ABSENT = {"scale": 1}
# Two-sided 95% quantiles of Student's t by degrees of freedom; the normal's beyond.
T_95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042}


def load(paths):
    sets = []
    for path in paths:
        try:
            with open(path) as handle:
                sets.append(json.load(handle))
        except (OSError, ValueError) as error:
            raise aggregate.InputError("%s: %s" % (path, error))
    for path, results in zip(paths[1:], sets[1:]):
        for key in SAME:
            if results.get(key, ABSENT.get(key)) != sets[0].get(key, ABSENT.get(key)):
                raise aggregate.InputError("%s: '%s' is not the same as in %s"
                                           % (path, key, paths[0]))
    for path, results in zip(paths, sets):
        if any("value" not in d for d in results.get("directions", [])):
            raise aggregate.InputError("%s: written by an older ohm_evaluation_aggregate.py (its "
                                       "orderings carry no value); run the evaluation again" % path)
    inputs = [results.get("inputs", 0) for results in sets]
    if len(set(inputs)) != len(inputs):
        raise aggregate.InputError("input sets given twice: %s" % ", ".join(map(str, inputs)))
    return sets, inputs


def verdict(holds):
    decided = [h for h in holds if h is not None]
    if not decided:
        return "pending"
    if all(decided):
        return "yes, in all %d" % len(decided)
    if not any(decided):
        return "**no**, in none of %d" % len(decided)
    return "not resolved: %d of %d" % (sum(decided), len(decided))


def t_95(degrees):
    return T_95[max(d for d in T_95 if d <= degrees)] if degrees <= 30 else 1.96


def mean_interval(values):
    """'mean +- half-width' of the 95% interval; the mean alone for a single value."""
    if not values:
        return "-"
    mean = statistics.mean(values)
    if len(values) == 1:
        return "%.3f" % mean
    half = t_95(len(values) - 1) * statistics.stdev(values) / len(values) ** 0.5
    return "%.3f +- %.3f" % (mean, half)


def table(sets, inputs):
    lines = tables.header(["expected", "mode", "holds"] +
                          ["input set %d" % k for k in inputs] + ["range", "mean, 95% interval"],
                          numeric_from=3)
    for i, first in enumerate(sets[0]["directions"]):
        checks = [results["directions"][i] for results in sets]
        values = [c["value"] for c in checks]
        known = [v for v in values if v is not None]
        spread = "%.3f to %.3f" % (min(known), max(known)) if known else "-"
        held = verdict([c["holds"] for c in checks])
        lines.append(tables.row([first["claim"], first["mode"], held] +
                                [tables.fmt(v) for v in values] + [spread, mean_interval(known)]))
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("--docs")
    args = parser.parse_args(argv[1:])
    try:
        sets, inputs = load(args.results)
        text = table(sets, inputs)
        print(text)
        if args.docs:
            aggregate.splice(args.docs, {"spread": text}, kept=tables.BLOCKS)
    except aggregate.InputError as error:
        print("ohm_evaluation_spread: %s" % error, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
