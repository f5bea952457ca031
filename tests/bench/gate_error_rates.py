#!/usr/bin/env python3
"""Benchmark, not a test: the baseline gate's error rates measured on a GPU, with series measured as blocks.

Usage (one command, from the repository root of a built tree, on a machine with a CUDA GPU):

    python3 tests/bench/gate_error_rates.py build/ci/cli/asyncscope-cli

Options: --pairs N (20 A/A pairs and N slowdown pairs), --runs R (measured runs a series, 200), --blocks B (blocks a
series, 10), --elements E (the size in elements of int, 16777216 = 64 MiB), --slowdown F (the slower side's size
factor, 1.02), --device D, --single (also measure single-block pairs, to show what an interval of one block
misses), --keep DIR (keep the series files there), --seconds S (start no pair after S seconds: the table then holds
the pairs measured, and says so).

What it does: every series is its own process of asyncscope-cli, run back to back, as a user's CI job runs them.
- A/A pairs: two series of one configuration. Each pair is compared (asyncscope-cli --baseline A B --format json) at
  --min-difference 0.5 (the default) and 0.1. Counted: intervals of GPU time that cover 0, and "slower"/"faster"
  verdicts.
- Slowdown pairs: the second series of a size `--slowdown` times larger (about that much slower). Compared across
  the size (--allow-different) with --max-slowdown 1. Counted: gate failures (the slowdown caught), verdicts.
Prints one table, a row per kind of pair, and the runs and blocks the comparisons say a side needs.
Needs only Python 3's standard library.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def measure(cli, path, elements, runs, blocks, device):
    command = [cli, "--size", str(elements), "--runs", str(runs), "--blocks", str(blocks), "--format", "json",
               "--output", path]
    if device is not None:
        command += ["--device", str(device)]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")


def compare(cli, baseline, current, extra):
    command = [cli, "--baseline", baseline, current, "--format", "json"] + extra
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode not in (0, 1):  # 1: the gate failed
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    result = json.loads(done.stdout)
    gpu = next(q for q in result["quantities"] if q["key"] == "gpu_time_ms")
    return result, gpu


class Tally:
    def __init__(self, name):
        self.name = name
        self.pairs = 0
        self.covered = 0
        self.slower = 0
        self.faster = 0
        self.gate_failed = 0
        self.needs = []
        self.differences = []

    def add(self, result, gpu):
        self.pairs += 1
        low, high = gpu["interval_percent"]
        self.covered += 1 if low <= 0.0 <= high else 0
        self.slower += 1 if gpu["verdict"] == "slower" else 0
        self.faster += 1 if gpu["verdict"] == "faster" else 0
        self.gate_failed += 1 if result["gate"]["failed"] else 0
        self.differences.append(gpu["difference_percent"])
        if gpu.get("need"):
            self.needs.append(gpu["need"])

    def row(self):
        need = ""
        if self.needs:
            blocks = sorted(n["blocks"] for n in self.needs)[len(self.needs) // 2]
            per_block = sorted(n["runs_per_block"] for n in self.needs)[len(self.needs) // 2]
            need = f"{blocks} x {per_block}"
        spread = f"{min(self.differences):+.2f} to {max(self.differences):+.2f}" if self.differences else ""
        return [self.name, str(self.pairs), f"{self.covered}/{self.pairs}", str(self.slower), str(self.faster),
                str(self.gate_failed), spread, need]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cli")
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--blocks", type=int, default=10)
    parser.add_argument("--elements", type=int, default=16 * 1024 * 1024)
    parser.add_argument("--slowdown", type=float, default=1.02)
    parser.add_argument("--device", type=int)
    parser.add_argument("--single", action="store_true")
    parser.add_argument("--keep")
    parser.add_argument("--seconds", type=float)
    args = parser.parse_args()
    began = time.monotonic()
    stopped = None  # the pairs of a kind measured where the time ran out

    folder = args.keep or tempfile.mkdtemp(prefix="gate-error-rates-")
    os.makedirs(folder, exist_ok=True)
    slower_elements = round(args.elements * args.slowdown)
    tallies = []
    shapes = [("blocks", args.blocks)] + ([("one block", 1)] if args.single else [])
    for label, blocks in shapes:
        aa = {0.5: Tally(f"A/A, {label}, min-difference 0.5"), 0.1: Tally(f"A/A, {label}, min-difference 0.1")}
        slow = Tally(f"{args.slowdown:.2f} x size, {label}, max-slowdown 1")
        for pair in range(args.pairs):
            if args.seconds is not None and time.monotonic() - began > args.seconds:
                stopped = f"stopped by --seconds {args.seconds:g} after {pair} of {args.pairs} {label} pairs"
                break
            a, b, c = (os.path.join(folder, f"{label.replace(' ', '-')}-{pair}-{side}.json") for side in "abc")
            measure(args.cli, a, args.elements, args.runs, blocks, args.device)
            measure(args.cli, b, args.elements, args.runs, blocks, args.device)
            measure(args.cli, c, slower_elements, args.runs, blocks, args.device)
            for minimum, tally in aa.items():
                tally.add(*compare(args.cli, a, b, ["--min-difference", str(minimum), "--bootstrap-seed",
                                                    str(pair + 1)]))
            slow.add(*compare(args.cli, a, c, ["--allow-different", "--max-slowdown", "1", "--bootstrap-seed",
                                               str(pair + 1)]))
            print(f"{label}: pair {pair + 1} of {args.pairs} measured", file=sys.stderr, flush=True)
        tallies += list(aa.values()) + [slow]
        if stopped:
            break

    header = ["pairs", "n", "interval covers 0", "slower", "faster", "gate failed", "difference % (range)",
              "need (blocks x runs)"]
    rows = [header] + [t.row() for t in tallies]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for r in rows:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(r)).rstrip())
    print(f"\n{args.runs} measured runs a series in {args.blocks} blocks, {args.elements} elements "
          f"({args.elements * 4 / 2**20:.1f} MiB), slower side {slower_elements} elements; files in {folder}")
    if stopped:
        print(stopped)


if __name__ == "__main__":
    main()
