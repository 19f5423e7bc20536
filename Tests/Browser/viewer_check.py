#!/usr/bin/env python3
"""Drives an HTML chart in headless Chromium (Debian's chromium and chromium-driver, Python's
Selenium) and prints what it saw as JSON, for the Swift test to judge.

    viewer_check.py PAGE.html [--search TEXT] [--child-of TEXT] [--open-id ID] [--screenshot PNG]

Every check runs on the page as a person would use it: typing in the search box, pressing keys,
the mouse wheel at a point, clicking a link in the card, the browser's back button."""
import argparse, json, sys
import chromium
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

parser = argparse.ArgumentParser()
parser.add_argument("page")
parser.add_argument("--search", default="")
parser.add_argument("--child-of", default="")
parser.add_argument("--open-id", default="")
parser.add_argument("--screenshot", default="")
parser.add_argument("--walk-down", type=int, default=0, help="after the search, Alt+Down this many times")
arguments = parser.parse_args()

driver = chromium.start(1200, 800)
url = "file://" + arguments.page
seen = {}

def wait_for(script, timeout=30):
    return chromium.wait_for(driver, script, timeout)

def viewer(expression):
    return driver.execute_script("return window.familyTreeViewer." + expression)

def settle():
    # Two animation frames: the last change is drawn.
    driver.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done));")

try:
    driver.get(url)
    seen["loaded"] = bool(wait_for("return window.familyTreeViewer && window.familyTreeViewer.firstFrameAt !== null"))
    settle()
    # Not blank: the canvas shows many colours.
    seen["distinctColours"] = driver.execute_script("""
        const canvas = document.getElementById('chart');
        const copy = document.createElement('canvas'); copy.width = 200; copy.height = 130;
        copy.getContext('2d').drawImage(canvas, 0, 0, 200, 130);
        const pixels = copy.getContext('2d').getImageData(0, 0, 200, 130).data, colours = new Set();
        for (let i = 0; i < pixels.length; i += 4) { colours.add(pixels[i] << 16 | pixels[i + 1] << 8 | pixels[i + 2]); }
        return colours.size;""")
    if arguments.screenshot:
        driver.save_screenshot(arguments.screenshot)

    # Wheel zoom about the pointer: the world point under it stays put.
    before_scale = viewer("scale")
    before_point = viewer("worldPoint(400, 300)")
    ActionChains(driver).scroll_from_origin(ScrollOrigin.from_viewport(400, 300), 0, -300).perform()
    settle()
    after_point = viewer("worldPoint(400, 300)")
    seen["wheel"] = {"scaleBefore": before_scale, "scaleAfter": viewer("scale"),
                     "pointMoved": abs(after_point["x"] - before_point["x"]) + abs(after_point["y"] - before_point["y"])}

    # Keyboard pan, from the focused chart.
    canvas = driver.find_element(By.ID, "chart")
    driver.execute_script("arguments[0].focus()", canvas)
    origin = viewer("origin")
    canvas.send_keys(Keys.ARROW_RIGHT)
    canvas.send_keys(Keys.ARROW_DOWN)
    settle()
    moved = viewer("origin")
    seen["keyboardPan"] = {"dx": moved["x"] - origin["x"], "dy": moved["y"] - origin["y"]}
    zoom_before = viewer("scale")
    canvas.send_keys("+")
    seen["plusKeyZooms"] = viewer("scale") > zoom_before

    # Search: accents and case folded, results as a list, Enter selects.
    if arguments.search:
        box = driver.find_element(By.ID, "search")
        box.click()
        box.send_keys(arguments.search)
        results = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#results li")]
        box.send_keys(Keys.ENTER)
        settle()
        card = driver.find_element(By.ID, "card")
        seen["search"] = {"results": results, "selected": viewer("selected"), "hash": driver.execute_script("return location.hash"),
                          "cardVisible": card.is_displayed(), "cardName": driver.find_element(By.ID, "card-name").text}
        # Down the generations by keyboard from the person found.
        walk = []
        driver.execute_script("arguments[0].focus()", canvas)
        for _ in range(arguments.walk_down):
            ActionChains(driver).key_down(Keys.ALT).send_keys(Keys.ARROW_DOWN).key_up(Keys.ALT).perform()
            settle()
            walk.append({"selected": viewer("selected"), "card": driver.find_element(By.ID, "card-name").text})
        seen["walk"] = walk

    # The card's child links move there; the back button comes back.
    if arguments.child_of:
        box = driver.find_element(By.ID, "search")
        box.clear()
        box.send_keys(arguments.child_of)
        box.send_keys(Keys.ENTER)
        settle()
        parent = viewer("selected")
        rows = driver.find_elements(By.CSS_SELECTOR, "#card dt")
        children_row = [row for row in rows if row.text == "Children"]
        links = children_row[0].find_elements(By.XPATH, "following-sibling::dd[1]//a") if children_row else []
        child_name = links[0].text if links else None
        if links:
            links[0].click()
            settle()
        child = viewer("selected")
        child_card = driver.find_element(By.ID, "card-name").text
        driver.back()
        settle()
        wait_for("return window.familyTreeViewer.selected === %s" % json.dumps(parent), timeout=5)
        seen["childLink"] = {"parent": parent, "childName": child_name, "child": child, "childCard": child_card,
                             "afterBack": viewer("selected")}
        # Alt+Down from the parent walks to a child by keyboard.
        driver.execute_script("arguments[0].focus()", canvas)
        ActionChains(driver).key_down(Keys.ALT).send_keys(Keys.ARROW_DOWN).key_up(Keys.ALT).perform()
        settle()
        seen["altDown"] = viewer("selected")

    # #member-id opens on that person.
    if arguments.open_id:
        driver.get(url + "#" + arguments.open_id)
        wait_for("return window.familyTreeViewer && window.familyTreeViewer.firstFrameAt !== null")
        seen["openedOn"] = viewer("selected")

    seen["injected"] = driver.execute_script("return window.pwned === undefined ? null : window.pwned")
    seen["consoleErrors"] = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    requests = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            requests.append(message["params"]["request"]["url"])
    seen["networkRequests"] = [request for request in requests if not request.startswith(("file:", "data:", "blob:"))]
    seen["resourceEntries"] = driver.execute_script("return performance.getEntriesByType('resource').map(entry => entry.name)")
finally:
    driver.quit()

json.dump(seen, sys.stdout)
