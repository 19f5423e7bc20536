#!/usr/bin/env python3
"""Commands that read and rewrite a tree file, timed as a user runs them, two builds interleaved.

    swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic --product familytree
    python3 Benchmarks/CommandBenchmark/edit_benchmark.py [--members 100000] [--runs 10] \
        --binary build-before/familytree --binary build-after/familytree [FILE.ged ...]

A generated tree of --members people (`familytree generate`, seed 7) is copied afresh before each
run of `familytree link` (a cross-bloodline link added, the whole file read, checked and written
again atomically); each GEDCOM file given is imported to JSON (`familytree import`). The builds take
turns, each round starting with the next one, so a machine that slows down slows all alike. The
outputs of the builds are compared byte for byte (the link's id is given, so it is the same).
Prints a Markdown table of medians and the ratio of the last build to the first; exits non-zero
if a run fails or two builds write different files.
"""
import argparse
import filecmp
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def timed(command):
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--members", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--binary", action="append", required=True, help="a familytree binary (give two to compare)")
    parser.add_argument("files", nargs="*", help="GEDCOM files to import")
    options = parser.parse_args()
    binaries = [os.path.abspath(b) for b in options.binary]
    names = [os.path.basename(os.path.dirname(b)) or b for b in binaries]
    with tempfile.TemporaryDirectory(prefix="edit-benchmark") as scratch:
        tree = os.path.join(scratch, "tree.json")
        subprocess.run([binaries[0], "generate", "--members", str(options.members), "--seed", "7", "-o", tree],
                       check=True, stdout=subprocess.DEVNULL)
        # The last generated person becomes a child of the first one too: far apart, no cycle.
        link = ["link", f"p{options.members}", "p1", "--id", "benchmark-link"]
        # Each job: its title, whether it edits a fresh copy of the tree, and its command line.
        jobs = [(f"link, {options.members:,} people", True, lambda b, out: [b] + link + ["--tree", out])]
        for path in options.files:
            jobs.append((f"import {os.path.basename(path)}", False, lambda b, out, path=path: [b, "import", path, "-o", out]))
        print("| command | " + " | ".join(names) + " | " + f"{names[-1]} / {names[0]} |")
        print("|---|" + "---:|" * (len(binaries) + 1))
        for title, edits_tree, command in jobs:
            times = [[] for _ in binaries]
            outputs = [os.path.join(scratch, f"out{index}.json") for index in range(len(binaries))]
            for round in range(options.runs + 1):
                for step in range(len(binaries)):
                    index = (round + step) % len(binaries)
                    if edits_tree:
                        shutil.copyfile(tree, outputs[index])
                    elapsed = timed(command(binaries[index], outputs[index]))
                    if round > 0:  # the first round warms the file cache
                        times[index].append(elapsed)
            for output in outputs[1:]:
                if not filecmp.cmp(outputs[0], output, shallow=False):
                    sys.exit(f"{title}: the builds wrote different files")
            medians = [statistics.median(each) for each in times]
            cells = " | ".join(f"{median:.3f} s" for median in medians)
            print(f"| {title} | {cells} | {medians[-1] / medians[0]:.2f} |")


if __name__ == "__main__":
    main()
