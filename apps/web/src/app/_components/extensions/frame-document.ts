import { isFrameNonce } from "./frame-gate";

/**
 * The `srcdoc` of a browser half's sandboxed iframe (EXT-4). The frame runs with an opaque origin
 * (`sandbox="allow-scripts"`, never `allow-same-origin`) under a CSP that forbids every network fetch
 * and `eval`. Its only way out is the MessagePort the page hands over once: see `frame-protocol.ts`
 * and, for who gets that port, `frame-gate.ts`.
 */

export const FRAME_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  "img-src data: blob:",
  "font-src data:",
  "connect-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join("; ");

/** The handshake message that carries the bridge port; anything else on the window is ignored. */
export const BRIDGE_HELLO = "seam-bridge";

/** What the frame reports when its code starts a navigation of the frame while it runs. */
export const NAVIGATING_WHILE_RENDERING =
  "The browser half navigated away from its document while its code ran (location, a link, window.open or a reload). A browser half must stay on the page Seam gives it.";

/** How many render failures one frame reports before it goes quiet. */
const MAX_ERRORS = 5;

/**
 * A JS string literal that is safe inside an HTML `<script>` element: no `<` (so no `</script>` or
 * `<!--`), no `>`, and no U+2028/U+2029, which older engines treat as line terminators in strings.
 */
