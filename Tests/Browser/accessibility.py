"""Accessibility checks of a page open in Selenium, with axe-core (the script axe-core-python carries)."""
import os
import axe_core_python

_SCRIPT = open(os.path.join(os.path.dirname(axe_core_python.__file__), "axe.min.js"), encoding="utf-8").read()


def serious_violations(driver, label):
    """axe-core's serious and critical violations on the page as it is now (WCAG 2 A and AA rules),
    each as "LABEL: RULE (IMPACT) on SELECTORS"."""
    driver.execute_script(_SCRIPT)
    results = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
          .then(r => done(r.violations.map(v => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ')) }))),
                e => done([{ id: 'axe failed: ' + e, impact: 'critical', nodes: [] }]));""")
    return [f"{label}: {v['id']} ({v['impact']}) on {', '.join(v['nodes'])}" for v in results if v["impact"] in ("serious", "critical")]
