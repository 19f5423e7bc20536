#!/usr/bin/env python3
"""`familytree contacts pull` against a real CardDAV server, side by side with vdirsyncer.

    swift build -c release --product familytree
    python3 Benchmarks/CardDAVBenchmark/carddav_benchmark.py [--cards 5000] [--rounds 3]

Starts a throwaway Radicale on 127.0.0.1 (scripts/carddav-start; Debian's radicale and vdirsyncer),
fills an address book with generated cards (families whose related names link them, a birthday on
each, one in ten without a year, one in five with a small photo), then, each round on a fresh
address book:

- first pull: everything read (familytree: the cards merged into a new tree.json; vdirsyncer: the
  cards written to a folder, one file each);
- incremental: 10 cards changed and 1 deleted on the server, then pulled again;
- unchanged: pulled once more with nothing changed.

Each is the wall time of the whole process, peak memory from the kernel's rusage. The cards are
written straight into the server's storage (Radicale reads them as if uploaded), so setting up
5,000 cards takes no minutes of PUTs; an untimed listing and sync report then warm Radicale's cache (it parses
each card file on first read, which a hosted service does not make a client wait for), and both
tools read them through the same server.
"""
import argparse, os, random, resource, shutil, subprocess, sys, tempfile, time, urllib.request, base64, uuid

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))
parser = argparse.ArgumentParser()
parser.add_argument("--cards", type=int, default=5000)
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--familytree", default=os.path.join(root, ".build/release/familytree"))
arguments = parser.parse_args()

FIRST = ["Ada", "Ben", "Chloé", "Dmitri", "Emeka", "Fatima", "Greta", "Hiro", "Ines", "Jonas", "Kwame", "Lena",
         "Mei", "Nikolai", "Olu", "Priya", "Quentin", "Rosa", "Sven", "Tomás", "Uma", "Viktor", "Wen", "Yara", "Zoë"]
LAST = ["Okafor", "Müller", "Carter", "Ó Briain", "Nakamura", "Mensah", "Ivanova", "García", "Rossi", "Dubois"]
# A tiny JPEG-sized blob: photos make real cards several times larger than their text.
PHOTO = base64.b64encode(bytes(random.Random(7).getrandbits(8) for _ in range(3000))).decode()


def fold(line):
    out, width = [], 0
    for character in line:
        size = len(character.encode())
        if width + size > 75:
            out.append("\r\n ")
            width = 1
        out.append(character)
        width += size
    return "".join(out) + "\r\n"


def generate(count, seed):
    """Cards in families of a couple and up to four children, related names both ways (Apple's form)."""
    rng = random.Random(seed)
    cards, index = {}, 0
    while index < count:
        family = rng.choice(LAST) + ("" if rng.random() < 0.5 else f" {index}")
        size = min(count - index, 2 + rng.randint(0, 4))
        people = []
        for position in range(size):
            first = rng.choice(FIRST) + ("" if rng.random() < 0.3 else f" {index}")
            year = rng.randint(1930, 1975) if position < 2 else rng.randint(1976, 2020)
            people.append((str(uuid.UUID(int=rng.getrandbits(128))).upper(), first, family, year, rng.randint(1, 12), rng.randint(1, 28)))
            index += 1
        for position, (uid, first, last, year, month, day) in enumerate(people):
            lines = ["BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Apple Inc.//iPhone OS 17.0//EN", f"N:{last};{first};;;", f"FN:{first} {last}"]
            if rng.random() < 0.1:
                lines.append(f"BDAY;X-APPLE-OMIT-YEAR=1604:1604-{month:02d}-{day:02d}")
            else:
                lines.append(f"BDAY:{year}-{month:02d}-{day:02d}")
            lines.append(f"item1.TEL;type=CELL;type=VOICE;type=pref:+44 7700 {rng.randint(100000, 999999)}")
            lines.append("item1.X-ABLabel:_$!<Mobile>!$_")
            lines.append(f"EMAIL;type=INTERNET;type=HOME:{first.split()[0].lower()}.{index}@example.org")
            group = 2
            relations = []
            if position < 2 and len(people) > 1:
                relations.append((people[1 - position], "Spouse"))
            if position < 2:
                relations += [(child, "Child") for child in people[2:]]
            else:
                relations += [(parent, "Mother" if k == 0 else "Father") for k, parent in enumerate(people[:2])]
            for other, label in relations:
                lines.append(f"item{group}.X-ABRELATEDNAMES:{other[1]} {other[2]}")
                lines.append(f"item{group}.X-ABLabel:_$!<{label}>!$_")
                group += 1
            if rng.random() < 0.2:
                lines.append("PHOTO;ENCODING=b;TYPE=JPEG:" + PHOTO)
            lines += [f"UID:{uid}", f"REV:2024-01-01T00:00:{position:02d}Z", "END:VCARD"]
            cards[uid] = "".join(fold(line) for line in lines)
    return cards


