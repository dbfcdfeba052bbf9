import { MessageChannel, type MessagePort } from "node:worker_threads";
import vm from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { BRIDGE_HELLO, buildFrameDocument, NAVIGATING_WHILE_RENDERING } from "@/app/_components/extensions/frame-document";

const NONCE = "fedcba9876543210fedcba9876543210";

/**
 * Runs the frame's bootstrap script in a vm context with just enough of a window to exercise the
 * handshake and the port protocol (no DOM library needed).
 */
function makeFrame(code: string) {
  const bootstrap = /<script>([\s\S]*?)<\/script>/.exec(buildFrameDocument(code, NONCE))?.[1] ?? "";
  const listeners = new Map<string, Set<(event: unknown) => void>>();
  const dispatch = (type: string, event: unknown) => listeners.get(type)?.forEach((fn) => fn(event));
  const parent = { name: "parent" };
  const root = { id: "seam-root", textContent: "" };
  // The bootstrap's own <script> element, which it removes before the extension runs.
  const head = { removed: [] as unknown[], removeChild: (el: unknown) => head.removed.push(el) };
  const currentScript = { parentNode: head as typeof head | null };
  const sandbox: Record<string, unknown> = {
    parent,
    setTimeout,
    addEventListener: (type: string, fn: (event: unknown) => void) => {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)?.add(fn);
    },
    removeEventListener: (type: string, fn: (event: unknown) => void) => listeners.get(type)?.delete(fn),
  };
  sandbox.window = sandbox;
  const context = vm.createContext(sandbox);
  sandbox.document = {
    currentScript,
    getElementById: (id: string) => (id === "seam-root" ? root : null),
    createElement: () => ({ textContent: "" }),
    documentElement: { getBoundingClientRect: () => ({ height: 123.4 }) },
    body: {
      // Like a browser: an inserted inline script runs now; a throw becomes an `error` event.
      appendChild(script: { textContent: string }) {
        try {
          vm.runInContext(script.textContent, context);
        } catch (error) {
          dispatch("error", { error, message: String(error), lineno: 1, colno: 1 });
        }
      },
    },
  };
  vm.runInContext(bootstrap, context);
  const hello = (source: unknown, data: unknown, port?: MessagePort) => dispatch("message", { source, data, ports: port ? [port] : [] });
  return { sandbox, root, parent, hello, listeners, head, currentScript, dispatch };
}

