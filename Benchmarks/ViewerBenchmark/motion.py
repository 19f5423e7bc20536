"""What the browser benchmarks share: five seconds of panning and zooming, and percentiles."""

MOTION = """
const done = arguments[0], viewer = window.familyTreeViewer, start = performance.now(), intervals = [];
let frame = 0, last = start;
function step(now) {
  const t = (now - start) / 1000;
  if (frame > 0) { intervals.push(now - last); }
  last = now;
  if (t > 5) { done(intervals); return; }
  // Pan all the time; zoom in for the first two seconds, out for the next two, back in after.
  viewer.pan(12, Math.sin(frame / 20) * 6);
  viewer.zoom(t < 2 ? 1.012 : t < 4 ? 0.975 : 1.02);
  frame++;
  requestAnimationFrame(step);
}
requestAnimationFrame(step);
"""

def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))] if ordered else float("nan")
