// The HTML chart's viewer script, tested in node on a fake page (`node --test Tests/Viewer`): the
// data the Swift renderer writes (the committed example page) and trees made up here, through
// the viewer's events and its `window.familyTreeViewer` API.
import assert from "node:assert/strict";
import { test } from "node:test";
import { exampleData, openPage } from "./fake-page.mjs";

/// A made-up tree: `rows` generations of `perRow` people in a grid, each the child of the one
/// above; member i is "Person i".
function gridData(rows, perRow) {
  const members = [], unions = [], edges = [];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < perRow; column++) {
      const index = row * perRow + column;
      members.push([`p${index}`, [`Person ${index}`, `b. ${1900 + row}`], 20 + column * 150, 20 + row * 110, 120, 48, index % 2 + 1, 0, null, {}]);
      if (row > 0) {
        unions.push([80 + column * 150, 20 + row * 110 - 30, [index - perRow], [index], [0], null, null]);
        edges.push([1, 80 + column * 150, 20 + row * 110 - 62, 80 + column * 150, 20 + row * 110]);
      }
    }
  }
  return { title: "Grid", direction: "top-down", width: 40 + perRow * 150, height: 40 + rows * 110, open: null, m: members, u: unions, e: edges, legend: [], c: [] };
}

/// Two screen points the same to a thousandth of a pixel.
function assertNear(actual, expected, message) {
  assert.ok(Math.abs(actual.offsetX - expected.offsetX) < 1e-3 && Math.abs(actual.offsetY - expected.offsetY) < 1e-3,
    `${message}: ${JSON.stringify(actual)} against ${JSON.stringify(expected)}`);
}

/// Where a member's box centre is on screen now.
function screenPoint(page, data, id) {
  const m = data.m.find(member => member[0] === id);
  const { scale, origin } = page.viewer;
  return { offsetX: (m[2] + m[4] / 2 - origin.x) * scale, offsetY: (m[3] + m[5] / 2 - origin.y) * scale };
}

test("search folds case and accents, and matches every word", () => {
  const page = openPage(exampleData());
  const search = page.elements.get("search"), results = page.elements.get("results");
  search.value = "MULLER";
  search.dispatch("input");
  const found = results.children.map(item => item.textContent);
  assert.ok(found.length >= 6, `found ${found}`);
  assert.ok(found.every(text => text.includes("Müller")), `found ${found}`);
  search.value = "o briain  padraig";
  search.dispatch("input");
  assert.deepEqual(results.children.map(item => item.textContent), ["Pádraig Ó Briain · 1920–1985"]);
  assert.equal(search.getAttribute("aria-expanded"), "true");
  search.value = "nobody at all";
  search.dispatch("input");
  assert.equal(results.children.length, 0);
  assert.equal(search.getAttribute("aria-expanded"), "false");
});

test("choosing a result selects that person and puts them in the address", () => {
  const page = openPage(exampleData());
  const search = page.elements.get("search");
  search.value = "zoë";
  search.dispatch("input");
  search.dispatch("keydown", { key: "Enter" });
  assert.equal(page.viewer.selected, "zoe");
  assert.equal(page.location.hash, "#zoe");
});

test("Alt and the arrow keys move to a parent, a child and a sibling; S to a spouse", () => {
  const page = openPage(exampleData());
  page.viewer.select("peter");
  const key = (name, alt = true) => page.canvas.dispatch("keydown", { key: name, altKey: alt });
  key("ArrowUp");
  assert.ok(["karl", "liesel"].includes(page.viewer.selected), page.viewer.selected);
  page.viewer.select("karl");
  key("ArrowDown");
  assert.ok(["anna", "peter", "tom"].includes(page.viewer.selected), page.viewer.selected);
  page.viewer.select("karl");
  key("s", false);
  assert.ok(["margarethe", "liesel", "siobhan"].includes(page.viewer.selected), `spouse: ${page.viewer.selected}`);
  page.viewer.select("anna");
  const before = page.viewer.selected;
  key("ArrowRight");
  assert.notEqual(page.viewer.selected, before, "a sibling");
});

