#!/usr/bin/env python3
"""The HTML chart in headless Chromium: file size per member, time to the first drawn frame, and
the viewer's frame times over a scripted five seconds of panning and zooming.

    swift build -c release --product familytree
    python3 Benchmarks/ViewerBenchmark/viewer_benchmark.py [--sizes 1000,10000,100000] [--familytree .build/release/familytree]

Each size: a generated tree (seed 1) rendered to HTML by the real command, opened from file:// in
a fresh browser. "First frame" is from the start of navigation to the end of the first frame the
viewer drew. A frame's time is the interval between animation frames (the browser's whole work
for a frame, drawing and rasterising included; headless Chromium paces frames at 60 Hz, so 16.7 ms
is the floor), measured while a script pans and zooms in and out on every frame for five seconds: from the opening view, close in, then far out past the point
where the overview bitmap takes over."""
import argparse, json, os, subprocess, tempfile, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

parser = argparse.ArgumentParser()
parser.add_argument("--sizes", default="1000,10000,100000")
parser.add_argument("--familytree", default=os.path.join(os.path.dirname(__file__), "../../.build/release/familytree"))
arguments = parser.parse_args()

from motion import MOTION as SCRIPTED_MOTION, percentile

def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800"]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)

print("| members | HTML size | bytes per member | first frame | frames in 5 s | frame p50 | frame p95 | frame max |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|")
with tempfile.TemporaryDirectory() as folder:
    for members in [int(size) for size in arguments.sizes.split(",") if size]:
        tree, page = os.path.join(folder, "tree.json"), os.path.join(folder, "tree.html")
        subprocess.run([arguments.familytree, "generate", "--members", str(members), "--seed", "1", "-o", tree], check=True)
        subprocess.run([arguments.familytree, "render", tree, "-o", page], check=True)
        size = os.path.getsize(page)
        driver = browser()
        try:
            driver.set_script_timeout(60)
            driver.get("file://" + page)
            deadline = time.time() + 60
            while time.time() < deadline and not driver.execute_script("return window.familyTreeViewer && window.familyTreeViewer.firstFrameAt !== null"):
                time.sleep(0.02)
            # performance.now() counts from the start of navigation.
            first = driver.execute_script("return window.familyTreeViewer.firstFrameAt")
            frames = driver.execute_async_script(SCRIPTED_MOTION)
        finally:
            driver.quit()
        print(f"| {members:,} | {size / 1e6:.1f} MB | {size / members:.0f} | {first / 1000:.2f} s | {len(frames)} | "
              f"{percentile(frames, 0.5):.1f} ms | {percentile(frames, 0.95):.1f} ms | {max(frames):.1f} ms |", flush=True)
