#!/usr/bin/env python3
"""The chart kinds on real trees, ours against Graphviz dot on the same part, in one run.

    swift build -c release --product familytree --scratch-path .build-release
    python3 Benchmarks/ChartBenchmark/chart_benchmark.py [--gedcom a.ged,b.ged] [--repeats 3]
        [--familytree .build-release/release/familytree] [--poster royal92/royal92.ged]

Every GEDCOM file of ../shared/data with 100 or more people (or those given), imported once to
tree JSON. For each, the charts a reader asks for: the whole tree; the ancestors, descendants and
hourglass of its most-connected people (the person with the most ancestors; the one with the most
descendants); and the relationship chart of that person and a cousin (a descendant of one of their
great-grandparents, or nearer, on another line). For each chart:

- ours: `familytree stats --chart ...` (import of the JSON, the part, our layout, measuring) and
  `render --chart ... -o chart.svg` (the same and the SVG), best of REPEATS wall-clock runs;
  crossings, width x height, and the child lines of different families closer than 12 units
  ("close") or on top of each other ("on top"), from stats;
- dot: `familytree stats --chart ... --engine dot` on the same part (the structure DOT, boxes our
  size, dot -Tplain), best of REPEATS; its crossings and width measured the same way. dot's lines
  are splines, so close and on-top pairs are not measured for it.

With a familytree built with the PDF trait, also the poster: the --poster tree on A4 pages at full
size (`--paper a4 --pages`), its page count (pdfinfo) and time."""
import argparse, glob, json, os, re, subprocess, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("--gedcom", default="", help="comma-separated GEDCOM files (default: ../shared/data, 100 people or more)")
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--familytree", default=os.path.join(here, "../../.build-release/release/familytree"))
parser.add_argument("--poster", default=os.path.join(here, "../../../shared/data/royal92/royal92.ged"))
arguments = parser.parse_args()
binary = os.path.abspath(arguments.familytree)


def run(args, check=True):
    started = time.perf_counter()
    result = subprocess.run([binary] + args, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if check and result.returncode != 0:
        raise RuntimeError(f"familytree {' '.join(args)}: {result.stderr.strip()[:300]}")
    return result, elapsed


def best(args):
    """The best wall-clock time of REPEATS runs, and the last run's standard output."""
    times = []
    output = ""
    for _ in range(arguments.repeats):
        result, elapsed = run(args)
        times.append(elapsed)
        output = result.stdout
    return min(times), output


def family(tree):
    """Parents and children of every member, from the tree JSON's unions."""
    parents = {member["id"]: [] for member in tree["members"]}
    children = {member["id"]: [] for member in tree["members"]}
    for union in tree.get("unions", []):
        partners = [p for p in union.get("partners", []) if p in parents]
        for child in union.get("children", []):
            child = child["id"] if isinstance(child, dict) else child
            if child not in parents:
                continue
            for partner in partners:
                parents[child].append(partner)
                children[partner].append(child)
    return parents, children


def reach(start, links):
    """Everyone reached from start along links, with the generations to each."""
    seen = {start: 0}
    frontier = [start]
    while frontier:
        following = []
        for person in frontier:
            for other in links[person]:
                if other not in seen:
                    seen[other] = seen[person] + 1
                    following.append(other)
        frontier = following
    return seen


def subjects(tree):
    """The person with the most ancestors, the one with the most descendants, and a cousin of the first."""
    parents, children = family(tree)
    ids = sorted(parents)
    ancestors = {person: len(reach(person, parents)) for person in ids}
    descendants = {person: len(reach(person, children)) for person in ids}
    upward = max(ids, key=lambda p: (ancestors[p], p))
    downward = max(ids, key=lambda p: (descendants[p], p))
    cousin = None
    above = reach(upward, parents)
    own_line = set(above)
    for generations in (3, 2, 1):
        for elder in sorted(p for p, g in above.items() if g == generations):
            below = reach(elder, children)
            candidates = sorted(p for p, g in below.items() if g == generations and p not in own_line and p != upward
                                and not (set(reach(p, parents)) & set(reach(upward, children))))
            if candidates:
                cousin = candidates[0]
                break
        if cousin:
            break
    return upward, downward, cousin


def measure(tree_json, chart):
    ours_time, ours = best(["stats", tree_json, "--format", "json"] + chart)
    render_time, _ = best(["render", tree_json, "-o", os.path.join(scratch, "chart.svg")] + chart)
    dot_time, dot = best(["stats", tree_json, "--format", "json", "--engine", "dot"] + chart)
    return json.loads(ours), ours_time, render_time, json.loads(dot), dot_time


def seconds(value):
    return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"


files = [f for f in arguments.gedcom.split(",") if f] or sorted(glob.glob(os.path.join(here, "../../../shared/data/**/*.ged"), recursive=True))
scratch = tempfile.mkdtemp(prefix="chart-benchmark-")
print(f"familytree chart benchmark: {binary}, best of {arguments.repeats}, {os.cpu_count()} cores")
print("Times are whole runs of the command line (reading the tree JSON, choosing the part, laying it out,")
print("measuring; render also writes the SVG); dot's run is the same command with --engine dot.")
print("")
print("| tree | chart | people | ours stats / dot stats | ratio | render SVG | crossings ours / dot | width ours / dot | height ours / dot | close / on top (ours) |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for gedcom in files:
    tree_json = os.path.join(scratch, os.path.basename(gedcom) + ".json")
    result, _ = run(["import", gedcom, "-o", tree_json], check=False)
    if result.returncode != 0 or not os.path.exists(tree_json):
        continue
    with open(tree_json) as handle:
        tree = json.load(handle)
    if len(tree.get("members", [])) < 100:
        continue
    upward, downward, cousin = subjects(tree)
    charts = [("whole tree", []), (f"ancestors of {upward}", ["--chart", "ancestors", upward]),
              (f"descendants of {downward}", ["--chart", "descendants", downward]),
              (f"hourglass of {upward}", ["--chart", "hourglass", upward])]
    if cousin:
        charts.append((f"relationship {upward}, {cousin}", ["--chart", "relationship", upward, cousin]))
    for name, chart in charts:
        try:
            ours, ours_time, render_time, dot, dot_time = measure(tree_json, chart)
        except RuntimeError as error:
            print(f"| {os.path.basename(gedcom)} | {name} | | failed: {error} | | | | | | |")
            continue
        ratio = f"{dot_time / ours_time:.2f}x" if ours_time > 0 else "-"
        print(f"| {os.path.basename(gedcom)} | {name} | {ours['members']} | {seconds(ours_time)} / {seconds(dot_time)} | {ratio} | "
              f"{seconds(render_time)} | {ours['crossings']} / {dot['crossings']} | {ours['width']} / {dot['width']} | "
              f"{ours['height']} / {dot['height']} | {ours['closeLinePairs']} / {ours['overlappingLinePairs']} |")

poster = os.path.abspath(arguments.poster)
if os.path.exists(poster):
    output = os.path.join(scratch, "poster.pdf")
    result, elapsed = run(["render", poster, "-o", output, "--paper", "a4", "--pages"], check=False)
    print("")
    if result.returncode != 0:
        print(f"Poster: not measured ({result.stderr.strip().splitlines()[0] if result.stderr.strip() else 'failed'}).")
    else:
        info = subprocess.run(["pdfinfo", output], capture_output=True, text=True).stdout
        pages = re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE)
        print(f"Poster: {os.path.basename(poster)} on A4 at full size: {pages.group(1) if pages else '?'} pages in {seconds(elapsed)} "
              f"({os.path.getsize(output) / 1e6:.1f} MB).")
