"""A release `familytree serve` on the embedded store in a scratch folder, for the web benchmarks:
started with an admin, and users added with a generated tree pushed by the CLI."""
import json, os, socket, subprocess, time, urllib.request


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ScratchServer:
    def __init__(self, binary, folder, log=subprocess.DEVNULL):
        self.binary, self.folder = binary, folder
        self.home = os.path.join(folder, "home-admin")
        self.store = "sqlite:" + os.path.join(folder, "store.sqlite")
        port = free_port()
        self.address = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen([binary, "serve", "--store", self.store, "--port", str(port), "--bcrypt-cost", "4", "--admin", "admin"],
                                        stdin=subprocess.PIPE, stdout=log, stderr=log, text=True, env={**os.environ, "FAMILYTREE_HOME": self.home})
        self.process.stdin.write("the admin's password\n")
        self.process.stdin.close()
        for _ in range(300):
            try:
                urllib.request.urlopen(self.address + "/healthz").read()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"the server at {self.address} did not answer")

    def cli(self, home, args, stdin=""):
        return subprocess.run([self.binary] + args, input=stdin, text=True, capture_output=True, check=True,
                              env={**os.environ, "FAMILYTREE_HOME": home}).stdout

    def user_with_tree(self, user, password, members):
        """Adds `user`, signs them in with the CLI and pushes a generated tree of `members` (seed 1)
        as their own; returns their personal access token."""
        home = os.path.join(self.folder, "home-" + user)
        self.cli(self.home, ["serve", "add-user", user, "--store", self.store], password + "\n")
        self.cli(home, ["login", self.address, "--user", user], password + "\n")
        tree = os.path.join(self.folder, f"tree-{user}.json")
        self.cli(home, ["generate", "--members", str(members), "--seed", "1", "-o", tree])
        self.cli(home, ["sync", "push", tree, "--store", self.address, "--new-tree"])
        # credentials.json: {server address: {"token": …, "tokenID": …, "user": …}}
        return json.load(open(os.path.join(home, "credentials.json")))[self.address]["token"]

    def stop(self):
        self.process.terminate()
        self.process.wait(30)