test("a click selects the box under the pointer, and a click beside every box selects no one new", () => {
  const data = exampleData();
  const page = openPage(data);
  page.frame();
  for (const id of ["heinrich", "mei", "chloe"]) {
    const point = screenPoint(page, data, id);
    page.canvas.dispatch("pointerdown", { ...point, pointerId: 1, button: 0 });
    page.canvas.dispatch("pointerup", { ...point, pointerId: 1, button: 0 });
    assert.equal(page.viewer.selected, id);
    const card = page.elements.get("card");
    assert.equal(card.hidden, false);
    assert.ok(card.textContent.includes(data.m.find(m => m[0] === id)[1][0]), card.textContent);
  }
  const corner = { offsetX: 1, offsetY: 1, pointerId: 1, button: 0 };
  page.canvas.dispatch("pointerdown", corner);
  page.canvas.dispatch("pointerup", corner);
  assert.equal(page.viewer.selected, "chloe", "an empty spot keeps the selection");
});

test("a frame draws only the boxes in view", () => {
  const data = gridData(40, 40);
  const page = openPage(data, { width: 1000, height: 700 });
  // Each box is a rect to fill and one to outline: count the places.
  const boxes = calls => new Set(calls.filter(call => call[0] === "rect").map(call => `${call[1]},${call[2]}`)).size;
  page.viewer.fit();
  const far = page.frame();
  page.viewer.select("p820");
  page.viewer.zoom(4 / page.viewer.scale);
  const near = page.frame();
  const visibleAcross = Math.ceil(1000 / 4 / 150) + 1, visibleDown = Math.ceil(700 / 4 / 110) + 1;
  assert.ok(boxes(near) > 0, "something is drawn");
  assert.ok(boxes(near) <= (visibleAcross + 1) * (visibleDown + 1), `near: ${boxes(near)} boxes drawn`);
  const names = near.filter(call => call[0] === "fillText").map(call => call[1]);
  assert.ok(names.includes("Person 820"), "the selected person's name is drawn up close");
  assert.ok(!names.includes("Person 0") && !names.includes("Person 1599"), "people far away are not");
  assert.ok(boxes(far) === 0 || boxes(far) > boxes(near), `far: ${boxes(far)} boxes or the overview bitmap`);
});

test("no name reaches the page as markup", () => {
  const data = exampleData();
  data.m[0][1][0] = "<img src=x onerror=alert(1)>";
  data.m[0][9] = { n: "</script><script>alert(2)</script>", t: "<b>notes</b>" };
  const page = openPage(data);
  page.viewer.select("heinrich");
  page.canvas.dispatch("keydown", { key: "Enter" });
  const card = page.elements.get("card");
  assert.ok(card.textContent.includes("</script><script>alert(2)</script>"), "shown as text");
  const search = page.elements.get("search");
  search.value = "img src";
  search.dispatch("input");
  assert.equal(page.elements.get("results").children[0].textContent.startsWith("</script>"), true);
});

test("a tree too big to read whole opens at full size on where it starts; a small one opens whole", () => {
  const big = gridData(40, 40);
  big.start = 5;
  const page = openPage(big, { width: 1000, height: 700 });
  assert.equal(page.viewer.scale, 1, "names at their size");
  const start = screenPoint(page, big, "p5");
  assert.ok(Math.abs(start.offsetX - 500) < 1, `centred across: ${start.offsetX}`);
  assert.ok(start.offsetY > 0 && start.offsetY < 700 / 3, `near the top: ${start.offsetY}`);
  const names = page.frame().filter(call => call[0] === "fillText").map(call => call[1]);
  assert.ok(names.includes("Person 5"), "its name is drawn");

  const small = gridData(2, 3);
  small.start = 0;
  const whole = openPage(small, { width: 1000, height: 700 });
  assert.ok(whole.viewer.scale >= 0.7, `fitted whole: ${whole.viewer.scale}`);
  for (const id of ["p0", "p5"]) {
    const point = screenPoint(whole, small, id);
    assert.ok(point.offsetX > 0 && point.offsetX < 1000 && point.offsetY > 0 && point.offsetY < 700, `${id} in view`);
  }
});

test("the page opens on the person its data names, unless the address names another", () => {
  const data = exampleData();
  assert.equal(openPage(data).viewer.selected, data.m[data.open][0]);
  assert.equal(openPage(data, { hash: "#mei" }).viewer.selected, "mei");
});

