#!/usr/bin/env python3
"""Uses the server's pages in headless Chromium as a relative would, and prints what it saw as
JSON for the Swift test to judge.

    web_app_check.py SERVER USER PASSWORD INVITE_LINK NEW_USER SEARCH [--screenshots FOLDER]

Signs in as USER, lists the trees, opens the first, searches it for SEARCH, signs out; then, in a
fresh browser, accepts INVITE_LINK as NEW_USER. Every request the pages make is recorded (none may
leave SERVER), and so are console errors (a Content-Security-Policy violation is one)."""
import argparse, json, os
from urllib.parse import urlparse
import chromium
from accessibility import serious_violations
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

parser = argparse.ArgumentParser()
for name in ["server", "user", "password", "invite", "new_user", "search"]:
    parser.add_argument(name)
parser.add_argument("--screenshots", default="")
arguments = parser.parse_args()
origin = urlparse(arguments.server)
seen = {"requests": [], "consoleErrors": [], "accessibility": []}


def browser(width):
    return chromium.start(width, 900)


def wait_for(driver, script, timeout=20):
    return chromium.wait_for(driver, script, timeout)


def visible(driver, id):
    return wait_for(driver, f"const e = document.getElementById({json.dumps(id)}); return e && !e.hidden && e.offsetParent !== null")


def record(driver):
    chromium.record(driver, seen)


def screenshot(driver, name):
    if arguments.screenshots:
        driver.save_screenshot(os.path.join(arguments.screenshots, name))


def sign_in(driver, user, password):
    driver.find_element(By.ID, "signin-user").send_keys(user)
    driver.find_element(By.ID, "signin-password").send_keys(password + Keys.ENTER)


def tree_links(driver):
    wait_for(driver, "return document.querySelectorAll('#tree-list a.tree').length > 0")
    return [link.text for link in driver.find_elements(By.CSS_SELECTOR, "#tree-list a.tree")]


