#!/usr/bin/env python3
"""The family's tree in the browser, served by `familytree serve`: opening a tree, panning it, and
an edit's round trip while many pages listen.

    swift build -c release --traits Server --scratch-path .build-release --product familytree
    python3 Benchmarks/WebBenchmark/web_benchmark.py [--sizes 1000,10000,100000] [--listeners 200] [--edits 30]
        [--familytree .build-release/release/familytree]

One server on the embedded store in a scratch folder; for each size a user with a generated tree
(seed 1) pushed by the CLI. In headless Chromium, signed in:
- open: the chart page from the start of navigation to the end of the viewer's first frame, the
  first time (the server lays the tree out; a large tree's page first draws the people nearest where
  it opens, and then the whole tree: both are timed) and again (the layout is kept per version of
  the tree), with the bytes the page and its files took on the wire (the first open's whole tree
  included);
- after an edit: another relative adds a child (a change that moves boxes, so the tree is laid out
  again); the page opened right after, its first frame (the tree as it was, when the new layout
  takes longer than the server waits) and the time until the new child is drawn;
- pan: frame intervals over five seconds of panning and zooming (16.7 ms is the floor);
- round trip: LISTENERS scripted clients hold the tree's change stream (server-sent events) while
  EDITS edits are saved one after another over HTTP, as the page's own script saves them; for each,
  the time until the other browser has drawn the changed tree, and until each scripted client has
  heard of it."""
import argparse, json, os, socket, tempfile, threading, time, urllib.request
from urllib.parse import urlparse
import sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../Tests/Browser"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../ViewerBenchmark"))
import chromium
from scratch_server import ScratchServer
from motion import MOTION, percentile
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

parser = argparse.ArgumentParser()
parser.add_argument("--sizes", default="1000,10000,100000")
parser.add_argument("--listeners", type=int, default=200)
parser.add_argument("--edits", type=int, default=30)
parser.add_argument("--familytree", default=os.path.join(os.path.dirname(__file__), "../../.build-release/release/familytree"))
arguments = parser.parse_args()
binary = os.path.abspath(arguments.familytree)

# The bytes the page and its files took on the wire (0 for what came from the cache).
TRANSFERRED = """
return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
  .reduce((sum, entry) => sum + (entry.transferSize || 0), 0);
"""


# When a page that opened on a preview has drawn the whole tree: the frame after the page marks it
# loaded (`data-whole`) is drawn by the next animation frame.
WHOLE = """
const done = arguments[0];
const drawn = () => requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now())));
if (document.body.dataset.whole === "true") { drawn(); return; }
new MutationObserver((records, observer) => {
  if (document.body.dataset.whole === "true") { observer.disconnect(); drawn(); }
}).observe(document.body, { attributes: true, attributeFilter: ["data-whole"] });
"""


class Listener(threading.Thread):
    """A scripted client on the change stream, noting when each change's event arrived."""
    def __init__(self, address, tree, token):
        super().__init__(daemon=True)
        self.heard, self.ready = {}, threading.Event()
        url = urlparse(address)
        self.connection = socket.create_connection((url.hostname, url.port))
        self.connection.sendall((f"GET /trees/{tree}/events HTTP/1.1\r\nHost: {url.netloc}\r\nAuthorization: Bearer {token}\r\n"
                                 "Accept: text/event-stream\r\n\r\n").encode())

    def run(self):
        buffer = b""
        while True:
            try:
                chunk = self.connection.recv(65536)
            except OSError:
                return  # closed when the round ended
            if not chunk:
                return
            now = time.perf_counter()
            buffer += chunk
            if b"retry:" in buffer:
                self.ready.set()
            for line in buffer.split(b"\n"):
                if line.startswith(b"id: "):
                    self.heard.setdefault(int(line[4:].strip()), now)
            buffer = buffer[buffer.rfind(b"\n") + 1:]


def sign_in(driver, address, user, password):
    driver.get(address + "/")
    chromium.wait_for(driver, "const e = document.getElementById('signin'); return e && !e.hidden")
    driver.find_element(By.ID, "signin-user").send_keys(user)
    driver.find_element(By.ID, "signin-password").send_keys(password + Keys.ENTER)
    chromium.wait_for(driver, "return document.querySelectorAll('#tree-list a.tree').length > 0")


def open_chart(driver, address, tree):
    """The first frame (a large tree not laid out yet: the people nearest where the page opens),
    the whole tree drawn, in seconds from the start of navigation; and the bytes on the wire."""
    driver.get(address + "/trees/" + tree)
    chromium.wait_for(driver, "return window.familyTreeViewer && window.familyTreeViewer.firstFrameAt !== null", 120)
    # performance.now() counts from the start of navigation.
    first = driver.execute_script("return window.familyTreeViewer.firstFrameAt") / 1000
    whole = driver.execute_async_script(WHOLE) / 1000 if driver.execute_script("return document.body.dataset.preview === 'true'") else first
    return first, whole, driver.execute_script(TRANSFERRED)