export function scriptStringLiteral(text: string): string {
  return JSON.stringify(text)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; font-size: 14px; line-height: 1.5; color: #1f1f24; background: #ffffff; }
@media (prefers-color-scheme: dark) { :root { color: #ececf1; background: #1f1f24; } }
html { height: auto; }
body { margin: 0; padding: 12px; }
#seam-root { display: flow-root; }
button, input, select, textarea { font: inherit; }
pre, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
`;

/**
 * Defines the frozen global `seam`, waits for exactly one `"seam-bridge"` message from the parent
 * window that carries a port, identifies itself on that port with the frame's nonce, then evaluates the
 * extension as a second inline script. The bootstrap's own `<script>` element (the nonce and the code)
 * leaves the DOM before the extension runs. Written in plain ES2017 so it runs unchanged in any current
 * browser.
 */
function bootstrap(codeLiteral: string, nonce: string): string {
  return `(function () {
"use strict";
var CODE = ${codeLiteral};
var NONCE = ${JSON.stringify(nonce)};
var self = document.currentScript;
if (self && self.parentNode) self.parentNode.removeChild(self);
var root = document.getElementById("seam-root");
var port = null;
var nextId = 1;
var pending = new Map();
var handlers = [];
var queued = [];
var errors = 0;
var evaluating = false;
var failedDuringEval = false;

function post(msg) { if (port) { try { port.postMessage(msg); } catch (e) { /* not cloneable */ } } }
function text(value) {
  // Chrome words a syntax error in an inserted script as a failed appendChild; the rest is what matters.
  if (value && typeof value === "object" && typeof value.message === "string") return (value.name ? value.name + ": " : "") + value.message.replace(/^Failed to execute 'appendChild' on 'Node': /, "");
  try { return String(value); } catch (e) { return "unknown error"; }
}
function report(message) {
  if (evaluating) failedDuringEval = true;
  if (errors >= ${MAX_ERRORS}) return;
  errors++;
  post({ t: "error", message: String(message).slice(0, 2000) });
}

window.addEventListener("error", function (event) {
  var where = event.lineno ? " (line " + event.lineno + (event.colno ? ", column " + event.colno : "") + ")" : "";
  report((event.error ? text(event.error) : event.message || "Script error") + where);
});
window.addEventListener("unhandledrejection", function (event) {
  report("Unhandled promise rejection: " + text(event.reason));
});
// Navigating the frame away while the extension's code runs (location, links, window.open, reload):
// Chromium runs beforeunload synchronously, so the run fails now instead of reporting ready. Later
// navigations are caught by the page, which sees the frame load again (see frame-gate.ts). Registered
// first and capturing, so no listener of the extension runs before it.
window.addEventListener("beforeunload", function () {
  if (evaluating) report(${JSON.stringify(NAVIGATING_WHILE_RENDERING)});
}, true);

function deliver(message) {
  if (handlers.length === 0) { if (queued.length < 100) queued.push(message); return; }
  handlers.slice().forEach(function (fn) {
    try { fn(message); } catch (e) { report("seam.onMessage handler threw: " + text(e)); }
  });
}

function call(method, params) {
  return new Promise(function (resolve, reject) {
    if (typeof method !== "string" || method === "") { reject(new TypeError("seam.call(method, params): method must be a non-empty string")); return; }
    if (!port) { reject(new Error("seam.call: the bridge is not connected")); return; }
    var id = nextId++;
    pending.set(id, { resolve: resolve, reject: reject });
    try { port.postMessage({ t: "call", id: id, method: method, params: params === undefined ? null : params }); }
    catch (e) { pending.delete(id); reject(new TypeError("seam.call: params must be JSON data (" + text(e) + ")")); }
  });
}

function onMessage(fn) {
  if (typeof fn !== "function") throw new TypeError("seam.onMessage(fn): fn must be a function");
  handlers.push(fn);
  if (queued.length) { var backlog = queued; queued = []; setTimeout(function () { backlog.forEach(deliver); }, 0); }
  var active = true;
  return function dispose() {
    if (!active) return;
    active = false;
    var i = handlers.indexOf(fn);
    if (i >= 0) handlers.splice(i, 1);
  };
}

Object.defineProperty(window, "seam", {
  value: Object.freeze({ root: root, call: call, onMessage: onMessage }),
  writable: false, configurable: false, enumerable: true
});

function onPortMessage(event) {
  var data = event.data;
  if (!data || typeof data !== "object") return;
  if (data.t === "result") {
    var p = pending.get(data.id);
    if (!p) return;
    pending.delete(data.id);
    if (data.ok) p.resolve(data.value); else p.reject(new Error(typeof data.error === "string" ? data.error : "the call failed"));
  } else if (data.t === "message") {
    deliver(data.message);
  }
}

function watchSize() {
  var last = -1;
  function send() {
    // Plus a horizontal scrollbar, if wide content put one under the page.
    var bar = window.innerHeight - document.documentElement.clientHeight;
    var h = Math.ceil(document.documentElement.getBoundingClientRect().height) + (bar > 0 ? bar : 0);
    if (h !== last) { last = h; post({ t: "size", height: h }); }
  }
  if (typeof ResizeObserver === "function") new ResizeObserver(send).observe(document.documentElement);
  send();
}

function start() {
  watchSize();
  var script = document.createElement("script");
  script.textContent = CODE;
  evaluating = true;
  // An inline classic script runs synchronously on insertion; its errors reach the listener above.
  document.body.appendChild(script);
  evaluating = false;
  if (!failedDuringEval) post({ t: "ready" });
}

function onWindowMessage(event) {
  if (event.source !== window.parent || event.data !== ${JSON.stringify(BRIDGE_HELLO)} || !event.ports || !event.ports[0]) return;
  // One handshake only: later window messages (from siblings or anyone else) are never read.
  window.removeEventListener("message", onWindowMessage);
  port = event.ports[0];
  port.onmessage = onPortMessage;
  // The page listens to nothing else until this arrives: only the document Seam wrote knows the nonce.
  post({ t: "hello", nonce: NONCE });
  NONCE = null;
  start();
}
window.addEventListener("message", onWindowMessage);
})();`;
}

/**
 * The complete HTML document for one browser half. The code is embedded only as an escaped string
 * literal; `nonce` (from `newFrameNonce`) is what the document echoes to claim its bridge.
 */
export function buildFrameDocument(browserCode: string, nonce: string): string {
  if (!isFrameNonce(nonce)) throw new TypeError("buildFrameDocument: nonce must be 32 hex digits (newFrameNonce)");
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    '<div id="seam-root"></div>',
    `<script>${bootstrap(scriptStringLiteral(browserCode), nonce)}</script>`,
    "</body>",
    "</html>",
  ].join("\n");
}
