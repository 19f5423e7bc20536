#!/usr/bin/env python3
"""Opens SVG charts in headless Chromium and prints, as JSON, each file's number of text lines and
the lines whose box (getBBox) reaches outside their member's box: text measured in the font the
browser really uses (DejaVu Sans on Debian), not in the estimate the boxes were sized with.

    svg_text_fit.py A.svg [B.svg ...]"""
import json, sys
import chromium

driver = chromium.start(1200, 800, logs=False)
results = {}
try:
    for path in sys.argv[1:]:
        driver.get("file://" + path)
        results[path] = driver.execute_script("""
            // At its natural size: a responsive chart shrunk into the window measures text at a
            // few pixels, where the browser rounds glyph widths up.
            const svg = document.documentElement;
            svg.removeAttribute('style');
            svg.setAttribute('width', svg.viewBox.baseVal.width);
            svg.setAttribute('height', svg.viewBox.baseVal.height);
            const spills = []; let lines = 0;
            for (const member of document.querySelectorAll('g.member')) {
              const box = member.querySelector('rect.box').getBBox();
              for (const text of member.querySelectorAll('text')) {
                lines++;
                const b = text.getBBox();
                if (b.x < box.x - 0.5 || b.x + b.width > box.x + box.width + 0.5) {
                  spills.push(member.dataset.member + ': ' + text.textContent + ' (' + Math.round(b.width) + ' in ' + Math.round(box.width) + ')');
                }
              }
            }
            return { lines, spills, font: getComputedStyle(document.querySelector('text')).fontFamily };""")
finally:
    driver.quit()
json.dump(results, sys.stdout)