with tempfile.TemporaryDirectory() as folder:
    log = open(os.environ.get("WEB_BENCHMARK_SERVER_LOG", os.path.join(folder, "server.log")), "w")
    server = ScratchServer(binary, folder, log)
    address = server.address
    opened, rounds = [], []
    try:
        for members in [int(size) for size in arguments.sizes.split(",") if size]:
            user, password = f"t{members}", "the user's password"
            token = server.user_with_tree(user, password, members)

            driver = chromium.start(1280, 800)
            driver.set_script_timeout(120)
            try:
                sign_in(driver, address, user, password)
                cold, cold_whole, cold_bytes = open_chart(driver, address, user)
                warm, _, warm_bytes = open_chart(driver, address, user)
                frames = driver.execute_async_script(MOTION)

                # Another relative adds a child; the page is opened right after.
                parent = driver.execute_script("return JSON.parse(document.getElementById('family-tree-data').textContent).m[0][0]")
                body = json.dumps({"edits": [{"op": "addChild", "member": parent, "fields": {"firstName": "Benchmark"}}]}).encode()
                request = urllib.request.Request(address + f"/trees/{user}/edits", data=body, method="POST",
                                                 headers={"Content-Type": "application/json", "Authorization": "Bearer " + token})
                added = json.load(urllib.request.urlopen(request))["sequence"]
                after_edit, _, _ = open_chart(driver, address, user)
                chromium.wait_for(driver, f"const d = document.body.dataset; return Math.max(Number(d.shown || 0), Number(d.sequence || 0)) >= {added}", 120)
                edit_drawn = driver.execute_script("return performance.now()") / 1000
                opened.append((members, cold, cold_whole, warm, cold_bytes, warm_bytes, frames, after_edit, edit_drawn))
                print(f"opened {members:,}: cold {cold:.2f} s (whole {cold_whole:.2f} s), again {warm:.2f} s, {cold_bytes / 1e6:.1f} MB; "
                      f"after an edit {after_edit:.2f} s, the edit drawn at {edit_drawn:.2f} s", file=sys.stderr, flush=True)

                if members > 10_000:
                    continue
                # The round trip: the page above listens, and so do the scripted clients.
                listeners = [Listener(address, user, token) for _ in range(arguments.listeners)]
                for listener in listeners:
                    listener.start()
                for listener in listeners:
                    listener.ready.wait(30)
                member = driver.execute_script("return JSON.parse(document.getElementById('family-tree-data').textContent).m[0][0]")
                drawn, heard = [], []
                for number in range(arguments.edits):
                    body = json.dumps({"edits": [{"op": "edit", "member": member, "fields": {"notes": f"Edit {number}"}}]}).encode()
                    request = urllib.request.Request(address + f"/trees/{user}/edits", data=body, method="POST",
                                                     headers={"Content-Type": "application/json", "Authorization": "Bearer " + token})
                    start = time.perf_counter()
                    sequence = json.load(urllib.request.urlopen(request))["sequence"]
                    while int(driver.execute_script("return document.body.dataset.shown || 0")) < sequence:
                        if time.perf_counter() - start > 30:
                            shown = driver.execute_script("return document.body.dataset.shown || document.body.dataset.sequence")
                            raise SystemExit(f"edit {number} (sequence {sequence}) was not drawn within 30 s; the page shows {shown}; "
                                             f"its console: {driver.get_log('browser')[-5:]}")
                    drawn.append(time.perf_counter() - start)
                    deadline = time.perf_counter() + 10
                    while time.perf_counter() < deadline and not all(sequence in listener.heard for listener in listeners):
                        time.sleep(0.002)
                    heard += [listener.heard[sequence] - start for listener in listeners if sequence in listener.heard]
                    missed = sum(1 for listener in listeners if sequence not in listener.heard)
                    if missed:
                        print(f"edit {number}: {missed} listeners did not hear it", file=sys.stderr)
                rounds.append((members, len(listeners), arguments.edits, drawn, heard))
                for listener in listeners:
                    listener.connection.close()
            finally:
                driver.quit()
    finally:
        server.stop()

    print("| members | first frame, first open | whole tree drawn | again | after a relative's edit | the edit drawn | on the wire | frame p50 | frame p95 | frame max |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for members, cold, cold_whole, warm, cold_bytes, warm_bytes, frames, after_edit, edit_drawn in opened:
        print(f"| {members:,} | {cold:.2f} s | {cold_whole:.2f} s | {warm:.2f} s | {after_edit:.2f} s | {edit_drawn:.2f} s | {cold_bytes / 1e6:.1f} MB | "
              f"{percentile(frames, 0.5):.1f} ms | {percentile(frames, 0.95):.1f} ms | {max(frames):.1f} ms |")
    print()
    print("| members | listeners | edits | drawn in the other browser p50 | p95 | heard by every listener p50 | p95 |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for members, listeners, edits, drawn, heard in rounds:
        print(f"| {members:,} | {listeners} | {edits} | {percentile(drawn, 0.5) * 1000:.0f} ms | {percentile(drawn, 0.95) * 1000:.0f} ms | "
              f"{percentile(heard, 0.5) * 1000:.0f} ms | {percentile(heard, 0.95) * 1000:.0f} ms |")
