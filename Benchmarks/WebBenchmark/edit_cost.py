#!/usr/bin/env python3
"""What one notes edit costs a server holding a large tree: the save over HTTP, the patch a page
then asks for (`chart.json?since=N`), and the server's resident memory after each.

    swift build -c release --traits Server --scratch-path .build-release --product familytree
    python3 Benchmarks/WebBenchmark/edit_cost.py [--members 100000] [--edits 10]

One server on the embedded store in a scratch folder, a generated tree (seed 1) pushed by the
CLI, no browser: the time is the server's alone."""
import argparse, json, os, tempfile, time, urllib.request
from scratch_server import ScratchServer

parser = argparse.ArgumentParser()
parser.add_argument("--members", type=int, default=100_000)
parser.add_argument("--edits", type=int, default=10)
parser.add_argument("--familytree", default=os.path.join(os.path.dirname(__file__), "../../.build-release/release/familytree"))
arguments = parser.parse_args()
binary = os.path.abspath(arguments.familytree)


def resident_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024


with tempfile.TemporaryDirectory() as folder:
    server = ScratchServer(binary, folder)
    address = server.address
    try:
        user = "t"
        token = server.user_with_tree(user, "the user's password", arguments.members)

        def call(method, path, body=None):
            request = urllib.request.Request(address + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                             headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
            return json.loads(urllib.request.urlopen(request, timeout=600).read())

        print(f"{arguments.members:,} members; pushed: {resident_mb(server.process.pid)} MB")
        first = call("GET", f"/trees/{user}/chart.json")
        print(f"whole chart made: {resident_mb(server.process.pid)} MB")
        member, shown = first["data"]["m"][len(first["data"]["m"]) // 2][0], first["sequence"]
        saves, patches = [], []
        for number in range(arguments.edits):
            start = time.perf_counter()
            call("POST", f"/trees/{user}/edits", {"edits": [{"op": "edit", "member": member, "fields": {"notes": f"Edit {number}"}}]})
            saved = time.perf_counter()
            answer = call("GET", f"/trees/{user}/chart.json?since={shown}")
            done = time.perf_counter()
            if "patch" not in answer:
                raise SystemExit(f"edit {number} was sent as the whole chart, not a patch")
            shown = answer["sequence"]
            saves.append(saved - start)
            patches.append(done - saved)
            print(f"edit {number}: save {1000 * saves[-1]:.0f} ms, patch {1000 * patches[-1]:.0f} ms, {resident_mb(server.process.pid)} MB")
        median = lambda values: sorted(values)[len(values) // 2]
        print(f"median: save {1000 * median(saves):.0f} ms, patch {1000 * median(patches):.0f} ms")
    finally:
        server.stop()
