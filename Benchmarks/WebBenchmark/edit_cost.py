#!/usr/bin/env python3
"""What one notes edit costs a server holding a large tree: the save over HTTP, the patch a page
then asks for (`chart.json?since=N`), and the server's resident memory after each.

    swift build -c release --traits Server --scratch-path .build-release --product familytree
    python3 Benchmarks/WebBenchmark/edit_cost.py [--members 100000] [--edits 10]

One server on the embedded store in a scratch folder, a generated tree (seed 1) pushed by the
CLI, no browser: the time is the server's alone."""
import argparse, json, os, socket, subprocess, tempfile, time, urllib.request

parser = argparse.ArgumentParser()
parser.add_argument("--members", type=int, default=100_000)
parser.add_argument("--edits", type=int, default=10)
parser.add_argument("--familytree", default=os.path.join(os.path.dirname(__file__), "../../.build-release/release/familytree"))
arguments = parser.parse_args()
binary = os.path.abspath(arguments.familytree)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cli(home, args, stdin=""):
    return subprocess.run([binary] + args, input=stdin, text=True, capture_output=True, check=True,
                          env={**os.environ, "FAMILYTREE_HOME": home}).stdout


def resident_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024


with tempfile.TemporaryDirectory() as folder:
    port, home = free_port(), os.path.join(folder, "home-admin")
    store = "sqlite:" + os.path.join(folder, "store.sqlite")
    server = subprocess.Popen([binary, "serve", "--store", store, "--port", str(port), "--bcrypt-cost", "4", "--admin", "admin"],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
                              env={**os.environ, "FAMILYTREE_HOME": home})
    server.stdin.write("the admin's password\n")
    server.stdin.close()
    address = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(address + "/healthz").read()
            break
        except OSError:
            time.sleep(0.1)
    try:
        user, password, user_home = "t", "the user's password", os.path.join(folder, "home-t")
        cli(home, ["serve", "add-user", user, "--store", store], password + "\n")
        cli(user_home, ["login", address, "--user", user], password + "\n")
        tree = os.path.join(folder, "tree.json")
        cli(user_home, ["generate", "--members", str(arguments.members), "--seed", "1", "-o", tree])
        cli(user_home, ["sync", "push", tree, "--store", address, "--new-tree"])
        token = json.load(open(os.path.join(user_home, "credentials.json")))[address]["token"]

        def call(method, path, body=None):
            request = urllib.request.Request(address + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                             headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
            return json.loads(urllib.request.urlopen(request, timeout=600).read())

        print(f"{arguments.members:,} members; pushed: {resident_mb(server.pid)} MB")
        first = call("GET", f"/trees/{user}/chart.json")
        print(f"whole chart made: {resident_mb(server.pid)} MB")
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
            print(f"edit {number}: save {1000 * saves[-1]:.0f} ms, patch {1000 * patches[-1]:.0f} ms, {resident_mb(server.pid)} MB")
        median = lambda values: sorted(values)[len(values) // 2]
        print(f"median: save {1000 * median(saves):.0f} ms, patch {1000 * median(patches):.0f} ms")
    finally:
        server.terminate()
        server.wait()
