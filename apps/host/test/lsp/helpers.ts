import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HostError } from "../../src/core/errors.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import { createPool, type Pool, type PoolEvent, type PoolOptions, type PoolServerConfig } from "../../src/lsp/pool.js";
import { createProviderRegistry, type ProviderRegistry } from "../../src/lsp/registry.js";

export const FIXTURES = fileURLToPath(new URL("../fixture/lsp/", import.meta.url));
export const FAKE_SERVER = join(FIXTURES, "fake-server.mjs");

/** A canonical temporary copy of a fixture project (plus an `outside` sibling), removed on dispose. */
export function copyFixture(name: string): { ws: string; outside: string; base: string; [Symbol.dispose](): void } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "seam-lsp-")));
  const ws = join(base, "ws");
  cpSync(join(FIXTURES, name), ws, { recursive: true });
  const outside = join(base, "outside");
  cpSync(join(FIXTURES, name), outside, { recursive: true });
  return { ws, outside, base, [Symbol.dispose]: () => rmSync(base, { recursive: true, force: true }) };
}

/** An in-memory `store.settings`. */
export function memoryStore(initial: Record<string, unknown> = {}) {
  const values = new Map<string, unknown>(Object.entries(initial));
  return {
    values,
    settings: {
      get: async (key: string) => structuredClone(values.get(key)),
      set: async (key: string, value: unknown) => {
        if (value === undefined) values.delete(key);
        else values.set(key, structuredClone(value));
      },
    },
  };
}

/** Records pool events; `next(type)` resolves on the next event of that type. */
export function recorder() {
  const events: PoolEvent[] = [];
  let waiters: { type: PoolEvent["type"]; resolve: (e: PoolEvent) => void }[] = [];
  return {
    events,
    observe: (e: PoolEvent) => {
      events.push(e);
      const ready = waiters.filter((w) => w.type === e.type);
      waiters = waiters.filter((w) => w.type !== e.type);
      for (const w of ready) w.resolve(e);
    },
    next: (type: PoolEvent["type"]) => new Promise<PoolEvent>((resolve) => waiters.push({ type, resolve })),
  };
}

export interface FakeOptions {
  delayMs?: number; hang?: boolean; crash?: "always"; implementation?: boolean; hoverMissing?: boolean; log?: string; child?: boolean;
  emptyForMs?: number; progressMs?: number; progressEnds?: boolean;
}

/** A pool over the fake server (extensions .ts and .txt) in its own scope. */
export function fakePool(fake: FakeOptions = {}, options: Partial<PoolOptions> & { idleTimeoutMs?: number } = {}) {
  const scope: Scope = createScope("test-lsp", { slowDisposeMs: Infinity });
  const registry: ProviderRegistry = createProviderRegistry();
  registry.register({ id: "fake", extensions: [".ts", ".txt"] });
  const config: PoolServerConfig = { id: "fake", command: process.execPath, args: [FAKE_SERVER, JSON.stringify(fake)], idleTimeoutMs: options.idleTimeoutMs ?? 600_000 };
  const rec = recorder();
  const pool: Pool = createPool(scope, { registry, serverFor: (id) => (id === "fake" ? config : undefined), observe: rec.observe, ...options });
  return { scope, registry, pool, rec, config, [Symbol.asyncDispose]: () => scope.dispose() };
}

/** Lines of the fake server's log. */
export function logLines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, "utf8").trim().split("\n").filter(Boolean) : [];
}

/** The thrown HostError (fails the test if there is none, or something else was thrown). */
export async function refusal(promise: Promise<unknown>): Promise<HostError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof HostError)) throw new Error(`expected a HostError, got ${error instanceof Error ? error.stack : String(error)}`);
  return error;
}

/** Rejects if `promise` does not settle within `ms` — a hang is a failure, not a slow pass. */
export function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** Whether a process is running (zombies count as gone). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Polls until `done` holds or `ms` pass. */
export async function eventually(done: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (done()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return done();
}

/** A pool over one real server (`config`), routing `extensions`, in its own scope. */
export function realPool(config: Omit<PoolServerConfig, "idleTimeoutMs"> & { idleTimeoutMs?: number }, extensions: string[], options: Partial<PoolOptions> = {}) {
  const scope: Scope = createScope(`test-lsp-${config.id}`, { slowDisposeMs: Infinity });
  const registry: ProviderRegistry = createProviderRegistry();
  registry.register({ id: config.id, extensions });
  const server: PoolServerConfig = { ...config, idleTimeoutMs: config.idleTimeoutMs ?? 600_000 };
  const rec = recorder();
  const pool: Pool = createPool(scope, { registry, serverFor: (id) => (id === config.id ? server : undefined), observe: rec.observe, ...options });
  return { scope, pool, rec, [Symbol.asyncDispose]: () => scope.dispose() };
}

/** Document events (didOpen, didChange, didClose) as `type name[:version|:reason]`, file names only. */
export function documentEvents(events: PoolEvent[]): string[] {
  return events.flatMap((e) => {
    const name = "uri" in e ? e.uri.slice(e.uri.lastIndexOf("/") + 1) : "";
    if (e.type === "didOpen" || e.type === "didChange") return [`${e.type} ${name}:${e.version}`];
    if (e.type === "didClose") return [`${e.type} ${name}:${e.reason}`];
    return [];
  });
}