test("a press held on one person and dragged to another links them, only on a page that links", () => {
  const data = exampleData();
  const page = openPage(data);
  page.frame();
  const from = screenPoint(page, data, "heinrich"), to = screenPoint(page, data, "mei");
  function pressAndDrag(wait) {
    page.canvas.dispatch("pointerdown", { ...from, pointerId: 7, button: 0 });
    if (wait) { page.runTimers(); }
    page.canvas.dispatch("pointermove", { ...to, pointerId: 7 });
    page.canvas.dispatch("pointerup", { ...to, pointerId: 7, button: 0 });
  }
  const links = [];
  pressAndDrag(true);
  assert.deepEqual(links, [], "no onLink: a long press pans as before");
  page.viewer.onLink = (a, b) => links.push([a, b]);
  const origin = page.viewer.origin;
  pressAndDrag(false);
  assert.deepEqual(links, [], "a quick drag pans");
  assert.notDeepEqual(page.viewer.origin, origin);
  const again = { from: screenPoint(page, data, "heinrich"), to: screenPoint(page, data, "mei") };
  page.canvas.dispatch("pointerdown", { ...again.from, pointerId: 8, button: 0 });
  page.runTimers();
  const before = page.viewer.origin;
  page.canvas.dispatch("pointermove", { ...again.to, pointerId: 8 });
  assert.deepEqual(page.viewer.origin, before, "dragging a link does not pan");
  page.frame();
  page.canvas.dispatch("pointerup", { ...again.to, pointerId: 8, button: 0 });
  assert.deepEqual(links, [["heinrich", "mei"]]);
  // Dropped on the person it started from, or on no one: nothing.
  page.canvas.dispatch("pointerdown", { ...again.from, pointerId: 9, button: 0 });
  page.runTimers();
  page.canvas.dispatch("pointerup", { offsetX: 1, offsetY: 1, pointerId: 9, button: 0 });
  assert.equal(links.length, 1);
});

test("a changed tree loaded into an open page keeps the view and the selected person", () => {
  const data = gridData(3, 3);
  const page = openPage(data);
  page.frame();
  page.viewer.select("p4");
  const { scale, origin } = page.viewer;
  const changed = gridData(3, 3);
  changed.m[4][1][0] = "Renamed Person";
  changed.m.push(["p9", ["New Person"], 20, 400, 120, 48, 1, 0, null, {}]);
  page.viewer.load(changed);
  assert.equal(page.viewer.selected, "p4");
  assert.equal(page.viewer.scale, scale);
  assert.deepEqual(page.viewer.origin, origin);
  assert.ok(page.elements.get("card").textContent.includes("Renamed Person"));
  const search = page.elements.get("search");
  search.value = "new person";
  search.dispatch("input");
  assert.equal(page.elements.get("results").children.length, 1, "the search knows the new person");
  const gone = gridData(3, 3);
  gone.m = gone.m.filter(m => m[0] !== "p4");
  gone.u = []; gone.e = [];
  page.viewer.load(gone);
  assert.equal(page.viewer.selected, null);
  assert.equal(page.elements.get("card").hidden, true);
});

test("a tree loaded with its boxes moved keeps the person the view is on where they were on screen", () => {
  // As a large tree's first picture (a part of it) is replaced by the whole tree laid out.
  const data = gridData(3, 3);
  const page = openPage(data);
  page.frame();
  page.viewer.select("p4");
  const before = screenPoint(page, data, "p4");
  const moved = gridData(4, 5);
  const m4 = moved.m.find(member => member[0] === "p4");
  m4[2] += 1000; m4[3] += 333;
  page.viewer.load(moved);
  assertNear(screenPoint(page, moved, "p4"), before, "the selected person stays put");
  // With no one selected: the person nearest the middle of the screen stays put.
  const other = openPage(gridData(3, 3));
  other.frame();
  const { scale, origin } = other.viewer;
  const grid = gridData(3, 3);
  let nearest = null, best = Infinity;
  const width = 1200, height = 800;
  for (const m of grid.m) {
    const x = (m[2] + m[4] / 2 - origin.x) * scale, y = (m[3] + m[5] / 2 - origin.y) * scale;
    const d = (x - width / 2) ** 2 + (y - height / 2) ** 2;
    if (d < best) { best = d; nearest = m[0]; }
  }
  const kept = screenPoint(other, grid, nearest);
  const shifted = gridData(3, 3);
  for (const m of shifted.m) { m[2] += 500; m[3] += 70; }
  other.viewer.load(shifted);
  assertNear(screenPoint(other, shifted, nearest), kept, `${nearest} stays put`);
  assert.equal(other.viewer.scale, scale, "at the same size");
  // A page may name whom to keep (the person its first picture opened on) when no one is selected.
  const named = grid.m.find(m => m[0] !== nearest)[0];
  const namedBefore = screenPoint(other, shifted, named);
  const again = gridData(3, 3);
  for (const m of again.m) { m[2] += m[0] === named ? 900 : 10; }
  other.viewer.load(again, named);
  assertNear(screenPoint(other, again, named), namedBefore, `${named}, named, stays put`);
  assert.equal(other.viewer.start, null, "no start in this data");
});

