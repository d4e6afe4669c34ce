"""The orderings the Ohm-GPU evaluation expects, checked on the aggregated results.

Each check gives holds True or False, or None (pending) when a platform it needs was not run.
Thresholds are stated in the claims: "about equal" is within 5%, "well ahead" at least 10%.
"""

ABOUT_EQUAL = 0.05
WELL_AHEAD = 1.10
MODES = ["planar", "two_level"]
# Ohm-BW >= Ohm-WOM >= Auto-rw >= Ohm-base, as neighbouring pairs.
LADDER = [("ohm_bw", "ohm_wom"), ("ohm_wom", "auto_rw"), ("auto_rw", "ohm_base")]


def pending(claim, mode, missing):
    return {"claim": claim, "mode": mode, "holds": None,
            "evidence": "pending: %s not run" % ", ".join(missing), "value": None}


def verdict(claim, mode, holds, evidence, value):
    # value: the figure the claim is decided on (a geomean or a ratio of two).
    return {"claim": claim, "mode": mode, "holds": bool(holds), "evidence": evidence,
            "value": value}


def ipc_table(results, mode):
    return results["figures"]["fig16_ipc"][mode] or {}


def pair(results, mode, high, low):
    claim = "%s >= %s (IPC)" % (high, low)
    table = ipc_table(results, mode)
    names = [high + "_" + mode, low + "_" + mode]
    missing = [n for n in names if n not in table]
    if missing:
        return pending(claim, mode, missing)
    hi, lo = (table[n] for n in names)
    wins = sum(1 for w, r in hi["per_workload"].items() if r >= lo["per_workload"][w])
    value = hi["geomean"] / lo["geomean"]
    return verdict(claim, mode, value >= 1.0,
                   "geomean ratio %.3f; %d of %d workloads" % (value, wins, len(hi["per_workload"])),
                   value)


def extreme(results, mode, family, highest):
    claim = "%s %s (IPC)" % (family, "on top" if highest else "last")
    table = ipc_table(results, mode)
    name = family + "_" + mode
    if name not in table:
        return pending(claim, mode, [name])
    others = {n: e for n, e in table.items() if n != name}
    if not others:
        return pending(claim, mode, ["any other platform"])
    own = table[name]
    better = (lambda a, b: a > b) if highest else (lambda a, b: a < b)
    beaten = [n for n, e in others.items() if not better(own["geomean"], e["geomean"])]
    workloads = own["per_workload"]
    per = sum(1 for w, r in workloads.items()
              if all(better(r, e["per_workload"][w]) for e in others.values()))
    evidence = "geomean %.3f; %s on %d of %d workloads" % (
        own["geomean"], "top" if highest else "last", per, len(workloads))
    if beaten:
        evidence += "; not %s %s" % ("above" if highest else "below", ", ".join(sorted(beaten)))
    return verdict(claim, mode, not beaten, evidence, own["geomean"])


def against_hetero(results, mode, count, claim, test):
    sweep = results["figures"]["fig20a_waveguides"][mode]
    name = "ohm_base_" + mode
    if name not in sweep or sweep[name][str(count)]["ipc_over_hetero"] is None:
        return pending(claim, mode, [n for n in (name, "hetero_" + mode)
                                     if n not in results["runs"]])
    value = sweep[name][str(count)]["ipc_over_hetero"]
    return verdict(claim, mode, test(value), "Ohm-base / Hetero geomean %.3f" % value, value)


def check(results):
    found = []
    most = max(results["waveguides"])
    for mode in MODES:
        found.append(extreme(results, mode, "oracle", True))
        found.extend(pair(results, mode, high, low) for high, low in LADDER)
        if 1 in results["waveguides"]:
            found.append(against_hetero(results, mode, 1,
                                        "ohm_base about equal to hetero at 1 waveguide (5%)",
                                        lambda v: abs(v - 1.0) <= ABOUT_EQUAL))
        if most > 1:
            found.append(against_hetero(
                results, mode, most,
                "ohm_base well ahead of hetero at %d waveguides (10%%)" % most,
                lambda v: v >= WELL_AHEAD))
        found.append(extreme(results, mode, "origin", False))
    return found