const channels: MessageChannel[] = [];
function channel() {
  const c = new MessageChannel();
  channels.push(c);
  const received: unknown[] = [];
  const waiters: Array<() => void> = [];
  c.port1.on("message", (m) => {
    received.push(m);
    waiters.splice(0).forEach((w) => w());
  });
  const next = async (pred: (m: unknown) => boolean) => {
    for (;;) {
      const found = received.find(pred);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { port1: c.port1, port2: c.port2, received, next };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

describe("frame bootstrap", () => {
  it("accepts exactly one handshake, from the parent window, carrying a port", async () => {
    const frame = makeFrame("seam.root.textContent = 'hello';");
    const stranger = channel();
    frame.hello({ name: "sibling" }, BRIDGE_HELLO, stranger.port2); // wrong source
    frame.hello(frame.parent, "something else", stranger.port2); // wrong data
    frame.hello(frame.parent, BRIDGE_HELLO); // no port
    expect(frame.root.textContent).toBe("");

    const bridge = channel();
    frame.hello(frame.parent, BRIDGE_HELLO, bridge.port2);
    expect(frame.root.textContent).toBe("hello");
    await bridge.next((m) => (m as { t: string }).t === "ready");
    expect(await bridge.next((m) => (m as { t: string }).t === "size")).toEqual({ t: "size", height: 124 });
    // The window listener is gone for good.
    expect(frame.listeners.get("message")?.size ?? 0).toBe(0);
    const late = channel();
    frame.hello(frame.parent, BRIDGE_HELLO, late.port2);
    await settle();
    expect(late.received).toEqual([]);
    expect(stranger.received).toEqual([]);
  });

  it("exposes a frozen `seam` whose calls and messages go over the port", async () => {
    const frame = makeFrame(`
      window.got = [];
      seam.onMessage((m) => window.got.push(m));
      seam.call("add", { n: 1 }).then((v) => { window.ok = v; });
      seam.call("fail").catch((e) => { window.failed = e.message; });
    `);
    const bridge = channel();
    frame.hello(frame.parent, BRIDGE_HELLO, bridge.port2);
    const add = (await bridge.next((m) => (m as { method?: string }).method === "add")) as { id: number; params: unknown };
    expect(add).toMatchObject({ t: "call", method: "add", params: { n: 1 } });
    const fail = (await bridge.next((m) => (m as { method?: string }).method === "fail")) as { id: number; params: unknown };
    expect(fail.params).toBeNull();
    bridge.port1.postMessage({ t: "result", id: add.id, ok: true, value: { n: 2 } });
    bridge.port1.postMessage({ t: "result", id: fail.id, ok: false, error: "not_running" });
    bridge.port1.postMessage({ t: "message", message: { tick: 1 } });
    await settle();
    expect(frame.sandbox.ok).toEqual({ n: 2 });
    expect(frame.sandbox.failed).toBe("not_running");
    expect(frame.sandbox.got).toEqual([{ tick: 1 }]);
    const seam = frame.sandbox.seam as object;
    expect(Object.isFrozen(seam)).toBe(true);
    expect(Object.getOwnPropertyDescriptor(frame.sandbox, "seam")).toMatchObject({ writable: false, configurable: false });
  });

  it("queues host messages until the extension listens", async () => {
    const frame = makeFrame("window.later = () => seam.onMessage((m) => (window.got = m));");
    const bridge = channel();
    frame.hello(frame.parent, BRIDGE_HELLO, bridge.port2);
    bridge.port1.postMessage({ t: "message", message: "early" });
    await settle();
    (frame.sandbox.later as () => void)();
    await settle();
    expect(frame.sandbox.got).toBe("early");
  });

  it("reports a top-level throw instead of ready", async () => {
    const frame = makeFrame("throw new Error('boom');");
    const bridge = channel();
    frame.hello(frame.parent, BRIDGE_HELLO, bridge.port2);
    const error = (await bridge.next((m) => (m as { t: string }).t === "error")) as { message: string };
    expect(error.message).toContain("boom");
    expect(error.message).toContain("line 1");
    await settle();
    expect(bridge.received.some((m) => (m as { t: string }).t === "ready")).toBe(false);
  });

  it("removes its own script element (the nonce and the code) before the extension runs", () => {
    const frame = makeFrame("window.sawScript = document.currentScript && document.currentScript.parentNode !== null;");
    expect(frame.head.removed).toEqual([frame.currentScript]);
    frame.currentScript.parentNode = null;
    frame.hello(frame.parent, BRIDGE_HELLO, channel().port2);
    expect(frame.sandbox.sawScript).toBe(false);
    // The nonce is not reachable from the extension's realm either.
    expect(frame.sandbox.NONCE).toBeUndefined();
  });

  it("identifies itself with the nonce as its first message on the port, before anything the extension sends", async () => {
    const frame = makeFrame("seam.call('get');");
    const bridge = channel();
    frame.hello(frame.parent, BRIDGE_HELLO, bridge.port2);
    await bridge.next((m) => (m as { method?: string }).method === "get");
    expect(bridge.received[0]).toEqual({ t: "hello", nonce: NONCE });
    expect(bridge.received.filter((m) => (m as { t: string }).t === "hello")).toHaveLength(1);
  });

  it("reports a navigation started while the extension's code runs instead of ready", async () => {
    const frame = makeFrame("window.leave();");
    frame.sandbox.leave = () => frame.dispatch("beforeunload", {});
    const bridge = channel();
    frame.hello(frame.parent, BRIDGE_HELLO, bridge.port2);
    const error = (await bridge.next((m) => (m as { t: string }).t === "error")) as { message: string };
    expect(error.message).toBe(NAVIGATING_WHILE_RENDERING);
    await settle();
    expect(bridge.received.some((m) => (m as { t: string }).t === "ready")).toBe(false);
  });

  it("ignores beforeunload once the extension's code has run (the page may be closing; later navigations are the page's to catch)", async () => {
    const frame = makeFrame("seam.root.textContent = 'ok';");
    const bridge = channel();
    frame.hello(frame.parent, BRIDGE_HELLO, bridge.port2);
    await bridge.next((m) => (m as { t: string }).t === "ready");
    frame.dispatch("beforeunload", {});
    await settle();
    expect(bridge.received.some((m) => (m as { t: string }).t === "error")).toBe(false);
  });
});
