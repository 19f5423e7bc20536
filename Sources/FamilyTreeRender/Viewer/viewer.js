"use strict";
(function () {
  let data, members, unions, edges, count;
  const canvas = document.getElementById("chart"), context = canvas.getContext("2d", { alpha: false });
  const searchInput = document.getElementById("search"), resultsList = document.getElementById("results");
  const card = document.getElementById("card"), linksButton = document.getElementById("links");
  let scale = 1, originX = 0, originY = 0, selected = -1, showLinks = true, dirty = true, overview = null;
  // A chart kind chosen on a card: { kind, of, members: Set }; everyone else fades. Null: everyone.
  let shown = null;
  let width = 0, height = 0, ratio = 1;
  const fold = text => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  const colours = {};
  function readColours() {
    const style = getComputedStyle(document.documentElement);
    for (const name of ["bg", "fg", "muted", "box", "male", "female", "line", "cross", "focus", "hit"]) {
      colours[name] = style.getPropertyValue("--" + name).trim();
    }
    overview = null;
    dirty = true;
  }

  // Everything derived from the data: relatives, and a grid of cells listing what each touches.
  const cellSize = 600;
  let parentsOf, childrenOf, spousesOf, unionsOf, siblingsOf, crossOf, indexOfID;
  let columns, rows, memberCells, otherSegments, rowLanes, drawnMember, searchKeys;
  function index(newData) {
    data = newData;
    members = data.m; unions = data.u; edges = data.e; count = members.length;
    // Relatives, from the unions.
    parentsOf = Array.from({ length: count }, () => []); childrenOf = Array.from({ length: count }, () => []);
    spousesOf = Array.from({ length: count }, () => []); unionsOf = Array.from({ length: count }, () => []);
    siblingsOf = new Array(count).fill(null);
    unions.forEach((union, index) => {
      const [, , partners, children] = union;
      for (const partner of partners) {
        unionsOf[partner].push(index);
        for (const child of children) { childrenOf[partner].push(child); }
        for (const other of partners) { if (other !== partner) { spousesOf[partner].push({ member: other, union: index }); } }
      }
      for (const child of children) {
        for (const partner of partners) { if (!parentsOf[child].includes(partner)) { parentsOf[child].push(partner); } }
        if (siblingsOf[child] === null) { siblingsOf[child] = children; }
      }
    });
    crossOf = new Set(data.c.map(link => link[0]));
    for (const [child, parent] of data.c) {
      if (!parentsOf[child].includes(parent)) { parentsOf[child].push(parent); }
      if (!childrenOf[parent].includes(child)) { childrenOf[parent].push(child); }
    }
    indexOfID = new Map(members.map((member, index) => [member[0], index]));

    // A grid of cells, each listing the members and lines that touch it.
    columns = Math.max(1, Math.ceil((data.width + 1) / cellSize)); rows = Math.max(1, Math.ceil((data.height + 1) / cellSize));
    memberCells = new Map();
    function addToCells(map, item, x0, y0, x1, y1) {
      const c0 = Math.max(0, Math.floor(x0 / cellSize)), c1 = Math.min(columns - 1, Math.floor(x1 / cellSize));
      const r0 = Math.max(0, Math.floor(y0 / cellSize)), r1 = Math.min(rows - 1, Math.floor(y1 / cellSize));
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const key = r * columns + c;
          let list = map.get(key);
          if (!list) { list = []; map.set(key, list); }
          list.push(item);
        }
      }
    }
    members.forEach((m, index) => addToCells(memberCells, index, m[2], m[3], m[2] + m[4], m[3] + m[5]));
    // Lines are indexed by segment. Horizontal segments of one kind at one height (a lane) are
    // merged and kept sorted in the row of cells they lie in, for a frame to find the pieces in
    // view by bisection: a wide tree's bus lines cross thousands of cells, and listing them in
    // each cell cost millions of entries. Other segments are listed in the cells they cross.
    const lanes = new Map();
    otherSegments = new Map();
    edges.forEach((edge, index) => {
      const kind = edge[0];
      for (let i = 1; i + 3 < edge.length; i += 2) {
        const ax = edge[i], ay = edge[i + 1], bx = edge[i + 2], by = edge[i + 3];
        if (ay !== by) {
          addToCells(otherSegments, index * 65536 + i, Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
          continue;
        }
        const key = ay * 8 + kind;  // seven kinds of line
        let pieces = lanes.get(key);
        if (!pieces) { pieces = []; lanes.set(key, pieces); }
        pieces.push(Math.min(ax, bx), Math.max(ax, bx));
      }
    });
    rowLanes = Array.from({ length: rows }, () => []);
    for (const [key, pieces] of lanes) {
      const kind = ((key % 8) + 8) % 8, y = (key - kind) / 8;
      const order = Array.from({ length: pieces.length / 2 }, (_, i) => i).sort((a, b) => pieces[2 * a] - pieces[2 * b]);
      const starts = [], ends = [];
      for (const i of order) {
        const from = pieces[2 * i], to = pieces[2 * i + 1];
        if (ends.length > 0 && from <= ends[ends.length - 1]) { ends[ends.length - 1] = Math.max(ends[ends.length - 1], to); continue; }
        starts.push(from); ends.push(to);
      }
      const row = Math.max(0, Math.min(rows - 1, Math.floor(y / cellSize)));
      rowLanes[row].push({ kind, y, starts: Float64Array.from(starts), ends: Float64Array.from(ends) });
    }
    drawnMember = new Uint32Array(count);
    searchKeys = members.map(searchKey);
    images.clear();
    overview = null;
    dirty = true;
  }

  /// What a search matches a member by: the full name, the nickname and the label, folded.
  function searchKey(m) { return fold([m[9].n || "", m[9].k || "", m[1][0] || ""].join(" ")); }

  const drawnSegment = new Set();
  let frameNumber = 0;

  function resize() {
    ratio = window.devicePixelRatio || 1;
    width = canvas.clientWidth; height = canvas.clientHeight;
    canvas.width = Math.round(width * ratio); canvas.height = Math.round(height * ratio);
    dirty = true;
  }

  // The whole tree once, small: what the screen shows when boxes would be a few pixels.
  function makeOverview() {
    const longest = Math.max(data.width, data.height, 1), size = Math.min(4096, Math.max(256, Math.ceil(longest / 8)));
    const factor = size / longest;
    const image = document.createElement("canvas");
    image.width = Math.max(1, Math.ceil(data.width * factor)); image.height = Math.max(1, Math.ceil(data.height * factor));
    const g = image.getContext("2d");
    g.fillStyle = colours.line;
    for (const m of members) { g.fillRect(m[2] * factor, m[3] * factor, Math.max(1, m[4] * factor), Math.max(1, m[5] * factor)); }
    overview = { image, factor };
  }

  function visibleCells() {
    const x0 = originX, y0 = originY, x1 = originX + width / scale, y1 = originY + height / scale;
    return [Math.max(0, Math.floor(x0 / cellSize)), Math.min(columns - 1, Math.floor(x1 / cellSize)),
            Math.max(0, Math.floor(y0 / cellSize)), Math.min(rows - 1, Math.floor(y1 / cellSize))];
  }

  const images = new Map();
  function photo(index) {
    const source = members[index][9].p;
    if (!source) { return null; }
    let image = images.get(index);
    if (!image) { image = new Image(); image.onload = () => { dirty = true; }; image.src = source; images.set(index, image); }
    return image.complete && image.naturalWidth > 0 ? image : null;
  }

  function draw() {
    frameNumber++;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.fillStyle = colours.bg;
    context.fillRect(0, 0, width, height);
    context.setTransform(ratio * scale, 0, 0, ratio * scale, -originX * scale * ratio, -originY * scale * ratio);
    const typicalWidth = 150 * scale;
    if (typicalWidth < 10) {
      if (!overview) { makeOverview(); }
      context.imageSmoothingEnabled = true;
      context.drawImage(overview.image, 0, 0, overview.image.width / overview.factor, overview.image.height / overview.factor);
      if (shown) { drawFaded(members.keys()); }
      drawSelection();
      return;
    }
    const [c0, c1, r0, r1] = visibleCells();
    const margin = 20 / scale;
    const view = [originX - margin, originY - margin, originX + width / scale + margin, originY + height / scale + margin];
    for (let kind = 0; kind < lineKinds.length; kind++) {
      if (kind === 3 && !showLinks) { continue; }
      const style = lineKinds[kind];
      context.strokeStyle = kind === 3 ? colours.cross : colours.line;
      context.setLineDash(style.dash);
      // Hairlines when zoomed out: wide dashed lines are slow to rasterise, and wide lines at
      // that size only blur the chart.
      context.lineWidth = scale < 0.6 ? 1 / scale : style.width;
      context.beginPath();
      drawnSegment.clear();
      for (let r = r0; r <= r1; r++) {
        // Each segment clipped to the screen: a dashed line a hundred thousand points long
        // would otherwise be dashed whole, every frame.
        for (const lane of rowLanes[r]) {
          if (lane.kind !== kind) { continue; }
          const { starts, ends, y } = lane;
          let low = 0, high = ends.length;
          while (low < high) { const middle = (low + high) >> 1; if (ends[middle] < view[0]) { low = middle + 1; } else { high = middle; } }
          for (let i = low; i < starts.length && starts[i] <= view[2]; i++) { clippedSegment(starts[i], y, ends[i], y, view); }
        }
        for (let c = c0; c <= c1; c++) {
          const cell = r * columns + c;
          for (const key of otherSegments.get(cell) || []) {
            const edge = edges[Math.floor(key / 65536)], i = key % 65536;
            if (edge[0] !== kind || drawnSegment.has(key)) { continue; }
            drawnSegment.add(key);
            clippedSegment(edge[i], edge[i + 1], edge[i + 2], edge[i + 3], view);
          }
        }
      }
      context.stroke();
    }
    context.setLineDash([]);
    // Text only where it can be read: names from about 7 px on screen, the second line after.
    const showText = scale >= 0.5, showDetail = scale >= 0.64, showPhotos = scale >= 1.2;
    // The boxes in view, filled a colour at a time and outlined in two strokes (few state
    // changes: a far view holds thousands of boxes).
    const visible = [], byFill = new Map();
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        for (const index of memberCells.get(r * columns + c) || []) {
          if (drawnMember[index] === frameNumber) { continue; }
          drawnMember[index] = frameNumber;
          const m = members[index];
          if (m[2] > view[2] || m[3] > view[3] || m[2] + m[4] < view[0] || m[3] + m[5] < view[1]) { continue; }
          visible.push(index);
          const fill = m[8] || (m[6] === 1 ? colours.male : m[6] === 2 ? colours.female : colours.box);
          let group = byFill.get(fill);
          if (!group) { group = []; byFill.set(fill, group); }
          group.push(index);
        }
      }
    }
    for (const [fill, group] of byFill) {
      context.fillStyle = fill;
      context.beginPath();
      for (const index of group) { const m = members[index]; context.rect(m[2], m[3], m[4], m[5]); }
      context.fill();
    }
    // Outlines cost as much again to rasterise: far out, where boxes carry no text, only the
    // highlighted ones get one.
    for (const cross of showText ? [false, true] : [true]) {
      context.strokeStyle = cross ? colours.cross : colours.line;
      context.lineWidth = (cross ? 2.5 : 1.2) / Math.min(1, Math.max(scale, 0.35));
      context.beginPath();
      for (const index of visible) {
        const m = members[index];
        if (((m[7] & 1) === 1 && showLinks) !== cross) { continue; }
        context.rect(m[2], m[3], m[4], m[5]);
      }
      context.stroke();
    }
    if (showText) {
      context.textBaseline = "middle";
      context.textAlign = "center";
      for (const index of visible) {
        const m = members[index], [x, y, w, h] = [m[2], m[3], m[4], m[5]];
        let textX = x + w / 2;
        if (showPhotos) {
          const image = photo(index);
          if (image) {
            const size = h - 10;
            context.save(); context.beginPath(); context.arc(x + 5 + size / 2, y + h / 2, size / 2, 0, Math.PI * 2); context.clip();
            context.drawImage(image, x + 5, y + 5, size, size); context.restore();
            textX += size / 2;
          }
        }
        context.fillStyle = m[8] ? textOn(m[8]) : colours.fg;
        const lines = m[1];
        // A long name comes wrapped onto lines broken by newlines, all drawn bold.
        const names = (lines[0] || "").split("\n");
        const lineCount = names.length + (showDetail ? lines.length - 1 : 0);
        const top = y + h / 2 - (lineCount - 1) * 8;
        context.font = "600 13px system-ui, sans-serif";
        names.forEach((name, line) => context.fillText(name, textX, top + line * 16, w - 8));
        if (showDetail) {
          context.font = "11px system-ui, sans-serif";
          if (!m[8]) { context.fillStyle = colours.muted; }
          for (let line = 1; line < lines.length; line++) { context.fillText(lines[line], textX, top + (names.length + line - 1) * 16, w - 8); }
        }
      }
    }
    drawFaded(visible);
    drawSelection();
  }
  /// Everyone outside the chart kind chosen on a card, veiled in the background's colour.
  function drawFaded(candidates) {
    if (!shown) { return; }
    context.globalAlpha = 0.8;
    context.fillStyle = colours.bg;
    context.beginPath();
    for (const index of candidates) {
      if (shown.members.has(index)) { continue; }
      const m = members[index];
      context.rect(m[2] - 2, m[3] - 2, m[4] + 4, m[5] + 4);
    }
    context.fill();
    context.globalAlpha = 1;
  }
  /// A person's ancestors, descendants (with their partners) or both, the person included.
  function chartMembers(kind, index) {
    const found = new Set([index]);
    function walk(next, withPartners) {
      const visited = new Set([index]), queue = [index];
      while (queue.length > 0) {
        const person = queue.shift();
        found.add(person);
        if (withPartners) { for (const spouse of spousesOf[person]) { found.add(spouse.member); } }
        for (const other of next(person)) {
          if (!visited.has(other)) { visited.add(other); queue.push(other); }
        }
      }
    }
    if (kind !== "descendants") { walk(person => parentsOf[person], false); }
    if (kind !== "ancestors") { walk(person => childrenOf[person], true); }
    return found;
  }
  /// Shows one chart kind of a person (null: everyone again), fitted below the toolbar.
  function showKind(kind, index) {
    shown = kind ? { kind, of: index, members: chartMembers(kind, index) } : null;
    if (shown) {
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const member of shown.members) {
        const m = members[member];
        x0 = Math.min(x0, m[2]); y0 = Math.min(y0, m[3]); x1 = Math.max(x1, m[2] + m[4]); y1 = Math.max(y1, m[3] + m[5]);
      }
      const top = toolbarBottom();
      scale = Math.max(minimumScale(), Math.min((width - 40) / Math.max(x1 - x0, 1), (height - top - 40) / Math.max(y1 - y0, 1), 1.5));
      originX = (x0 + x1) / 2 - width / 2 / scale; originY = (y0 + y1) / 2 - (height + top) / 2 / scale;
    }
    const name = members[index][9].n || (members[index][1][0] || "").replace(/\n/g, " ") || members[index][0];
    canvas.setAttribute("aria-label", "Family tree chart, " + (shown ? "showing the " + kind + " of " + name : "showing everyone") + ".");
    dirty = true;
    if (!card.hidden && selected >= 0) { showCard(selected); }
  }

  // Liang-Barsky: the part of a segment inside the rectangle [x0, y0, x1, y1], added to the path.
  function clippedSegment(ax, ay, bx, by, [x0, y0, x1, y1]) {
    let t0 = 0, t1 = 1;
    const dx = bx - ax, dy = by - ay;
    for (const [p, q] of [[-dx, ax - x0], [dx, x1 - ax], [-dy, ay - y0], [dy, y1 - ay]]) {
      if (p === 0) { if (q < 0) { return; } continue; }
      const r = q / p;
      if (p < 0) { if (r > t1) { return; } if (r > t0) { t0 = r; } } else { if (r < t0) { return; } if (r < t1) { t1 = r; } }
    }
    context.moveTo(ax + t0 * dx, ay + t0 * dy);
    context.lineTo(ax + t1 * dx, ay + t1 * dy);
  }

  function textOn(colour) {
    const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour);
    if (!hex) { return colours.fg; }
    let value = hex[1];
    if (value.length === 3) { value = value.split("").map(digit => digit + digit).join(""); }
    const [r, g, b] = [0, 2, 4].map(i => parseInt(value.slice(i, i + 2), 16));
    return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#111111" : "#ffffff";
  }

  function drawSelection() {
    if (linking) {
      // The line being dragged from one person to another, and the person it would reach.
      const m = members[linking.from], to = memberAt(linking.x, linking.y);
      context.strokeStyle = colours.focus;
      context.lineWidth = 3 / scale;
      context.setLineDash([8 / scale, 5 / scale]);
      context.beginPath();
      context.moveTo(m[2] + m[4] / 2, m[3] + m[5] / 2);
      context.lineTo(originX + linking.x / scale, originY + linking.y / scale);
      context.stroke();
      context.setLineDash([]);
      if (to >= 0 && to !== linking.from) {
        const t = members[to], pad = 4 / scale;
        context.strokeRect(t[2] - pad, t[3] - pad, t[4] + 2 * pad, t[5] + 2 * pad);
      }
    }
    if (selected < 0) { return; }
    const m = members[selected];
    context.strokeStyle = colours.focus;
    context.lineWidth = 4 / scale;
    const pad = 4 / scale;
    context.strokeRect(m[2] - pad, m[3] - pad, m[4] + 2 * pad, m[5] + 2 * pad);
  }

  // Line kinds: partner, child, other parent, cross-bloodline, adopted or foster child, step-child, divorced couple.
  const lineKinds = [{ dash: [], width: 2 }, { dash: [], width: 1.4 }, { dash: [2, 3], width: 1.4 }, { dash: [6, 3], width: 2 },
                     { dash: [7, 4], width: 1.4 }, { dash: [1.5, 3.5], width: 1.4 }, { dash: [4, 3], width: 2 }];
  const legend = document.getElementById("legend");
  function showLegend() {
    legend.replaceChildren();
    for (const [kind, words] of data.legend) {
      const sample = element("span", undefined, "sample");
      sample.style.borderTopStyle = kind === 5 ? "dotted" : "dashed";
      legend.append(sample, document.createTextNode(" " + words + " "));
    }
    legend.hidden = data.legend.length === 0;
    linksButton.hidden = data.c.length === 0;
  }

  const frameTimes = [];
  let firstFrameAt = null;
  function frame() {
    if (dirty) {
      dirty = false;
      const start = performance.now();
      draw();
      const end = performance.now();
      if (firstFrameAt === null) { firstFrameAt = end; }
      frameTimes.push(end - start);
      if (frameTimes.length > 600) { frameTimes.shift(); }
      canvas.dataset.scale = String(scale);
    }
    requestAnimationFrame(frame);
  }

  // The view: screen = (world - origin) * scale.
  const minimumScale = () => Math.min(width / Math.max(data.width, 1), height / Math.max(data.height, 1), 1) * 0.5;
  function setScale(value, screenX, screenY) {
    const next = Math.min(8, Math.max(minimumScale(), value));
    const worldX = originX + screenX / scale, worldY = originY + screenY / scale;
    scale = next;
    originX = worldX - screenX / scale; originY = worldY - screenY / scale;
    dirty = true;
  }
  /// How far down the page the toolbar reaches: the chart is fitted below it, never under it.
  function toolbarBottom() {
    const toolbar = document.getElementById("toolbar");
    const bottom = toolbar ? toolbar.getBoundingClientRect().bottom : 0;
    return Number.isFinite(bottom) ? Math.min(height / 3, Math.max(0, bottom)) : 0;
  }
  function fit() {
    const margin = 40, top = toolbarBottom();
    scale = Math.min((width - margin) / Math.max(data.width, 1), (height - top - margin) / Math.max(data.height, 1), 2);
    originX = data.width / 2 - width / 2 / scale; originY = data.height / 2 - (height + top) / 2 / scale;
    dirty = true;
  }
  // The whole tree when its names stay readable (13-point names at 70% or more). A bigger tree
  // opens at full size on where it starts (`data.start`: the eldest of the top generation of its
  // largest family), just under the toolbar; a page told whom to open on opens there instead.
  const readableScale = 0.7;
  function initialView() {
    fit();
    if (scale >= readableScale || data.open !== null) { return; }
    if (data.start !== null && data.start !== undefined && members[data.start]) {
      const m = members[data.start];
      scale = 1;
      originX = m[2] + m[4] / 2 - width / 2 / scale;
      originY = m[3] - (toolbarBottom() + 24) / scale;
      dirty = true;
      return;
    }
    const strip = Math.max((height - 40) / Math.max(data.height, 1), (width - 40) / Math.max(data.width, 1));
    scale = Math.min(1, Math.max(scale, strip));
    originX = data.width / 2 - width / 2 / scale; originY = data.height / 2 - height / 2 / scale;
    dirty = true;
  }
  function centreOn(index, zoom) {
    const m = members[index];
    if (zoom) { scale = Math.max(scale, 1); }
    originX = m[2] + m[4] / 2 - width / 2 / scale; originY = m[3] + m[5] / 2 - height / 2 / scale;
    dirty = true;
  }
  // The person a reloaded chart keeps in place: the selected one when on screen, else `preferred`
  // (an index) when on screen, else the one whose box's middle is nearest the screen's; with where
  // that middle is on screen.
  function personInView(preferred) {
    const onScreen = index => {
      const m = members[index];
      return { id: m[0], x: (m[2] + m[4] / 2 - originX) * scale, y: (m[3] + m[5] / 2 - originY) * scale };
    };
    for (const candidate of [selected, preferred]) {
      if (candidate === undefined || candidate < 0) { continue; }
      const place = onScreen(candidate);
      if (place.x >= 0 && place.x <= width && place.y >= 0 && place.y <= height) { return place; }
    }
    let nearest = -1, best = Infinity;
    const middleX = originX + width / 2 / scale, middleY = originY + height / 2 / scale;
    for (let index = 0; index < members.length; index += 1) {
      const m = members[index], dx = m[2] + m[4] / 2 - middleX, dy = m[3] + m[5] / 2 - middleY, distance = dx * dx + dy * dy;
      if (distance < best) { best = distance; nearest = index; }
    }
    return nearest >= 0 ? onScreen(nearest) : null;
  }
  function memberAt(screenX, screenY) {
    const x = originX + screenX / scale, y = originY + screenY / scale;
    const cell = Math.floor(y / cellSize) * columns + Math.floor(x / cellSize);
    for (const index of memberCells.get(cell) || []) {
      const m = members[index];
      if (x >= m[2] && x <= m[2] + m[4] && y >= m[3] && y <= m[3] + m[5]) { return index; }
    }
    return -1;
  }

  // The card: built from text nodes only.
  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) { node.textContent = text; }
    if (className) { node.className = className; }
    return node;
  }
  function personLink(index, suffix) {
    const link = element("a", members[index][9].n || members[index][1][0] || members[index][0]);
    link.href = "#" + encodeURIComponent(members[index][0]);
    const span = element("span");
    span.append(link);
    if (suffix) { span.append(document.createTextNode(suffix)); }
    return span;
  }
  const kindWords = ["", " (adopted)", " (step)", " (foster)"];
  function showCard(index) {
    const m = members[index], info = m[9];
    card.replaceChildren();
    const close = element("button", "×", "close");
    close.type = "button"; close.setAttribute("aria-label", "Close");
    close.addEventListener("click", () => { card.hidden = true; canvas.focus(); });
    card.append(close);
    if (info.p) {
      const image = element("img", undefined, "photo");
      image.alt = ""; image.src = info.p;
      card.append(image);
    } else {
      // No photo: the initials, in the photo's circle.
      const words = (info.n || m[1][0] || "?").split(/[\s-]+/).filter(word => word && word[0] !== word[0].toLowerCase());
      const initials = info.i || (words.length > 1 ? words[0][0] + words[words.length - 1][0] : (words[0] || "?")[0]).toUpperCase();
      const icon = element("div", initials, "icon");
      icon.setAttribute("aria-hidden", "true");
      card.append(icon);
    }
    const name = element("h2", info.n || m[1][0] || m[0]);
    name.id = "card-name";
    card.append(name);
    const list = element("dl");
    function row(term, value) {
      if (value === undefined || value === null || value === "" || (value instanceof Array && value.length === 0)) { return; }
      list.append(element("dt", term));
      const detail = element("dd");
      if (value instanceof Array) {
        value.forEach((item, position) => { if (position > 0) { detail.append(document.createTextNode(", ")); } detail.append(item); });
      } else { detail.textContent = value; }
      list.append(detail);
    }
    row("Nickname", info.k);
    row("Born", info.b);
    row("Died", info.d);
    row("Age", info.a);
    row("Spouses", spousesOf[index].map(({ member, union }) => {
      const [, , , , , marriage, divorce] = unions[union];
      const dates = [marriage ? "married " + marriage : "", divorce ? "divorced " + divorce : ""].filter(Boolean).join(", ");
      return personLink(member, dates ? " (" + dates + ")" : "");
    }));
    row("Parents", parentsOf[index].map(parent => personLink(parent,
      crossOf.has(index) && !isBirthParent(index, parent) ? " (cross-bloodline)" : kindWords[kindOf(parent, index)] || "")));
    row("Children", childrenOf[index].map(child => personLink(child, kindWords[kindOf(index, child)] || "")));
    row("Events", info.ev);
    row("Sources", info.so);
    row("Media", info.me);
    row("Phones", info.ph);
    row("E-mails", info.em);
    row("Notes", info.t);
    card.append(list);
    // The chart kinds of this person, on this page: the rest of the tree fades.
    const kinds = element("div", undefined, "kinds");
    kinds.setAttribute("role", "group");
    kinds.setAttribute("aria-label", "Show");
    const first = (info.n || (m[1][0] || "").split("\n")[0] || m[0]).split(/\s+/)[0];
    const choices = [["ancestors", "Ancestors"], ["descendants", "Descendants"], ["hourglass", "Both"]];
    for (const [kind, words] of choices) {
      if ((kind === "ancestors" && parentsOf[index].length === 0) || (kind === "descendants" && childrenOf[index].length === 0)) { continue; }
      if (kind === "hourglass" && (parentsOf[index].length === 0 || childrenOf[index].length === 0)) { continue; }
      const button = element("button", words + (kind === "hourglass" ? "" : " of " + first));
      button.type = "button";
      button.dataset.kind = kind;
      button.setAttribute("aria-pressed", String(!!shown && shown.kind === kind && shown.of === index));
      button.addEventListener("click", () => showKind(shown && shown.kind === kind && shown.of === index ? null : kind, index));
      kinds.append(button);
    }
    if (shown) {
      const everyone = element("button", "Everyone");
      everyone.type = "button";
      everyone.dataset.kind = "everyone";
      everyone.addEventListener("click", () => showKind(null, index));
      kinds.append(everyone);
    }
    if (kinds.children.length > 0) { card.append(kinds); }
    card.hidden = false;
    // For a page that adds its own actions to the card.
    if (typeof CustomEvent === "function" && card.dispatchEvent) {
      card.dispatchEvent(new CustomEvent("familytree:card", { bubbles: true, detail: { id: m[0] } }));
    }
  }
  function kindOf(parent, child) {
    for (const union of unionsOf[parent]) {
      const position = unions[union][3].indexOf(child);
      if (position >= 0) { return unions[union][4][position] || 0; }
    }
    return 0;
  }
  function isBirthParent(child, parent) {
    return unionsOf[parent].some(union => unions[union][3].includes(child));
  }

  function select(index, options) {
    if (index < 0 || index >= count) { return; }
    selected = index;
    centreOn(index, options && options.zoom);
    showCard(index);
    canvas.setAttribute("aria-label", "Family tree chart, " + (members[index][9].n || members[index][0]) + " selected.");
    const hash = "#" + encodeURIComponent(members[index][0]);
    if (!(options && options.fromHash) && location.hash !== hash) { history.pushState(null, "", hash); }
  }
  function fromHash() {
    if (!location.hash) { return false; }
    let id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (error) { return false; }
    const index = indexOfID.get(id);
    if (index === undefined) { return false; }
    select(index, { zoom: true, fromHash: true });
    return true;
  }
  window.addEventListener("hashchange", fromHash);

  // Search: case- and accent-insensitive, full names and nicknames, results as a list.
  let results = [], active = -1;
  function search() {
    const query = fold(searchInput.value.trim());
    results = [];
    if (query) {
      const words = query.split(/\s+/);
      for (let index = 0; index < count && results.length < 50; index++) {
        if (words.every(word => searchKeys[index].includes(word))) { results.push(index); }
      }
    }
    active = results.length ? 0 : -1;
    resultsList.replaceChildren(...results.map((index, position) => {
      const item = element("li", (members[index][9].n || members[index][1][0]) + (members[index][1][1] ? " · " + members[index][1][1] : ""));
      item.id = "result-" + position;
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", position === active ? "true" : "false");
      item.addEventListener("mousedown", event => { event.preventDefault(); choose(position); });
      return item;
    }));
    searchInput.setAttribute("aria-expanded", results.length ? "true" : "false");
    if (active >= 0) { searchInput.setAttribute("aria-activedescendant", "result-0"); } else { searchInput.removeAttribute("aria-activedescendant"); }
  }
  function choose(position) {
    if (position < 0 || position >= results.length) { return; }
    select(results[position], { zoom: true });
    closeResults();
  }
  // An empty list: nothing for the box to point at.
  function closeResults() {
    results = [];
    resultsList.replaceChildren();
    searchInput.setAttribute("aria-expanded", "false");
    searchInput.removeAttribute("aria-activedescendant");
  }
  searchInput.addEventListener("input", search);
  searchInput.addEventListener("keydown", event => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!results.length) { return; }
      event.preventDefault();
      active = (active + (event.key === "ArrowDown" ? 1 : results.length - 1)) % results.length;
      Array.from(resultsList.children).forEach((item, position) => item.setAttribute("aria-selected", position === active ? "true" : "false"));
      searchInput.setAttribute("aria-activedescendant", "result-" + active);
      resultsList.children[active].scrollIntoView({ block: "nearest" });
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(Math.max(active, 0));
    } else if (event.key === "Escape") {
      closeResults();
    }
  });

  // Pointer: drag to pan, wheel and pinch to zoom about the pointer, click to select.
  // With a page that links people (api.onLink), a press held still on a person for half a second
  // starts a line to drag to another person instead of panning (seed 001's long press and drag).
  const pointers = new Map();
  let dragged = false, pinchDistance = 0, pressTimer = null, linking = null;
  canvas.addEventListener("pointerdown", event => {
    canvas.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, { x: event.offsetX, y: event.offsetY });
    dragged = false;
    if (pointers.size === 2) { const [a, b] = [...pointers.values()]; pinchDistance = Math.hypot(a.x - b.x, a.y - b.y); }
    canvas.style.cursor = "grabbing";
    clearTimeout(pressTimer);
    const pressed = memberAt(event.offsetX, event.offsetY);
    if (api.onLink && pressed >= 0 && pointers.size === 1) {
      const start = { x: event.offsetX, y: event.offsetY };
      pressTimer = setTimeout(() => {
        const now = pointers.get(event.pointerId);
        if (!now || pointers.size !== 1 || Math.hypot(now.x - start.x, now.y - start.y) > 8) { return; }
        linking = { from: pressed, x: now.x, y: now.y, pointer: event.pointerId };
        canvas.style.cursor = "crosshair";
        if (navigator.vibrate) { navigator.vibrate(15); }
        dirty = true;
      }, 450);
    }
  });
  canvas.addEventListener("pointermove", event => {
    const last = pointers.get(event.pointerId);
    if (!last) { return; }
    const current = { x: event.offsetX, y: event.offsetY };
    pointers.set(event.pointerId, current);
    if (linking && linking.pointer === event.pointerId) {
      linking.x = current.x; linking.y = current.y; dirty = true;
      return;
    }
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinchDistance > 0) { setScale(scale * distance / pinchDistance, (a.x + b.x) / 2, (a.y + b.y) / 2); }
      pinchDistance = distance;
      dragged = true;
      return;
    }
    const dx = current.x - last.x, dy = current.y - last.y;
    if (Math.abs(dx) + Math.abs(dy) > 0) {
      if (Math.abs(dx) + Math.abs(dy) > 2) { dragged = true; }
      originX -= dx / scale; originY -= dy / scale; dirty = true;
    }
  });
  function release(event) {
    clearTimeout(pressTimer);
    if (linking && linking.pointer === event.pointerId) {
      const from = linking.from, to = memberAt(event.offsetX, event.offsetY);
      linking = null;
      pointers.delete(event.pointerId);
      canvas.style.cursor = "grab";
      dirty = true;
      if (event.type === "pointerup" && to >= 0 && to !== from) { api.onLink(members[from][0], members[to][0]); }
      return;
    }
    const wasDrag = dragged || pointers.size > 1;
    pointers.delete(event.pointerId);
    if (pointers.size < 2) { pinchDistance = 0; }
    canvas.style.cursor = "grab";
    if (!wasDrag && event.type === "pointerup") {
      const index = memberAt(event.offsetX, event.offsetY);
      if (index >= 0) { select(index); }
    }
  }
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  canvas.addEventListener("wheel", event => {
    event.preventDefault();
    const delta = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
    setScale(scale * Math.exp(-delta * 0.0015), event.offsetX, event.offsetY);
  }, { passive: false });

  // Keys: arrows pan, + - 0 zoom; with someone selected, Alt+arrows and S walk the family.
  function move(target) { if (target !== undefined && target >= 0) { select(target); } }
  function sibling(step) {
    const siblings = siblingsOf[selected];
    if (!siblings) { return undefined; }
    return siblings[siblings.indexOf(selected) + step];
  }
  canvas.addEventListener("keydown", event => {
    const step = 80 / scale;
    if (event.altKey && selected >= 0) {
      const targets = { ArrowUp: parentsOf[selected][0], ArrowDown: childrenOf[selected][0], ArrowLeft: sibling(-1), ArrowRight: sibling(1) };
      if (event.key in targets) { event.preventDefault(); move(targets[event.key]); return; }
    }
    switch (event.key) {
      case "ArrowLeft": originX -= step; break;
      case "ArrowRight": originX += step; break;
      case "ArrowUp": originY -= step; break;
      case "ArrowDown": originY += step; break;
      case "+": case "=": setScale(scale * 1.25, width / 2, height / 2); break;
      case "-": case "_": setScale(scale / 1.25, width / 2, height / 2); break;
      case "0": fit(); break;
      case "s": case "S": if (selected >= 0 && spousesOf[selected].length) { move(spousesOf[selected][0].member); } break;
      case "Enter": if (selected >= 0) { showCard(selected); card.querySelector("a, button").focus(); } break;
      case "Escape": card.hidden = true; break;
      default: return;
    }
    event.preventDefault();
    dirty = true;
  });

  document.getElementById("fit").addEventListener("click", fit);
  document.getElementById("zoom-in").addEventListener("click", () => setScale(scale * 1.25, width / 2, height / 2));
  document.getElementById("zoom-out").addEventListener("click", () => setScale(scale / 1.25, width / 2, height / 2));
  document.getElementById("to-person").addEventListener("click", () => { if (selected >= 0) { scale = 1.5; centreOn(selected); } });
  linksButton.addEventListener("click", () => {
    showLinks = !showLinks;
    linksButton.setAttribute("aria-pressed", String(showLinks));
    dirty = true;
  });
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", readColours);
  window.addEventListener("resize", resize);

  // For pages that embed the chart, and for tests.
  const api = window.familyTreeViewer = {
    get scale() { return scale; },
    get origin() { return { x: originX, y: originY }; },
    get selected() { return selected >= 0 ? members[selected][0] : null; },
    /// The chart kind chosen on a card: { kind, of: id, ids }, or null when everyone is shown.
    get shown() { return shown ? { kind: shown.kind, of: members[shown.of][0], ids: [...shown.members].map(index => members[index][0]).sort() } : null; },
    /// Shows `kind` (ancestors, descendants, hourglass) of the member `id`, or everyone (null).
    show(kind, id) { const index = indexOfID.get(id); if (index !== undefined) { showKind(kind, index); } },
    get frameTimes() { return frameTimes.slice(); },
    get firstFrameAt() { return firstFrameAt; },
    /// The member a page too large to read whole starts at (`data.start`), or null.
    get start() { return data.start === null || data.start === undefined || !members[data.start] ? null : members[data.start][0]; },
    select(id) { const index = indexOfID.get(id); if (index !== undefined) { select(index, { zoom: true }); } },
    fit, zoom(factor, x, y) { setScale(scale * factor, x === undefined ? width / 2 : x, y === undefined ? height / 2 : y); },
    pan(dx, dy) { originX += dx / scale; originY += dy / scale; dirty = true; },
    worldPoint(x, y) { return { x: originX + x / scale, y: originY + y / scale }; },
    /// Shows a changed tree (data as `#family-tree-data` holds it) where the old one was: the
    /// person the view is on (the selected one when on screen, else the one `keeping` names when
    /// on screen, else the one nearest the middle) stays where they are on screen however the
    /// boxes moved, the selected person stays selected, and an open card is redrawn unless the
    /// page marked it as being edited (`data-editing`).
    load(newData, keeping) {
      const keep = selected >= 0 ? members[selected][0] : null;
      const anchor = personInView(keeping === undefined ? undefined : indexOfID.get(keeping));
      // A chart kind being shown is held by member positions, which a changed tree renumbers:
      // it is worked out again for the same person (who may have gained a child), or dropped.
      const showing = shown ? { kind: shown.kind, id: members[shown.of][0] } : null;
      index(newData);
      showLegend();
      const of = showing ? indexOfID.get(showing.id) : undefined;
      shown = of === undefined ? null : { kind: showing.kind, of, members: chartMembers(showing.kind, of) };
      dirty = true;
      selected = keep === null || !indexOfID.has(keep) ? -1 : indexOfID.get(keep);
      if (selected < 0) { card.hidden = true; } else if (!card.hidden && !card.dataset.editing) { showCard(selected); }
      // Search results are positions in the old data: looked for again in the new.
      if (results.length || (document.activeElement === searchInput && searchInput.value.trim())) { search(); }
      const found = anchor ? indexOfID.get(anchor.id) : undefined;
      if (found !== undefined) {
        const m = members[found];
        originX = m[2] + m[4] / 2 - anchor.x / scale; originY = m[3] + m[5] / 2 - anchor.y / scale;
      }
    },
    /// Puts changed people's entries in place of theirs (`[position, entry]` pairs, an entry as
    /// `#family-tree-data`'s `m` holds it) when their boxes stand where they stood: nothing else
    /// is worked out again, so a note saved in a tree of 100,000 shows at once. Returns false,
    /// changing nothing, when an entry is not of the person at its place or its box moved (the
    /// page then loads the whole chart).
    patch(entries) {
      const fits = entries.every(([position, entry]) => {
        const old = members[position];
        return Array.isArray(entry) && old !== undefined && old[0] === entry[0] && [2, 3, 4, 5].every(field => old[field] === entry[field]);
      });
      if (!fits) { return false; }
      for (const [position, entry] of entries) {
        members[position] = entry;
        searchKeys[position] = searchKey(entry);
        images.delete(position);
      }
      dirty = true;
      if (selected >= 0 && !card.hidden && !card.dataset.editing && entries.some(([position]) => position === selected)) { showCard(selected); }
      return true;
    },
    /// A member's name and close relatives (ids and names), or null.
    person(id) {
      const found = indexOfID.get(id);
      if (found === undefined) { return null; }
      const named = index => ({ id: members[index][0], name: members[index][9].n || members[index][1][0] || members[index][0] });
      return { ...named(found), spouses: spousesOf[found].map(spouse => named(spouse.member)), parents: parentsOf[found].map(named),
               children: childrenOf[found].map(named) };
    },
    /// The member under a point of the page's viewport, or null.
    memberAtPage(x, y) {
      const box = canvas.getBoundingClientRect(), found = memberAt(x - box.left, y - box.top);
      return found >= 0 ? members[found][0] : null;
    },
    /// Where a member's box is on the page, or null.
    boxOf(id) {
      const found = indexOfID.get(id);
      if (found === undefined) { return null; }
      const m = members[found], box = canvas.getBoundingClientRect();
      return { x: box.left + (m[2] - originX) * scale, y: box.top + (m[3] - originY) * scale, width: m[4] * scale, height: m[5] * scale };
    },
    /// Called with two member ids when someone presses on one person, holds, and drags to
    /// another (set by a page that can link people); null leaves long presses alone.
    onLink: null,
  };

  index(JSON.parse(document.getElementById("family-tree-data").textContent));
  showLegend();
  readColours();
  resize();
  initialView();
  if (!fromHash() && data.open !== null) { select(data.open, { zoom: true, fromHash: true }); }
  requestAnimationFrame(frame);
})();
