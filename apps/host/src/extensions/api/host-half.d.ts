// The host half's API exactly as ../worker.mjs installs it (SPEC EXT-1, EXT-3). This file is the one
// source of the signatures and doc comments extension_inspect shows the model: ../docs.ts parses it at
// runtime, and test/extensions/docs.test.ts fails when it and the runtime `api` disagree. Keep to the
// format rules at the top of ../docs.ts. Limits quoted here are DEFAULT_LIMITS in ../runner.ts.
//
// A module (`export {}` at the end), so none of this leaks into the host's own global scope: `api` is
// a global of the extension's realm, not of the host.

/**
 * The host half's only global. The host half is a classic script, not a module: it runs in its own
 * worker thread with no require, import, process, console, fetch, Node timers, filesystem or network,
 * and eval / new Function are disabled. `api` and every object in it are frozen. Only JSON crosses
 * between the extension and the host. A top-level throw fails the run; a callback that throws (tool
 * handler, handle handler, listener, timer) is logged, kept as the last failure, and the extension
 * keeps running. Stopping the extension disposes everything it registered.
 */
declare const api: ExtensionHostApi;

/** What a host half can do; everything goes through here. */
interface ExtensionHostApi {
  /** Tools the model of this session can call. */
  readonly tools: ExtensionTools;
  /** Events between this extension and the host. */
  readonly events: ExtensionEvents;
  /**
   * Appends one line to the extension's log (shown by extension_inspect and on the extensions page):
   * strings as they are, other values as JSON, separated by spaces. Lines over 2,000 characters are
   * cut and the last 200 lines are kept. Throws when the line's JSON is over 64 KB.
   * `log`, `send` and `events.emit` share a budget of 200 calls per second; the excess is dropped and
   * the count logged.
   */
  log(...values: unknown[]): void;
  /**
   * Calls `fn` once after `ms` milliseconds (default 0, clamped to 0…2,147,483,647) and returns the
   * timer's id for `clearTimeout`. Throws when 100 timers are pending. At most 100 timer callbacks run
   * per second; later ones wait for the next second (logged). There is no setInterval: re-arm from the
   * callback.
   */
  setTimeout(fn: () => void | Promise<void>, ms?: number): number;
  /** Cancels a pending timer; an unknown or already fired id is ignored. */
  clearTimeout(id: number): void;
  /**
   * Answers calls from this extension's browser half: its `seam.call(method, params)` resolves with
   * what `fn` returns (or its promise resolves to; undefined becomes null) and rejects with the message
   * if `fn` throws; a result over 256 KB of JSON or nested deeper than 128 levels is refused. A call must answer within 10 s, or the host half is terminated. Handling the same
   * method again replaces the handler. Returns a disposer that removes `fn` if it is still the handler.
   */
  handle(method: string, fn: (params: Json) => Json | Promise<Json>): Disposer;
  /**
   * Sends `message` to this extension's browser half, whose `seam.onMessage` listeners receive it.
   * Throws (and logs) when the message is not JSON, is nested deeper than 128 levels or its JSON is
   * over 64 KB; nothing is sent then. Counts against the 200 per second budget shared with `log` and
   * `events.emit`.
   */
  send(message: Json): void;
  /** Services: provide one to the other extensions of this session, or call one. */
  readonly services: ExtensionServices;
  /** The host's web seam, the same one web_fetch and web_search use (a host service). */
  readonly web: ExtensionWeb;
}

/** Named services shared between the extensions running in one session (extension_inspect lists them). */
interface ExtensionServices {
  /**
   * Provides the service `name` (a letter, then up to 63 letters, digits, `_`, `-` or `.`; not `web`)
   * with the given methods to the other extensions of this session. Each method gets the caller's
   * JSON `args` and returns (or resolves to) JSON; a throw rejects the caller's call; a call must
   * answer within 10 s, or this host half is terminated. When two running extensions provide the same
   * name, the one started first answers. Returns the disposer, or null when the name is refused or
   * the extension already provides 20 services (logged). Throws when `methods` has no functions or
   * this extension already provides `name`.
   */
  provide(name: string, methods: { [method: string]: (args: Json) => Json | Promise<Json> }): Disposer | null;
  /**
   * Calls `method` of the service `name` — `web` (the host's: `fetch`, `search`, taking `{ url }` /
   * `{ queries: [...] }`) or one a running extension of this session provides — and resolves with its
   * JSON result. Rejects with the reason when nothing provides it, the method is missing or the call
   * failed. At most 8 service and web calls may be in flight; a ninth throws.
   */
  call(name: string, method: string, args?: Json): Promise<Json>;
}

