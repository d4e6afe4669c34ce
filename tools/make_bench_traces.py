#!/usr/bin/env python3
"""Writes the memory benchmark's traces in the OhmVP trace format (docs/trace_format.md).

stream: sequential 64-byte reads at 0, 64, 128, ...
random: uniformly random 64-byte requests over 1 GiB, 70% reads, fixed seed.
Usage: make_bench_traces.py OUT_DIR REQUESTS
"""
import os
import random
import sys


def write_stream(path, requests):
    with open(path, "w") as out:
        out.write("# sequential 64-byte reads\n")
        for i in range(requests):
            out.write("R 0x%x\n" % (i * 64))


def write_random(path, requests, seed=2024):
    rng = random.Random(seed)
    lines = 1 << 30 >> 6
    with open(path, "w") as out:
        out.write("# uniformly random 64-byte requests over 1 GiB, 70%% reads, seed %d\n" % seed)
        for _ in range(requests):
            op = "R" if rng.random() < 0.7 else "W"
            out.write("%s 0x%x\n" % (op, rng.randrange(lines) * 64))


def main():
    out_dir, requests = sys.argv[1], int(sys.argv[2])
    os.makedirs(out_dir, exist_ok=True)
    write_stream(os.path.join(out_dir, "stream_%d.trace" % requests), requests)
    write_random(os.path.join(out_dir, "random_%d.trace" % requests), requests)


if __name__ == "__main__":
    main()