def run(command, environment=None):
    """Wall time and peak memory (MB) of one child process, and its last line on stderr; exits on failure."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, env=environment, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if process.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({process.returncode}):\n{stdout}\n{stderr}")
    return elapsed, usage.ru_maxrss / 1024, stderr.strip().splitlines()[-1:] or [""]


def request(method, url, password, body=None, depth=None):
    req = urllib.request.Request(url, method=method, data=body.encode() if body else None)
    if depth:
        req.add_header("Depth", depth)
    req.add_header("Authorization", "Basic " + base64.b64encode(f"alice:{password}".encode()).decode())
    if body:
        req.add_header("Content-Type", "application/xml" if method in ("PROPFIND", "REPORT") else "text/vcard")
    with urllib.request.urlopen(req) as response:
        response.read()
        return response.status


def main():
    if not os.access(arguments.familytree, os.X_OK):
        sys.exit(f"build it first: swift build -c release --product familytree ({arguments.familytree})")
    if not shutil.which("vdirsyncer"):
        sys.exit("vdirsyncer is not installed (apt-get install vdirsyncer)")
    lines = subprocess.run(["bash", os.path.join(root, "scripts/carddav-start")], capture_output=True, text=True, check=True).stdout
    server = dict(line.removeprefix("export ").split("=", 1) for line in lines.splitlines())
    server = {key: value.strip("'") for key, value in server.items()}
    url, password = server["FAMILYTREE_CARDDAV_URL"], server["FAMILYTREE_CARDDAV_PASSWORD"]
    storage = None
    for word in server["FAMILYTREE_CARDDAV_STOP"].split():
        if word.isdigit():
            storage = next(d for d in (os.path.join("/tmp", n) for n in os.listdir("/tmp") if n.startswith("familytree-carddav."))
                           if open(os.path.join(d, "pid")).read().strip() == word)
    environment = dict(os.environ, FAMILYTREE_CARDDAV_PASSWORD=password)
    results = {"familytree": {}, "vdirsyncer": {}}
    try:
        for round_number in range(arguments.rounds):
            cards = generate(arguments.cards, seed=round_number + 1)
            for tool in ("familytree", "vdirsyncer"):
                book = f"{tool}-{round_number}"
                folder = os.path.join(storage, "collections/collection-root/alice", book)
                os.makedirs(folder)
                with open(os.path.join(folder, ".Radicale.props"), "w") as props:
                    props.write('{"tag": "VADDRESSBOOK"}')
                for uid, text in cards.items():
                    with open(os.path.join(folder, uid + ".vcf"), "w", newline="") as card:
                        card.write(text)
                book_url = f"{url}/alice/{book}/"
                # Radicale parses each card file on its first read and caches it; a service like
                # iCloud has no such cold start, so an untimed listing and sync report warm it for both tools.
                request("PROPFIND", book_url, password, '<propfind xmlns="DAV:"><prop><getetag/></prop></propfind>', depth="1")
                request("REPORT", book_url, password, '<sync-collection xmlns="DAV:"><sync-token/><sync-level>1</sync-level><prop><getetag/></prop></sync-collection>', depth="1")
                scratch = tempfile.mkdtemp(prefix="carddav-bench-")
                if tool == "familytree":
                    tree = os.path.join(scratch, "family.json")
                    pull = lambda: run([arguments.familytree, "contacts", "pull", book_url, "--user", "alice", "--into", tree], environment)
                else:
                    config = os.path.join(scratch, "config")
                    os.makedirs(os.path.join(scratch, "cards"))
                    with open(config, "w") as file:
                        file.write(f"""[general]\nstatus_path = "{scratch}/status/"\n
[pair family]\na = "server"\nb = "local"\ncollections = null\nconflict_resolution = "a wins"\n
[storage server]\ntype = "carddav"\nurl = "{book_url}"\nusername = "alice"\npassword = "{password}"\n
[storage local]\ntype = "filesystem"\npath = "{scratch}/cards/"\nfileext = ".vcf"\n""")
                    # Not timed: vdirsyncer asks the server which collections there are before its first sync.
                    subprocess.run(["vdirsyncer", "-c", config, "discover", "family"], input="y\n" * 4, capture_output=True, text=True, check=True)
                    pull = lambda: run(["vdirsyncer", "-c", config, "sync"], environment)
                first = pull()
                uids = sorted(cards)
                rng = random.Random(round_number)
                for uid in rng.sample(uids, 10):
                    request("PUT", book_url + uid + ".vcf", password, cards[uid].replace("REV:2024", "REV:2025").replace("END:VCARD", "NOTE:changed\r\nEND:VCARD"))
                request("DELETE", book_url + uids[0] + ".vcf", password)
                incremental = pull()
                unchanged = pull()
                for name, value in (("first", first), ("incremental", incremental), ("unchanged", unchanged)):
                    results[tool].setdefault(name, []).append(value)
                print(f"round {round_number + 1} {tool}: first {first[0]:.2f} s, incremental {incremental[0]:.3f} s, unchanged {unchanged[0]:.3f} s"
                      + (f"  [{incremental[2][0]}]" if tool == "familytree" else ""), flush=True)
                shutil.rmtree(scratch)
    finally:
        subprocess.run(server["FAMILYTREE_CARDDAV_STOP"].split())
        shutil.rmtree(storage, ignore_errors=True)

    print(f"\n{arguments.cards:,} cards, {arguments.rounds} rounds, medians (wall time of the whole process; peak memory where measured)\n")
    print("| pull | familytree | vdirsyncer | ratio |")
    print("|---|---:|---:|---:|")
    for name in ("first", "incremental", "unchanged"):
        ours = sorted(value[0] for value in results["familytree"][name])
        theirs = sorted(value[0] for value in results["vdirsyncer"][name])
        middle = len(ours) // 2
        print(f"| {name} | {ours[middle]:.3f} s | {theirs[middle]:.3f} s | {ours[middle] / theirs[middle]:.2f} |")
    for tool in ("familytree", "vdirsyncer"):
        print(f"\n{tool}'s first pull, peak memory: {max(value[1] for value in results[tool]['first']):.0f} MB", end="")
    print()


main()
