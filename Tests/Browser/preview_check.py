#!/usr/bin/env python3
"""A large tree the server has not laid out yet, opened in headless Chromium: the page first draws
the people nearest where it opens, then the whole tree, keeping the person it opened on where it
was on screen. What the page showed is printed as JSON for the Swift test to judge.

    preview_check.py SERVER USER PASSWORD TREE [--screenshots FOLDER]"""
import argparse, json, os
import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

parser = argparse.ArgumentParser()
parser.add_argument("server")
parser.add_argument("user")
parser.add_argument("password")
parser.add_argument("tree")
parser.add_argument("--screenshots", default="")
arguments = parser.parse_args()
seen = {"requests": [], "consoleErrors": []}

# Run in every page before its own scripts: notes the first picture (who it starts on, where that
# box is, what the status line says) in the frame after the viewer's first, and holds the page's
# request for the whole chart until then, so a quick layout cannot draw over it unseen.
FIRST_PICTURE = """
(function () {
  let noted;
  const firstPictureNoted = new Promise(resolve => { noted = resolve; });
  const fetchNow = window.fetch.bind(window);
  window.fetch = (address, options) => String(address).includes("/chart.json")
    ? firstPictureNoted.then(() => fetchNow(address, options)) : fetchNow(address, options);
  (function watch() {
    const viewer = window.familyTreeViewer;
    if (!viewer || viewer.firstFrameAt === null) { requestAnimationFrame(watch); return; }
    const data = JSON.parse(document.getElementById("family-tree-data").textContent);
    const status = document.getElementById("live-status");
    window.firstPicture = {
      preview: document.body.dataset.preview === "true", people: data.m.length, start: viewer.start,
      box: viewer.start ? viewer.boxOf(viewer.start) : null, status: status && !status.hidden ? status.textContent : "",
      whole: document.body.dataset.whole === "true",
    };
    noted();
  })();
})();
"""

driver = chromium.start(1400, 900)
try:
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FIRST_PICTURE})
    driver.get(arguments.server + "/")
    chromium.wait_for(driver, "const e = document.getElementById('signin'); return e && !e.hidden")
    driver.find_element(By.ID, "signin-user").send_keys(arguments.user)
    driver.find_element(By.ID, "signin-password").send_keys(arguments.password + Keys.ENTER)
    chromium.wait_for(driver, "return document.querySelectorAll('#tree-list a.tree').length > 0")
    driver.get(arguments.server + "/trees/" + arguments.tree)
    seen["first"] = chromium.wait_for(driver, "return window.firstPicture", 60)
    if arguments.screenshots:
        driver.save_screenshot(os.path.join(arguments.screenshots, "preview-1400.png"))
    seen["whole"] = bool(chromium.wait_for(driver, "return document.body.dataset.whole === 'true'", 60))
    if arguments.screenshots:
        driver.save_screenshot(os.path.join(arguments.screenshots, "whole-1400.png"))
    start = seen["first"]["start"] if seen["first"] else None
    seen["boxAfter"] = driver.execute_script("return window.familyTreeViewer.boxOf(arguments[0])", start) if start else None
    seen["statusAfter"] = driver.execute_script("const s = document.getElementById('live-status'); return s.hidden ? '' : s.textContent")
    # Everyone the server's whole chart holds is on the page now.
    seen["wholePeople"], seen["missing"] = driver.execute_async_script("""
        const tree = arguments[0], done = arguments[1];
        fetch("/trees/" + encodeURIComponent(tree) + "/chart.json", { credentials: "same-origin" })
          .then(answer => answer.json())
          .then(answer => {
            const ids = answer.data.m.map(m => m[0]);
            done([ids.length, ids.filter(id => !window.familyTreeViewer.person(id)).length]);
          })
          .catch(error => done([0, -1]));
    """, arguments.tree)
    chromium.record(driver, seen)
finally:
    driver.quit()
print(json.dumps(seen))