/** Web access through the host: the SSRF guard, size and time limits and providers of Settings → Web apply. */
interface ExtensionWeb {
  /**
   * Fetches `url` like the web_fetch tool (`options`: further web_fetch arguments, currently none)
   * and resolves with its result object (the page as Markdown with its metadata). Private, loopback
   * and link-local addresses are refused. Rejects with the reason when the fetch fails or web_fetch
   * is not available. At most 8 web and service calls may be in flight; a ninth throws.
   */
  fetch(url: string, options?: JsonObject): Promise<Json>;
  /**
   * Searches for `query` like the web_search tool (`options`: further web_search arguments, currently
   * none) and resolves with its result object (sources with titles and URLs). Rejects when no search
   * provider is available (see Settings → Web).
   */
  search(query: string, options?: JsonObject): Promise<Json>;
}

/** Tools the extension adds to its session. */
interface ExtensionTools {
  /**
   * Registers a tool the model of this session can call, named as given (no prefix). The handler gets
   * the model's arguments and returns (or resolves to) the result: a string is shown to the model as
   * it is, anything else as JSON; undefined becomes null; over 256 KB of JSON (`result_too_large`) or
   * nested deeper than 128 levels (`result_too_deep`) fails the call at once. A throw
   * or rejection fails the call with its message. A call must answer within 10 s, or the host half is
   * terminated. Returns the tool's disposer, or null when refused: an invalid name, a name this
   * extension already registered, or 50 tools reached (the refusal is logged). A name another tool of
   * the session already has is refused by the host after this returns (`duplicate_tool`, logged).
   * Throws when `def.name` is not a string or `handler` is not a function.
   */
  register(def: ToolDefinition, handler: (args: JsonObject) => Json | Promise<Json>): Disposer | null;
}

/** Events delivered by the host and emitted to it. */
interface ExtensionEvents {
  /**
   * Calls `fn` with the payload of each event named `name` the host delivers to this extension, until
   * the returned disposer is called: events the other extensions running in this session emit, and
   * the host's `extension.started` {name, version} and `extension.stopped` {name, version, state}.
   * A listener that throws or rejects is logged.
   */
  on(name: string, fn: (payload: Json) => void | Promise<void>): Disposer;
  /**
   * Emits an event named `name` to the host, which delivers it to the other extensions running in
   * this session; `payload` defaults to null. Throws (and logs) when the payload is not JSON, is nested
   * deeper than 128 levels or its JSON is over 64 KB; nothing is emitted then. Counts against the 200
   * per second budget shared with `log` and `send`.
   */
  emit(name: string, payload?: Json): void;
}

/** How a tool presents itself to the model. */
interface ToolDefinition {
  /** 1–64 letters, digits, `_` or `-`; unique in the session. */
  name: string;
  /** What the tool does and when to use it, for the model; cut at 4,000 characters. */
  description?: string;
  /** JSON Schema of the arguments object; default `{ type: "object" }`. */
  inputSchema?: JsonSchema;
}

/** Undoes a registration; calling it again does nothing. */
type Disposer = () => void;

/** A value that survives JSON.stringify / JSON.parse unchanged. */
type Json = null | boolean | number | string | Json[] | JsonObject;

/** A JSON object. */
type JsonObject = { [key: string]: Json };

/** A JSON Schema object (draft 2020-12), e.g. `{ type: "object", properties: { n: { type: "number" } }, required: ["n"] }`. */
type JsonSchema = JsonObject;

export {};
