// A page just real enough to run the HTML chart's viewer script in node: the elements it looks
// up, events it listens for, and a canvas whose 2D context records what is drawn. The viewer
// never writes markup; an element here throws if anything sets `innerHTML`.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const viewerSource = readFileSync(join(root, "Sources/FamilyTreeRender/Viewer/viewer.js"), "utf8");

/// The data script of a page the Swift renderer wrote (the committed example).
export function exampleData() {
  const page = readFileSync(join(root, "examples/family.html"), "utf8");
  const match = page.match(/<script type="application\/json" id="family-tree-data">([\s\S]*?)<\/script>/);
  if (!match) { throw new Error("examples/family.html has no family-tree-data script"); }
  return JSON.parse(match[1]);
}

class FakeElement {
  constructor(tag, id) {
    this.tagName = tag.toUpperCase();
    this.id = id || "";
    this.children = [];
    this.attributes = new Map();
    this.listeners = new Map();
    this.style = {};
    this.dataset = {};
    this.hidden = false;
    this.className = "";
    this.value = "";
    this._text = "";
  }
  set innerHTML(_) { throw new Error("the viewer set innerHTML"); }
  get innerHTML() { throw new Error("the viewer read innerHTML"); }
  get textContent() { return this._text + this.children.map(child => child.textContent).join(""); }
  set textContent(text) { this._text = String(text); this.children = []; }
  setAttribute(name, value) { this.attributes.set(name, String(value)); }
  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }
  removeAttribute(name) { this.attributes.delete(name); }
  addEventListener(type, listener) {
    if (!this.listeners.has(type)) { this.listeners.set(type, []); }
    this.listeners.get(type).push(listener);
  }
  dispatch(type, fields = {}) {
    const event = { type, defaultPrevented: false, preventDefault() { this.defaultPrevented = true; }, ...fields };
    for (const listener of this.listeners.get(type) || []) { listener(event); }
    return event;
  }
  append(...nodes) { for (const node of nodes) { this.children.push(typeof node === "string" ? new FakeText(node) : node); } }
  appendChild(node) { this.children.push(node); return node; }
  replaceChildren(...nodes) { this.children = []; this.append(...nodes); }
  querySelector() { return this.children.find(child => child instanceof FakeElement) || new FakeElement("button"); }
  focus() { this.focused = true; }
  setPointerCapture() {}
  releasePointerCapture() {}
  getBoundingClientRect() { return { left: 0, top: 0, width: this.clientWidth || 0, height: this.clientHeight || 0 }; }
}

class FakeText {
  constructor(text) { this.textContent = String(text); }
}

/// A 2D context that keeps every call, so a test can see what a frame drew.
class RecordingContext {
  constructor() { this.calls = []; }
  measureText(text) { return { width: String(text).length * 7 }; }
  createLinearGradient() { return { addColorStop() {} }; }
}
for (const name of ["fillRect", "strokeRect", "rect", "fill", "stroke", "beginPath", "moveTo", "lineTo", "arc", "fillText", "drawImage",
  "setTransform", "setLineDash", "save", "restore", "clip", "clearRect", "closePath", "scale", "translate"]) {
  RecordingContext.prototype[name] = function (...args) { this.calls.push([name, ...args]); };
}

/// Runs the viewer on `data` in a page of `width` × `height` CSS pixels. Returns the page, its
/// elements, the viewer's own API (`window.familyTreeViewer`) and `frame()`, which runs the
/// animation frames the viewer asked for and returns the calls the last one drew.
export function openPage(data, { width = 1200, height = 800, hash = "" } = {}) {
  const elements = new Map();
  const element = (id, tag = "div") => { const made = new FakeElement(tag, id); elements.set(id, made); return made; };
  element("family-tree-data", "script").textContent = JSON.stringify(data);
  const canvas = element("chart", "canvas");
  canvas.clientWidth = width;
  canvas.clientHeight = height;
  const contexts = [];
  const withContext = target => {
    target.getContext = () => { const context = new RecordingContext(); contexts.push(context); target.context = context; return context; };
    return target;
  };
  withContext(canvas);
  for (const [id, tag] of [["search", "input"], ["results", "ul"], ["card", "aside"], ["legend", "p"], ["fit", "button"],
    ["zoom-in", "button"], ["zoom-out", "button"], ["to-person", "button"], ["links", "button"]]) { element(id, tag); }
  const document = {
    documentElement: new FakeElement("html"),
    getElementById: id => elements.get(id) || null,
    createElement: tag => withContext(new FakeElement(tag)),
    createTextNode: text => new FakeText(text),
  };
  let pendingFrames = [];
  const timers = [];
  const location = { hash };
  const window = {
    devicePixelRatio: 1,
    addEventListener(type, listener) { (window.listeners[type] ||= []).push(listener); },
    listeners: {},
    matchMedia: () => ({ matches: false, addEventListener() {} }),
  };
  const history = { pushState(_, __, url) { location.hash = url.startsWith("#") ? url : "#" + url.split("#")[1]; } };
  const sandbox = {
    window, document, location, history, console, performance, Map, Set, Math, JSON, Array, Uint8Array, Uint32Array, Float64Array,
    getComputedStyle: () => ({ getPropertyValue: name => "#" + (name.length * 123456).toString(16).slice(0, 6) }),
    requestAnimationFrame: callback => { pendingFrames.push(callback); return pendingFrames.length; },
    // Timers run only when a test says the time has passed (`runTimers`).
    setTimeout: (callback) => { timers.push(callback); return timers.length; },
    clearTimeout: (handle) => { if (handle) { timers[handle - 1] = null; } },
    navigator: {},
    Image: class { set src(value) { this._src = value; } get src() { return this._src; } },
  };
  vm.createContext(sandbox);
  vm.runInContext(viewerSource, sandbox, { filename: "viewer.js" });
  const viewer = window.familyTreeViewer;
  function frame() {
    const context = canvas.context;
    const start = context.calls.length;
    const frames = pendingFrames;
    pendingFrames = [];
    for (const callback of frames) { callback(performance.now()); }
    return context.calls.slice(start);
  }
  function runTimers() {
    const due = timers.splice(0);
    for (const callback of due) { if (callback) { callback(); } }
  }
  return { elements, canvas, viewer, frame, location, window, contexts, runTimers };
}