test("search results open when a changed tree is loaded are looked for again in it", () => {
  const page = openPage(gridData(3, 3));
  page.frame();
  const search = page.elements.get("search"), results = page.elements.get("results");
  search.value = "person 1";
  search.dispatch("input");
  assert.equal(results.children.length, 1);
  // The same people in another order: the result's old position is someone else now.
  const reordered = gridData(3, 3);
  reordered.m.reverse();
  reordered.u = []; reordered.e = [];
  page.viewer.load(reordered);
  assert.equal(results.children.length, 1);
  search.dispatch("keydown", { key: "Enter", preventDefault() {} });
  assert.equal(page.viewer.selected, "p1");
});

test("a patch puts changed people in place, keeps the view, and is refused whole when a box moved", () => {
  const data = gridData(3, 3);
  const page = openPage(data);
  page.frame();
  page.viewer.select("p4");
  const { scale, origin } = page.viewer;
  const renamed = ["p4", ["Renamed Person", "b. 1901"], ...data.m[4].slice(2, 9), { t: "A new note" }];
  assert.equal(page.viewer.patch([[4, renamed]]), true);
  assert.equal(page.viewer.selected, "p4");
  assert.equal(page.viewer.scale, scale);
  assert.deepEqual(page.viewer.origin, origin);
  const card = page.elements.get("card").textContent;
  assert.ok(card.includes("Renamed Person") && card.includes("A new note"), card);
  const search = page.elements.get("search");
  search.value = "renamed";
  search.dispatch("input");
  assert.equal(page.elements.get("results").children.length, 1, "the search knows the new name");
  // A box that moved, an entry at another's place, or a place past the end: nothing changes.
  const moved = [...renamed];
  moved[2] += 10;
  const beforeRefusals = page.viewer.person("p5").name;
  for (const entries of [[[4, moved]], [[5, renamed]], [[99, renamed]], [[5, ["p5", ["Changed"], ...data.m[5].slice(2)]], [4, moved]]]) {
    assert.equal(page.viewer.patch(entries), false);
  }
  assert.equal(page.viewer.person("p5").name, beforeRefusals, "a refused patch changes no one");
  assert.equal(page.viewer.person("p4").name, "Renamed Person");
});

