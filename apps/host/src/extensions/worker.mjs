// The host half of one extension (SPEC EXT-3). Runs in its own worker_threads Worker (heap-capped by
// the runner) and evaluates the extension's source in a node:vm context with code generation from
// strings disabled and no Node globals. Plain ESM, so it loads from src/ (vitest) and dist/.
//
// Isolation rule: nothing but strings crosses between this worker's realm and the extension's realm.
// The capability API is built *inside* the context by BOOTSTRAP; it closes over a single bridge
// function that takes (op, json) and returns a JSON string or undefined, and never throws (an error
// object from this realm would hand the extension this realm's Function constructor). Calls into the
// extension go through `dispatch(kind, json)`, also defined inside the context. The bridge limits
// (depth, size) are handed over as JSON text too.
import { parentPort, workerData } from "node:worker_threads";
import vm from "node:vm";

const { code, filename, limits } = workerData;
const port = parentPort;

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const SERVICE_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const MAX_DESCRIPTION_CHARS = 4_000;
const MAX_TIMER_MS = 2_147_483_647;

/** Evaluated inside the context; returns the dispatcher after installing `api` on the global. */
const BOOTSTRAP = `(function install(bridge, global, limitsJson) {
  "use strict";
  const stringify = JSON.stringify, parse = JSON.parse, freeze = Object.freeze;
  const defineProperty = Object.defineProperty, StringFn = String, ErrorCtor = Error, P = Promise;
  const ObjectCreate = Object.create, isArray = Array.isArray;
  const L = parse(limitsJson);
  const tools = new Map(), listeners = new Map(), timers = new Map(), handles = new Map(), services = new Map(), provided = new Map();

  const describe = (e) => {
    try {
      if (e && typeof e === "object" && typeof e.message === "string") return (e.name ? e.name + ": " : "") + e.message;
      return StringFn(e);
    } catch { return "(unprintable error)"; }
  };

  // Bridge limits (EXT-3). encode() is JSON.stringify that refuses, before building the text, anything
  // nested deeper than L.maxDepth (+ extra wrapper levels) or certainly longer than maxChars: the
  // replacer sees every value stringify writes (after getters, toJSON and proxy traps), tracks the open
  // objects by their holder, and adds up a lower bound of the text's length. Nothing in it goes
  // through a prototype the extension could have changed (a null-prototype stack, captured functions).
  // A refusal throws OVERFLOW, which no extension code can see or forge, with the reason in \`overflow\`.
  const OVERFLOW = ObjectCreate(null);
  let overflow = null;
  const refuseAs = (deep, maxChars) => {
    overflow = deep
      ? { deep: true, text: "nested deeper than " + L.depthText + " levels" }
      : { deep: false, text: "larger than " + (maxChars === L.maxResultChars ? L.resultText : L.payloadText) + " characters of JSON" };
    return OVERFLOW;
  };
  const encode = (value, maxChars, extraLevels) => {
    const open = ObjectCreate(null);
    const maxDepth = L.maxDepth + extraLevels;
    let depth = 0, size = 0;
    const replacer = function (key, v) {
      if (depth === 0) open[depth++] = this;
      else while (depth > 1 && open[depth - 1] !== this) open[--depth] = undefined;
      const type = typeof v;
      const written = v !== undefined && type !== "function" && type !== "symbol";
      if (depth > 1) size += isArray(this) ? 1 : written ? key.length + 3 : 0;
      if (type === "string") size += v.length + 2;
      else if (written) size += 1;
      if (size > maxChars) throw refuseAs(false, maxChars);
      if (v !== null && type === "object") {
        if (depth > maxDepth) throw refuseAs(true, maxChars);
        open[depth++] = v;
      }
      return v;
    };
    const text = stringify(value === undefined ? null : value, replacer);
    if (text === undefined) return "null";
    if (text.length > maxChars) throw refuseAs(false, maxChars);
    return text;
  };
  const report = (message) => { try { bridge("refused", stringify({ message })); } catch {} };
  /** Calls the bridge; \`what\` names the payload in a refusal ("api.send: the message"). */
  const call = (op, data, what) => {
    // A result's wrapper is built here ({ id, ok, json | error }); its value was encoded with its own limits.
    if (op === "result") return reply(bridge(op, stringify(data)));
    let json;
    try { json = encode(data, L.maxPayloadChars, 1); } catch (e) {
      if (e !== OVERFLOW) throw e;
      const message = (what || "api " + op + ": the call") + " is " + overflow.text;
      report(message + "; refused, nothing was " + (op === "send" ? "sent" : op === "emit" ? "emitted" : "done"));
      throw new ErrorCtor(message);
    }
    let out;
    try { out = bridge(op, json); } catch { throw new ErrorCtor("the host bridge failed"); }
    return reply(out);
  };
  const reply = (out) => {
    if (out === undefined) return undefined;
    const parsed = parse(out);
    if (parsed.error !== undefined) throw new ErrorCtor(parsed.error);
    return parsed.value;
  };
  const failure = (where, e) => { try { call("failure", { where, message: describe(e) }); } catch {} };
  const text = (args) => {
    let out = "";
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      let s;
      try { s = typeof a === "string" ? a : (a instanceof ErrorCtor ? describe(a) : stringify(a)); } catch { s = StringFn(a); }
      out += (i ? " " : "") + (s === undefined ? StringFn(a) : s);
    }
    return out;
  };
  const requireFunction = (fn, what) => { if (typeof fn !== "function") throw new TypeError(what + " must be a function"); };

  const api = {
    tools: freeze({
      /** Registers a tool; returns its disposer, or null when the host refused it (see api.log output). */
      register(def, handler) {
        requireFunction(handler, "the tool handler");
        const d = def && typeof def === "object" ? def : {};
        if (typeof d.name !== "string") throw new TypeError('a tool needs a name: api.tools.register({ name: "my_tool", … }, handler)');
        const name = d.name;
        if (tools.has(name)) { call("log", { line: "refused tool " + name + ": already registered by this extension" }); return null; }
        const ok = call("register", { name, description: d.description === undefined ? "" : StringFn(d.description), inputSchema: d.inputSchema === undefined ? { type: "object" } : d.inputSchema }, "api.tools.register: the definition");
        if (!ok) return null;
        tools.set(name, handler);
        let live = true;
        return () => { if (!live) return; live = false; tools.delete(name); call("unregister", { name }); };
      },
    }),
    events: freeze({
      /** Listens for host events named \`name\`; returns a disposer. */
      on(name, fn) {
        requireFunction(fn, "the listener");
        const key = StringFn(name);
        let set = listeners.get(key);
        if (!set) listeners.set(key, (set = new Set()));
        const entry = { fn };
        set.add(entry);
        return () => { set.delete(entry); };
      },
      emit(name, payload) { return call("emit", { name: StringFn(name), payload }, "api.events.emit: the payload"); },
    }),
    log(...args) { return call("log", { line: text(args) }, "api.log: the line"); },
    setTimeout(fn, ms) {
      requireFunction(fn, "the timer callback");
      const id = call("setTimeout", { ms: typeof ms === "number" ? ms : 0 });
      timers.set(id, fn);
      return id;
    },
    clearTimeout(id) {
      if (!timers.delete(id)) return;
      call("clearTimeout", { id });
    },
    /** Answers calls from this extension's browser half. */
    handle(method, fn) {
      requireFunction(fn, "the handler");
      const key = StringFn(method);
      handles.set(key, fn);
      return () => { if (handles.get(key) === fn) handles.delete(key); };
    },
    send(message) { return call("send", { message }, "api.send: the message"); },
    services: freeze({
      /** Provides a named service to the other extensions of this session; returns its disposer. */
      provide(name, methods) {
        const key = StringFn(name);
        if (!methods || typeof methods !== "object") throw new TypeError("api.services.provide(name, methods): methods must be an object of functions");
        const table = new Map();
        for (const method of Object.keys(methods)) {
          requireFunction(methods[method], "service method " + method);
          table.set(method, methods[method]);
        }
        if (table.size === 0) throw new TypeError("api.services.provide(name, methods): give at least one method");
        if (provided.has(key)) throw new ErrorCtor("this extension already provides " + key);
        if (!call("provide", { name: key, methods: [...table.keys()] })) return null;
        provided.set(key, table);
        let live = true;
        return () => { if (!live) return; live = false; provided.delete(key); call("unprovide", { name: key }); };
      },
      /** Calls a method of a service: the host's (web) or one another extension of this session provides. */
      call(name, method, args) { return service(StringFn(name), StringFn(method), args === undefined ? null : args); },
    }),
    web: freeze({
      /** Fetches a URL through the host's web seam (SSRF guard, limits); resolves with its result. */
      fetch(url, options) { return service("web", "fetch", { ...(options && typeof options === "object" ? options : {}), url: StringFn(url) }); },
      /** Searches the web through the host's web seam; resolves with its results. */
      search(query, options) { return service("web", "search", { ...(options && typeof options === "object" ? options : {}), queries: [StringFn(query)] }); },
    }),
  };
  // A host service call: the bridge hands out an id and the answer arrives later through dispatch.
  function service(name, method, args) {
    const id = call("service", { service: name, method, args }, "the arguments of " + name + "." + method);
    return new P((resolve, reject) => services.set(id, { resolve, reject }));
  }
  freeze(api);
  // V8 gives every context an inspector-only console; the extension logs through api.log.
  delete global.console;
  defineProperty(global, "api", { value: api, writable: false, enumerable: false, configurable: false });

  // Every call gets an answer: when even the answer cannot cross, a plain failure does, so nothing is
  // left waiting for the call timeout.
  const answer = (m) => {
    try { call("result", m); } catch (e) {
      try { call("result", { id: m.id, ok: false, error: "the answer could not cross the bridge: " + describe(e) }); } catch {}
    }
  };
  const settle = (id, run) => {
    let result;
    try { result = run(); } catch (e) { failure("call", e); answer({ id, ok: false, error: describe(e) }); return; }
    P.resolve(result).then(
      (value) => {
        let json;
        try { json = encode(value, L.maxResultChars, 0); } catch (e) {
          if (e === OVERFLOW) answer({ id, ok: false, reason: overflow.deep ? "result_too_deep" : "result_too_large", error: "the result is " + overflow.text });
          else answer({ id, ok: false, error: "the result is not JSON: " + describe(e) });
          return;
        }
        answer({ id, ok: true, json });
      },
      (e) => { failure("call", e); answer({ id, ok: false, error: describe(e) }); },
    ).then(undefined, () => {});
  };
  const guard = (where, fn, arg) => {
    try {
      const r = fn(arg);
      if (r && typeof r.then === "function") r.then(undefined, (e) => failure(where, e));
    } catch (e) { failure(where, e); }
  };

  return function dispatch(kind, json) {
    const m = parse(json);
    if (kind === "invoke") {
      const table = m.target === "service" ? provided.get(m.service) : m.target === "handle" ? handles : tools;
      const fn = table && table.get(m.name);
      if (!fn) {
        const what = m.target === "service" ? "no method " + m.name + " in service " + m.service : (m.target === "handle" ? "no handler for " : "no tool named ") + m.name;
        answer({ id: m.id, ok: false, missing: true, error: what });
        return;
      }
      settle(m.id, () => fn(m.args));
    } else if (kind === "event") {
      const set = listeners.get(m.name);
      if (set) for (const entry of [...set]) guard("event " + m.name, entry.fn, m.payload);
    } else if (kind === "service") {
      const pending = services.get(m.id);
      if (!pending) return;
      services.delete(m.id);
      if (m.ok) pending.resolve(m.value);
      else pending.reject(new ErrorCtor(m.error));
    } else if (kind === "timer") {
      const fn = timers.get(m.id);
      if (!fn) return;
      timers.delete(m.id);
      guard("timer", fn, undefined);
    }
  };
})`;

