"""Headless Chromium for the browser checks (Debian's chromium and chromium-driver, Python's Selenium)."""
import time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def start(width=1200, height=800, logs=True):
    """A new headless browser with a window of `width` × `height`; with `logs`, the console and
    the network are recorded (`driver.get_log("browser")`, `driver.get_log("performance")`)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}"]:
        options.add_argument(flag)
    if logs:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    if width < 500:
        # Headless Chromium keeps a window at least 500 px wide: a phone's width is emulated.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    return driver


def wait_for(driver, script, timeout=30):
    """The first truthy value `script` returns within `timeout` seconds, or None."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.05)
    return None


def record(driver, seen):
    """Console errors and every request the page made, from Chromium's logs, into `seen`. A refusal
    the page expects (a 401 before signing in, a 409 conflict, a viewer's 403) is logged as a failed
    load; everything else severe (a policy violation, a script error) counts."""
    import json
    seen["consoleErrors"] += [entry["message"] for entry in driver.get_log("browser")
                              if entry["level"] == "SEVERE" and "the server responded with a status of 4" not in entry["message"]]
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            seen["requests"].append(message["params"]["request"]["url"])