test("a card shows a person's ancestors, descendants or both on the page, the rest faded, and everyone again", () => {
  const data = exampleData();
  const page = openPage(data);
  page.viewer.select("jonas");
  const card = page.elements.get("card");
  const buttons = () => {
    const found = [];
    const visit = node => { if (node.dataset && node.dataset.kind) { found.push(node); } (node.children || []).forEach(visit); };
    visit(card);
    return found;
  };
  assert.deepEqual(buttons().map(button => button.dataset.kind), ["ancestors"], "Jonas has parents, no children");
  assert.equal(buttons()[0].textContent, "Ancestors of Jonas");
  buttons()[0].dispatch("click");
  const shown = page.viewer.shown;
  assert.equal(shown.kind, "ancestors");
  assert.ok(["jonas", "peter", "emily", "karl", "siobhan", "liesel", "james", "heinrich", "greta"].every(id => shown.ids.includes(id)), `${shown.ids}`);
  assert.ok(!shown.ids.includes("sophie") && !shown.ids.includes("lukas") && !shown.ids.includes("mei"), "no sister, no cousins");
  // Faded: a veil drawn over each box outside the chart, none over those in it.
  const calls = page.frame();
  const veiled = calls.filter(call => call[0] === "rect").map(call => `${call[1] + 2},${call[2] + 2}`);
  const box = id => { const m = data.m.find(member => member[0] === id); return `${m[2]},${m[3]}`; };
  assert.ok(veiled.includes(box("sophie")) && veiled.includes(box("mei")), "Sophie and Mei veiled");
  assert.ok(!veiled.includes(box("peter")) && !veiled.includes(box("heinrich")), "Peter and Heinrich not");
  assert.equal(buttons().find(button => button.dataset.kind === "ancestors").getAttribute("aria-pressed"), "true");
  buttons().find(button => button.dataset.kind === "everyone").dispatch("click");
  assert.equal(page.viewer.shown, null);

  page.viewer.select("greta");
  page.viewer.show("descendants", "greta");
  const descendants = page.viewer.shown.ids;
  assert.ok(["karl", "liesel", "peter", "jonas", "lukas", "chloe", "margarethe", "james"].every(id => descendants.includes(id)), `${descendants}`);
  assert.ok(!descendants.includes("tomas") && !descendants.includes("padraig"), "not the in-laws' parents and siblings");
});

test("a chart kind being shown survives a changed tree loaded into the page, renumbered", () => {
  const data = exampleData();
  const page = openPage(data);
  page.viewer.show("ancestors", "jonas");
  const before = page.viewer.shown.ids;
  // The same tree with its members in reverse order: every position changes.
  const reversed = JSON.parse(JSON.stringify(data));
  const count = reversed.m.length, moved = position => count - 1 - position;
  reversed.m.reverse();
  for (const union of reversed.u) { union[2] = union[2].map(moved); union[3] = union[3].map(moved); }
  reversed.c = reversed.c.map(link => link.map(moved));
  if (reversed.open !== null) { reversed.open = moved(reversed.open); }
  page.viewer.load(reversed);
  assert.deepEqual(page.viewer.shown.ids, before);
  assert.equal(page.viewer.shown.of, "jonas");
});

test("a line across thousands of cells is drawn where the view is, clipped to it, in its own kind and place", () => {
  // Two people 900,000 units apart joined by a line at y 300 (a marriage, kind 0) made of two
  // overlapping pieces, and a dashed line (kind 4) at y 301 with a gap from 400,000 to 500,000.
  const members = [["a", ["A", ""], 0, 276, 120, 48, 1, 0, null, {}], ["b", ["B", ""], 900_000, 276, 120, 48, 2, 0, null, {}]];
  const edges = [[0, 120, 300, 600_000, 300], [0, 500_000, 300, 900_000, 300], [4, 120, 301, 400_000, 301], [4, 500_000, 301, 900_000, 301]];
  const data = { title: "Wide", direction: "top-down", width: 900_200, height: 400, open: null, m: members, u: [], e: edges, legend: [], c: [] };
  const page = openPage(data, { width: 1000, height: 700 });
  const segmentsAt = (calls, y) => {
    const found = [];
    calls.forEach((call, i) => { if (call[0] === "moveTo" && call[2] === y && calls[i + 1][0] === "lineTo") { found.push([call[1], calls[i + 1][1]]); } });
    return found;
  };
  for (const [x, gap] of [[450_000, true], [700_000, false], [100_000, false]]) {
    page.viewer.pan((x - page.viewer.origin.x) * page.viewer.scale, (250 - page.viewer.origin.y) * page.viewer.scale);
    const calls = page.frame();
    const left = page.viewer.origin.x, right = left + 1000 / page.viewer.scale;
    const solid = segmentsAt(calls, 300), dashed = segmentsAt(calls, 301);
    assert.equal(solid.length, 1, `at ${x}: the marriage line once, merged`);
    assert.ok(solid[0][0] >= left - 25 && solid[0][1] <= right + 25 && solid[0][1] - solid[0][0] >= 1000 / page.viewer.scale, `at ${x}: clipped to the view`);
    assert.equal(dashed.length, gap ? 0 : 1, `at ${x}: the dashed line ${gap ? "has its gap" : "is drawn"}`);
    assert.equal(segmentsAt(calls, 304).length + segmentsAt(calls, 302).length, 0, `at ${x}: no line at another height`);
  }
});