// ---- limits and rate ----------------------------------------------------------------------------
let toolCount = 0;
let toolRefusals = 0;
let windowStart = Date.now();
let windowCount = 0;
let dropped = 0;
const liveTimers = new Map();
let nextTimerId = 1;
const MAX_PENDING_SERVICE_CALLS = 8;
const MAX_PROVIDED_SERVICES = 20;
let providedCount = 0;
let serviceRefusals = 0;
let pendingServiceCalls = 0;
let nextServiceId = 1;

const post = (message) => port.postMessage(message);
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const TOO_LARGE = (max) => `larger than ${grouped(max)} characters of JSON`;
const TOO_DEEP = `nested deeper than ${grouped(limits.maxJsonDepth)} levels`;

/**
 * Whether JSON text nests objects and arrays deeper than `max` (a scan, no parse). The extension's side
 * refuses such values before they are serialized; this is the bridge's own check, so the limit holds
 * whatever happens in the extension's realm.
 */
function tooDeep(text, max) {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Timer callbacks run per second; later ones are deferred to the next second and counted. */
let timerWindowStart = Date.now();
let timerWindowCount = 0;
let deferredTimers = 0;
function fireTimer(id) {
  const now = Date.now();
  if (now - timerWindowStart >= 1000) flushTimers(now);
  if (timerWindowCount >= limits.maxTimerCallbacksPerSecond) {
    deferredTimers++;
    liveTimers.set(id, setTimeout(() => fireTimer(id), Math.max(1, timerWindowStart + 1000 - now)));
    return;
  }
  timerWindowCount++;
  liveTimers.delete(id);
  enter("timer", { id });
}
function flushTimers(now = Date.now()) {
  if (deferredTimers > 0) {
    post({ t: "limit", what: "timers", message: `timer budget: deferred ${deferredTimers} timer callback(s) to the next second (more than ${limits.maxTimerCallbacksPerSecond} timer callbacks per second)` });
  }
  deferredTimers = 0;
  timerWindowCount = 0;
  timerWindowStart = now;
}

/** send/emit/log share one budget per second; the rest is dropped and reported once per window. */
function admit() {
  const now = Date.now();
  if (now - windowStart >= 1000) flushDropped(now);
  if (windowCount >= limits.maxMessagesPerSecond) {
    dropped++;
    return false;
  }
  windowCount++;
  return true;
}
function flushDropped(now = Date.now()) {
  if (dropped > 0) post({ t: "dropped", count: dropped });
  dropped = 0;
  windowCount = 0;
  windowStart = now;
}

const ok = (value) => (value === undefined ? undefined : JSON.stringify({ value }));
const refuse = (error) => JSON.stringify({ error });

function bridge(op, json) {
  try {
    if (typeof json !== "string") return refuse("bad bridge call");
    if (op !== "result" && json.length > limits.maxPayloadChars) return refuse(`the payload is ${TOO_LARGE(limits.maxPayloadChars)}`);
    if (op !== "result" && tooDeep(json, limits.maxJsonDepth + 1)) return refuse(`the payload is ${TOO_DEEP}`);
    const m = JSON.parse(json);
    switch (op) {
      case "register": {
        const name = String(m.name);
        if (!TOOL_NAME.test(name)) {
          if (admit()) post({ t: "log", line: `refused tool ${JSON.stringify(name).slice(0, 80)}: use 1-64 letters, digits, "_" or "-"` });
          return ok(false);
        }
        if (toolCount >= limits.maxTools) {
          if (toolRefusals++ === 0) post({ t: "limit", what: "tools", message: `refused tool ${name}: the limit of ${limits.maxTools} tools is reached (further refusals are counted, not logged)` });
          return ok(false);
        }
        toolCount++;
        const inputSchema = m.inputSchema && typeof m.inputSchema === "object" && !Array.isArray(m.inputSchema) ? m.inputSchema : { type: "object" };
        post({ t: "register", name, description: String(m.description ?? "").slice(0, MAX_DESCRIPTION_CHARS), inputSchema });
        return ok(true);
      }
      case "unregister":
        toolCount--;
        post({ t: "unregister", name: String(m.name) });
        return undefined;
      case "log":
        if (admit()) post({ t: "log", line: String(m.line).slice(0, limits.maxLogLineChars) });
        return undefined;
      case "emit":
        if (admit()) post({ t: "emit", name: String(m.name), payload: m.payload ?? null });
        return undefined;
      case "send":
        if (admit()) post({ t: "send", message: m.message ?? null });
        return undefined;
      case "setTimeout": {
        if (liveTimers.size >= limits.maxTimers) return refuse(`timer limit reached (${limits.maxTimers} pending)`);
        const id = nextTimerId++;
        const ms = Math.min(Math.max(Number(m.ms) || 0, 0), MAX_TIMER_MS);
        liveTimers.set(id, setTimeout(() => fireTimer(id), ms));
        return ok(id);
      }
      case "clearTimeout": {
        const timer = liveTimers.get(m.id);
        if (timer) clearTimeout(timer);
        liveTimers.delete(m.id);
        return undefined;
      }
      case "result":
        if (m.ok && m.json.length > limits.maxResultChars) {
          post({ t: "result", id: m.id, ok: false, reason: "result_too_large", error: `the result is ${TOO_LARGE(limits.maxResultChars)}` });
        } else if (m.ok && tooDeep(m.json, limits.maxJsonDepth)) {
          post({ t: "result", id: m.id, ok: false, reason: "result_too_deep", error: `the result is ${TOO_DEEP}` });
        } else if (m.ok) {
          post({ t: "result", id: m.id, ok: true, value: JSON.parse(m.json) });
        } else {
          const reason = m.reason === "result_too_deep" || m.reason === "result_too_large" ? m.reason : undefined;
          post({ t: "result", id: m.id, ok: false, missing: m.missing === true, reason, error: String(m.error).slice(0, 2_000) });
        }
        return undefined;
      case "refused":
        if (admit()) post({ t: "limit", what: "payload", message: String(m.message).slice(0, 2_000) });
        return undefined;
      case "provide": {
        const name = String(m.name);
        if (!SERVICE_NAME.test(name) || name === "web") {
          if (admit()) post({ t: "log", line: `refused service ${JSON.stringify(name).slice(0, 80)}: use 1-64 letters, digits, "_", "-" or ".", starting with a letter, and not "web"` });
          return ok(false);
        }
        if (providedCount >= MAX_PROVIDED_SERVICES) {
          if (serviceRefusals++ === 0) post({ t: "limit", what: "services", message: `refused service ${name}: at most ${MAX_PROVIDED_SERVICES} services per extension (further refusals are counted, not logged)` });
          return ok(false);
        }
        providedCount++;
        const methods = Array.isArray(m.methods) ? m.methods.map(String).slice(0, 50) : [];
        post({ t: "provide", name, methods });
        return ok(true);
      }
      case "unprovide":
        providedCount--;
        post({ t: "unprovide", name: String(m.name) });
        return undefined;
      case "service": {
        if (pendingServiceCalls >= MAX_PENDING_SERVICE_CALLS) return refuse(`too many service calls in flight (at most ${MAX_PENDING_SERVICE_CALLS}); await the earlier ones`);
        pendingServiceCalls++;
        const id = nextServiceId++;
        post({ t: "service", id, service: String(m.service), method: String(m.method), args: m.args ?? null });
        return ok(id);
      }
      case "failure":
        post({ t: "failure", where: String(m.where).slice(0, 200), message: String(m.message).slice(0, 2_000) });
        return undefined;
      default:
        return refuse(`unknown operation ${String(op)}`);
    }
  } catch (error) {
    return refuse(`host bridge error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

// ---- the context ---------------------------------------------------------------------------------
// A null-prototype sandbox: `this.constructor` inside resolves to the context's own intrinsics, never
// to this realm's Object/Function.
const context = vm.createContext(Object.create(null), {
  name: filename,
  codeGeneration: { strings: false, wasm: false },
});
const install = vm.runInContext(BOOTSTRAP, context, { filename: "seam:extension-bootstrap" });
const globalOfContext = vm.runInContext("globalThis", context);
const dispatch = install(bridge, globalOfContext, JSON.stringify({
  maxDepth: limits.maxJsonDepth,
  maxResultChars: limits.maxResultChars,
  maxPayloadChars: limits.maxPayloadChars,
  depthText: grouped(limits.maxJsonDepth),
  resultText: grouped(limits.maxResultChars),
  payloadText: grouped(limits.maxPayloadChars),
}));

function enter(kind, message) {
  try {
    dispatch(kind, JSON.stringify(message));
  } catch (error) {
    post({ t: "failure", where: kind, message: error instanceof Error ? error.message : String(error) });
  }
}

port.on("message", (m) => {
  if (m.t === "invoke") enter("invoke", { id: m.id, target: m.target, name: m.name, service: m.service, args: m.args ?? null });
  else if (m.t === "event") enter("event", { name: m.name, payload: m.payload ?? null });
  else if (m.t === "serviceResult") {
    pendingServiceCalls--;
    enter("service", m.ok ? { id: m.id, ok: true, value: m.value ?? null } : { id: m.id, ok: false, error: String(m.error) });
  }
});

// Heartbeats prove the event loop turns; a callback stuck in a loop stops them and the host's
// watchdog terminates this worker.
setInterval(() => {
  post({ t: "beat" });
  if (Date.now() - windowStart >= 1000) flushDropped();
  if (Date.now() - timerWindowStart >= 1000) flushTimers();
}, limits.heartbeatMs);

try {
  // No importModuleDynamically: import() inside the extension rejects.
  new vm.Script(code, { filename }).runInContext(context, { timeout: limits.evalTimeoutMs, breakOnSigint: false });
} catch (error) {
  const timedOut = error && error.code === "ERR_SCRIPT_EXECUTION_TIMEOUT";
  const message = timedOut
    ? `evaluation did not finish within ${limits.evalTimeoutMs} ms`
    : describeForeign(error);
  post({ t: "evalFailed", limit: timedOut, message });
}
// Ready only after the evaluation's microtasks ran (setImmediate comes after them); a microtask that
// never returns keeps "ready" from arriving and the host's evaluation budget terminates the worker.
setImmediate(() => post({ t: "ready" }));

function describeForeign(error) {
  try {
    if (error && typeof error === "object") {
      const name = typeof error.name === "string" ? error.name : "Error";
      const where = typeof error.stack === "string" ? (error.stack.split("\n").find((l) => l.includes(filename)) ?? "").trim() : "";
      return `${name}: ${String(error.message)}${where ? ` (${where.replace(/^at /, "at ")})` : ""}`;
    }
    return String(error);
  } catch {
    return "the extension threw an unprintable value";
  }
}
