"""The Ohm-GPU paper's Section 6 figures, as the evaluation tables print them beside ours.

Source: ../shared/design/PARAMETERS.md ("Headline results", "Published BER", "MRR counts") and
the paper's text (shared/papers/000_*.txt, Section VI). The paper gives its results relative to a
neighbour ("Ohm-WOM +18% over Auto-rw"); the values here chain those steps back to Ohm-base, the
figures' reference, and say so where they do. None is given for a pair the paper does not state.
"""

# Fig. 16, IPC normalised to Ohm-base of the same mode. Origin: 42% below Hetero, and Hetero is
# "similar" to Ohm-base; Auto-rw +9% / +4%; Ohm-WOM +18% / +16% over Auto-rw; Ohm-BW +4% over
# Ohm-WOM (planar only); Oracle from "Ohm-BW achieves 88% of Oracle" with Ohm-BW planar.
IPC = {
    "planar": {"origin": 0.58, "hetero": 1.0, "ohm_base": 1.0, "auto_rw": 1.09,
               "ohm_wom": 1.09 * 1.18, "ohm_bw": 1.09 * 1.18 * 1.04,
               "oracle": 1.09 * 1.18 * 1.04 / 0.88},
    "two_level": {"origin": 0.58, "hetero": 1.0, "ohm_base": 1.0, "auto_rw": 1.04,
                  "ohm_wom": 1.04 * 1.16},
}

# Fig. 17, average memory latency normalised to Ohm-base: Auto-rw -14% / -4%, Ohm-WOM -28% /
# -24% against Auto-rw, Ohm-BW -6% against Ohm-WOM (planar).
LATENCY = {
    "planar": {"ohm_base": 1.0, "auto_rw": 0.86, "ohm_wom": 0.86 * 0.72,
               "ohm_bw": 0.86 * 0.72 * 0.94},
    "two_level": {"ohm_base": 1.0, "auto_rw": 0.96, "ohm_wom": 0.96 * 0.76},
}

# Fig. 18, share of the channel's bandwidth used by migration: 39% / 26% in the baseline; Auto-rw
# 8% / 17% less (read as relative), Ohm-WOM planar 54% less again, Ohm-WOM two-level none.
MIGRATION_SHARE = {
    "planar": {"hetero": 0.39, "ohm_base": 0.39, "auto_rw": 0.39 * 0.92,
               "ohm_wom": 0.39 * 0.92 * 0.46},
    "two_level": {"hetero": 0.26, "ohm_base": 0.26, "auto_rw": 0.26 * 0.83, "ohm_wom": 0.0},
}

# Fig. 19, total memory-system energy against Ohm-base: Ohm-WOM -2% / -1% (the only totals the
# text gives; it also gives Ohm-base's DMA power 57% below Hetero's and Ohm-WOM's static DRAM
# energy 19% below Ohm-base's).
ENERGY = {
    "planar": {"ohm_base": 1.0, "ohm_wom": 0.98},
    "two_level": {"ohm_base": 1.0, "ohm_wom": 0.99},
}

# Fig. 20a: Ohm-base with 8 waveguides 41% above Hetero; Ohm-BW gains 17% from more waveguides.
WAVEGUIDES_8_OVER_HETERO = {"ohm_base": 1.41}

# Fig. 20b, worst BER per platform and mode: Ohm-WOM's is its swap's in planar mode (9.9e-16) and
# its auto-read/write's in two-level mode (6.1e-16), where it does not swap.
BER = {
    "planar": {"ohm_base": 7.2e-16, "ohm_wom": 9.9e-16, "ohm_bw": 9.3e-16},
    "two_level": {"ohm_base": 7.2e-16, "ohm_wom": 6.1e-16, "ohm_bw": 9.3e-16},
}
BER_REQUIRED = 1e-15

# Table 3, modulators + detectors.
MRR = {
    "planar": {"ohm_base": (2112, 2112), "ohm_bw": (2176, 3136)},
    "two_level": {"ohm_base": (2368, 2368), "ohm_bw": (2368, 4928)},
}
# The mode-specific layouts' saving against the general layout (Section IV); Table 3's own
# numbers give it for Ohm-BW's layouts (docs/optical.md, "MRR layouts and Table 3").
MRR_SAVING = {"planar": {"ohm_bw": 0.58}, "two_level": {"ohm_bw": 0.42}}

# Table 2, the workloads' memory accesses per kilo-instruction and read ratio, under the shipped
# kernel that stands for each (docs/results.md, "The suite"); none stands for betweenness or
# graph colouring, and spmv stands for SSSP's relaxation walk.
TABLE2 = {
    "bfs": [("bfsdata", 84, 0.95), ("bfstopo", 25, 0.97)],
    "pagerank": [("pagerank", 599, 0.99)],
    "spmv": [("sssp", 103, 0.98)],
    "fdtd2d": [("FDTD", 86, 0.7)],
    "matmul": [("GRAMS", 266, 0.7)],
    "backprop": [("backp", 30, 0.53)],
    "lu": [("lud", 20, 0.52)],
}