for width in [360, 1400]:
    driver = browser(width)
    try:
        driver.get(arguments.server + "/")
        seen[f"signInShown{width}"] = bool(visible(driver, "signin"))
        seen[f"focusOnHeading{width}"] = driver.execute_script("return document.activeElement && document.activeElement.id")
        screenshot(driver, f"signin-{width}.png")
        seen["accessibility"] += serious_violations(driver, f"sign-in page at {width} px")
        # A wrong password first: a message, still signed out.
        sign_in(driver, arguments.user, "not the password")
        seen["wrongPassword"] = wait_for(driver, "const m = document.getElementById('signin-message'); return m.classList.contains('error') && m.textContent")
        driver.find_element(By.ID, "signin-user").clear()
        driver.find_element(By.ID, "signin-password").clear()
        sign_in(driver, arguments.user, arguments.password)
        seen[f"trees{width}"] = tree_links(driver)
        seen["who"] = driver.find_element(By.ID, "who").text
        screenshot(driver, f"trees-{width}.png")
        seen["accessibility"] += serious_violations(driver, f"trees at {width} px")
        # The page at 360 px scrolls no wider than the window.
        seen[f"overflow{width}"] = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")

        # The tree's birthdays, soonest first, then by name; back to the list by its link.
        driver.find_element(By.CSS_SELECTOR, "#tree-list a.more").click()
        wait_for(driver, "return document.getElementById('birthdays')")
        rows = lambda: [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#birthdays tbody tr")]
        seen[f"birthdays{width}"] = rows()
        seen["soonMarked"] = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#birthdays .soon")]
        seen[f"birthdaysOverflow{width}"] = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        screenshot(driver, f"birthdays-{width}.png")
        seen["accessibility"] += serious_violations(driver, f"birthdays at {width} px")
        if width == 1400:
            # A calendar address, subscribed to as a calendar app would: no cookie, a real parser.
            driver.find_element(By.ID, "calendar-make").click()
            address = wait_for(driver, "const r = document.getElementById('calendar-result'); return r && !r.hidden && document.getElementById('calendar-url').value")
            seen["calendarSubscribe"] = driver.execute_script("return document.getElementById('calendar-subscribe').getAttribute('href')")
            seen["accessibility"] += serious_violations(driver, "birthdays with a calendar address")
            screenshot(driver, "calendar-address-1400.png")
            from icalendar import Calendar
            import urllib.request
            with urllib.request.urlopen(address) as answer:
                seen["calendarType"] = answer.headers.get("Content-Type")
                calendar = Calendar.from_ical(answer.read())
            seen["calendarSummaries"] = sorted(str(event.get("SUMMARY")) for event in calendar.walk("VEVENT"))
            seen["calendarAddress"] = address
        # The month, from the birthdays page.
        driver.find_element(By.LINK_TEXT, "Month").click()
        wait_for(driver, "return document.getElementById('month')")
        seen[f"monthFaces{width}"] = driver.execute_script("return document.querySelectorAll('#month .face').length")
        seen[f"monthList{width}"] = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#month-list li")]
        seen[f"monthOverflow{width}"] = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        seen["accessibility"] += serious_violations(driver, f"month at {width} px")
        screenshot(driver, f"month-{width}.png")
        driver.back()
        wait_for(driver, "return document.getElementById('birthdays')")
        driver.find_element(By.LINK_TEXT, "Name").click()
        wait_for(driver, "return location.search.includes('sort=name')")
        seen["birthdaysByName"] = rows()
        record(driver)
        driver.find_element(By.LINK_TEXT, "← Trees").click()
        tree_links(driver)

        driver.find_element(By.CSS_SELECTOR, "#tree-list a.tree").click()
        seen[f"chartLoaded{width}"] = bool(wait_for(driver, "return window.familyTreeViewer && window.familyTreeViewer.firstFrameAt !== null"))
        seen["chartPath"] = driver.execute_script("return location.pathname")
        search = driver.find_element(By.ID, "search")
        search.send_keys(arguments.search)
        seen["searchResults"] = wait_for(driver, "const r = [...document.querySelectorAll('#results li')].map(li => li.textContent); return r.length ? r : null") or []
        search.send_keys(Keys.ENTER)
        seen["cardName"] = wait_for(driver, "const c = document.getElementById('card'), n = document.getElementById('card-name'); return c && !c.hidden && n && n.textContent")
        seen["injected"] = driver.execute_script("return window.pwned === undefined ? null : window.pwned")
        seen["strayImages"] = driver.execute_script("return document.querySelectorAll('img[src=\"x\"]').length")
        screenshot(driver, f"chart-{width}.png")
        seen["accessibility"] += serious_violations(driver, f"chart at {width} px")
        record(driver)

        # Back to the list by the chart's own link; signed out there: the sign-in form again, and
        # the chart is out of reach.
        seen["homeLink"] = driver.find_element(By.ID, "home-link").text
        driver.find_element(By.ID, "home-link").click()
        seen[f"backToTrees{width}"] = tree_links(driver)
        driver.find_element(By.ID, "signout").click()
        seen[f"signedOut{width}"] = bool(visible(driver, "signin"))
        driver.get(arguments.server + "/trees/" + arguments.user)
        seen["afterSignOutPath"] = wait_for(driver, "return document.readyState === 'complete' && location.pathname + location.search")
        record(driver)
    finally:
        driver.quit()

# A relative with the invite link, in a browser of their own.
driver = browser(360)
try:
    driver.get(arguments.invite)
    seen["inviteShown"] = bool(visible(driver, "invite"))
    screenshot(driver, "invite-360.png")
    seen["accessibility"] += serious_violations(driver, "invite page")
    driver.find_element(By.ID, "invite-user").send_keys(arguments.new_user)
    driver.find_element(By.ID, "invite-password").send_keys("a new password")
    driver.find_element(By.ID, "invite-repeat").send_keys("a new password" + Keys.ENTER)
    seen["joinedTrees"] = tree_links(driver)
    seen["joinedWho"] = driver.find_element(By.ID, "who").text
    seen["joinedPath"] = driver.execute_script("return location.pathname")
    record(driver)
    # The same link a second time is refused in words.
    driver.delete_all_cookies()
    driver.get(arguments.invite)
    visible(driver, "invite")
    driver.find_element(By.ID, "invite-user").send_keys(arguments.new_user + "x")
    driver.find_element(By.ID, "invite-password").send_keys("a new password")
    driver.find_element(By.ID, "invite-repeat").send_keys("a new password" + Keys.ENTER)
    seen["reusedInvite"] = wait_for(driver, "const m = document.getElementById('invite-message'); return m.classList.contains('error') && m.textContent")
    record(driver)
finally:
    driver.quit()

seen["foreignRequests"] = [url for url in seen["requests"] if urlparse(url).netloc != origin.netloc and not url.startswith("data:")]
print(json.dumps(seen))
