#!/usr/bin/env python3
"""Registers per thread of every shipped kernel: what occupancy counts (the most the PTX holds
live at once), what the PTX declares, and what ptxas allocates (its -v "Used N registers",
compiled for sm_75) when ptxas is on PATH or in /usr/local/cuda/bin. Prints a Markdown table.

    tools/register_counts.py [--build DIR] [PTX ...]     (default: testbenches/kernels/*.ptx)
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ohmvp_counts(ohmvp, ptx):
    """{kernel name as ohmvp kernels prints it: (live, declared)}"""
    text = subprocess.run([ohmvp, "kernels", ptx], check=True, capture_output=True,
                          text=True).stdout
    counts, name = {}, None
    for line in text.splitlines():
        header = re.match(r'^"([^"]+)"(?:.*\(\.entry (\S+)\))?', line)
        if header:
            name = header.group(2) or header.group(1)
        registers = re.match(r"^  registers   (\d+) a thread live at once .*, (\d+) declared", line)
        if registers and name is not None:
            counts[name] = (int(registers.group(1)), int(registers.group(2)))
    return counts


def ptxas_counts(ptxas, ptx):
    """{entry name: registers ptxas allocates for sm_75}"""
    with tempfile.TemporaryDirectory() as scratch:
        result = subprocess.run([ptxas, "-arch=sm_75", "-v", ptx, "-o",
                                 os.path.join(scratch, "out.cubin")],
                                check=True, capture_output=True, text=True)
    counts, name = {}, None
    for line in (result.stdout + result.stderr).splitlines():
        entry = re.search(r"Compiling entry function '([^']+)'", line)
        if entry:
            name = entry.group(1)
        used = re.search(r"Used (\d+) registers", line)
        if used and name is not None:
            counts[name] = int(used.group(1))
            name = None
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("ptx", nargs="*")
    args = parser.parse_args()
    ohmvp = os.path.join(args.build, "ohmvp")
    if not os.access(ohmvp, os.X_OK):
        print(f"register_counts: no ohmvp in {args.build} (build it first)", file=sys.stderr)
        return 2
    files = args.ptx or sorted(glob.glob(os.path.join(ROOT, "testbenches/kernels/*.ptx")))
    ptxas = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas"
                                       if os.access("/usr/local/cuda/bin/ptxas", os.X_OK) else None)
    print("| kernel | live at once (occupancy) | declared in the PTX | ptxas sm_75 | live / ptxas |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for ptx in files:
        ours = ohmvp_counts(ohmvp, ptx)
        theirs = ptxas_counts(ptxas, ptx) if ptxas else {}
        for kernel, (live, declared) in sorted(ours.items()):
            allocated = theirs.get(kernel)
            ratio = f"{live / allocated:.2f}" if allocated else "-"
            print(f"| {os.path.basename(ptx)} `{kernel}` | {live} | {declared} | "
                  f"{allocated if allocated is not None else '-'} | {ratio} |")
    if ptxas is None:
        print("\n(ptxas not found: its column is empty)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
