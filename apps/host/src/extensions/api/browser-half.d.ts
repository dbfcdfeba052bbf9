// The browser half's API (SPEC EXT-1, EXT-4): the contract the web app's sandboxed iframe implements.
// ../docs.ts parses this file at runtime for extension_inspect; keep to the format rules at its top.
//
// A module (`export {}` at the end), so none of this leaks into the host's own global scope. The host
// compiles without the DOM library; `HTMLElement` is the browser's own type.

/**
 * The browser half's only bridge to its host half. The browser half is a classic script, not a
 * module, run inside a sandboxed iframe (sandbox="allow-scripts": an opaque origin, no cookies or
 * storage, no access to the parent page's DOM) under a Content-Security-Policy that allows no network
 * requests. It renders into `seam.root` with the ordinary DOM API and reaches the host only through
 * `seam`. Render failures (a top-level throw) are reported and visible to extension_inspect.
 */
declare const seam: ExtensionBrowserApi;

/** What a browser half can do beyond the DOM of its own iframe. */
interface ExtensionBrowserApi {
  /** The element to render into. */
  readonly root: HTMLElement;
  /**
   * Calls the handler its host half registered with `api.handle(method, fn)`, passing `params`
   * (default null), and resolves with the handler's JSON result. Rejects with an Error saying why:
   * no handler for `method`, the host half is not running, the handler threw or timed out.
   */
  call(method: string, params?: Json): Promise<Json>;
  /**
   * Calls `fn` with each message its host half sends with `api.send(message)`, from now on. Returns a
   * disposer that stops the calls.
   */
  onMessage(fn: (message: Json) => void): Disposer;
}

/** Undoes a registration; calling it again does nothing. */
type Disposer = () => void;

/** A value that survives JSON.stringify / JSON.parse unchanged. */
type Json = null | boolean | number | string | Json[] | JsonObject;

/** A JSON object. */
type JsonObject = { [key: string]: Json };

export {};
