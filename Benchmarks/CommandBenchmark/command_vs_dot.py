#!/usr/bin/env python3
"""The familytree command against dot as a user runs them, interleaved run by run.

    swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --product familytree
    python3 Benchmarks/CommandBenchmark/command_vs_dot.py [--runs 40] [--binary B ...] FILE.ged ...

For each GEDCOM file: `familytree render FILE -o tree.svg` (each --binary given, to compare two
builds) and `dot -Tsvg` of the structure DOT that `familytree render FILE -o tree.dot` writes (the
same boxes), then each program's start alone (`--version`, `dot -V`). The runs of the programs
take turns, each round starting with the next one, so a machine that slows down slows all of them
alike; the table gives each one's median and the ratio to dot's. Prints a Markdown table; exits
non-zero if a run fails. Give one build twice to see the noise (an A/A run).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def timed(command):
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def interleaved(commands, runs):
    """Each command's median wall time over `runs` rounds, after one warm-up round.

    Each round starts with the next command in turn: whichever runs first in a round was measured
    about 0.6 ms faster at start (two builds of one program, in both orders), so no command keeps
    that place."""
    for command in commands:
        timed(command)
    times = [[] for _ in commands]
    for round in range(runs):
        for step in range(len(commands)):
            index = (round + step) % len(commands)
            times[index].append(timed(commands[index]))
    return [statistics.median(each) for each in times]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--binary", action="append", help="a familytree binary (default .build/release/familytree)")
    parser.add_argument("--dot", default="dot")
    parser.add_argument("files", nargs="+")
    options = parser.parse_args()
    binaries = options.binary or [".build/release/familytree"]
    # Two builds are told apart by their folders' names (build-before/familytree, build-after/familytree).
    names = [os.path.basename(os.path.dirname(os.path.abspath(b))) if len(binaries) > 1 else "familytree" for b in binaries]
    with tempfile.TemporaryDirectory(prefix="command-vs-dot") as scratch:
        header = " | ".join(f"{name} render" for name in names)
        ratios = " | ".join(f"{name} / dot" for name in names)
        print(f"| tree | {header} | dot -Tsvg | {ratios} |")
        print("|---|" + "---:|" * (2 * len(binaries) + 1))
        for path in options.files:
            structure = os.path.join(scratch, "tree.dot")
            subprocess.run([binaries[0], "render", path, "-o", structure], check=True, stderr=subprocess.DEVNULL)
            ours = [[b, "render", path, "-o", os.path.join(scratch, f"ours{i}.svg")] for i, b in enumerate(binaries)]
            dot = [options.dot, "-Tsvg", "-o", os.path.join(scratch, "dot.svg"), structure]
            print_row(os.path.basename(path), interleaved(ours + [dot], options.runs))
        print_row("start alone (--version, -V)", interleaved([[b, "--version"] for b in binaries] + [[options.dot, "-V"]], options.runs))


def print_row(name, medians):
    dot = medians[-1]
    cells = [f"{m * 1000:.1f} ms" for m in medians]
    ratios = [f"{m / dot:.2f}" for m in medians[:-1]]
    print(f"| {name} | {' | '.join(cells)} | {' | '.join(ratios)} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
