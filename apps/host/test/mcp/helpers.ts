import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerConfigInput, McpServerState } from "@seam/shared";
import { expect, vi } from "vitest";
import type { Log } from "../../src/core/log.js";
import { spawnChild } from "../../src/core/process.js";
import type { Scope } from "../../src/core/scope.js";
import { createToolRuntime, type ToolOutcome, type ToolRuntime } from "../../src/agent/runtime.js";
import type { ToolRegistry } from "../../src/agent/registry.js";
import type { McpHub } from "../../src/mcp/hub.js";
import type { Clock, TimerLabel } from "../../src/mcp/supervisor.js";
import { createTransport, type TransportFactory, type TransportHandle } from "../../src/mcp/transport.js";
import type { FixtureState } from "../fixture/mcp/server.js";
export { isRunning } from "../support/process.js";

export const HOST_DIR = fileURLToPath(new URL("../..", import.meta.url));
export const FIXTURE = fileURLToPath(new URL("../fixture/mcp/server.ts", import.meta.url));
export const EVERYTHING = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");

/** The steerable fixture server: a config for it and its state file. */
export function fixture(name: string, state: FixtureState = {}, extra: Partial<McpServerConfigInput> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "seam-mcp-fixture-"));
  const statePath = join(dir, "state.json");
  const write = (patch: Partial<FixtureState>) => {
    const tmp = `${statePath}.test.tmp`;
    writeFileSync(tmp, JSON.stringify({ ...read(), ...patch }));
    renameSync(tmp, statePath);
  };
  const read = (): FixtureState => {
    try {
      return JSON.parse(readFileSync(statePath, "utf8")) as FixtureState;
    } catch {
      return {};
    }
  };
  writeFileSync(statePath, JSON.stringify(state));
  const config: McpServerConfigInput = {
    name,
    transport: {
      type: "stdio",
      command: process.execPath,
      args: ["--import", "tsx", FIXTURE],
      cwd: HOST_DIR,
      env: { FIXTURE_STATE: { value: statePath } },
    },
    ...extra,
  };
  return { config, statePath, read, write, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const everythingStdio = (name = "everything", extra: Partial<McpServerConfigInput> = {}): McpServerConfigInput => ({
  name,
  transport: { type: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"] },
  ...extra,
});

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** server-everything over Streamable HTTP (test-only: it binds all interfaces), owned by `scope`. */
export async function startEverythingHttp(scope: Scope, port?: number) {
  const p = port ?? (await freePort());
  const child = spawnChild(scope, { label: "everything-http", command: process.execPath, args: [EVERYTHING, "streamableHttp"], env: { PORT: String(p) } });
  await vi.waitFor(() => expect(child.stderrTail()).toMatch(/listening on port/i), { timeout: 15_000, interval: 20 });
  return { url: `http://127.0.0.1:${p}/mcp`, port: p, child };
}

/** A clock whose timers fire only when the test says so; records every delay it was asked for. */
export class ManualClock implements Clock {
  t = Date.parse("2026-01-01T00:00:00Z");
  readonly timers: { id: number; label: TimerLabel; ms: number; fn: () => void; state: "pending" | "fired" | "cleared" }[] = [];
  private ids = 0;

  setTimeout(fn: () => void, ms: number, label: TimerLabel): unknown {
    const id = ++this.ids;
    this.timers.push({ id, label, ms, fn, state: "pending" });
    return id;
  }
  clearTimeout(handle: unknown): void {
    const timer = this.timers.find((t) => t.id === handle);
    if (timer?.state === "pending") timer.state = "cleared";
  }
  now(): number {
    return this.t;
  }
  pending(label?: TimerLabel) {
    return this.timers.filter((t) => t.state === "pending" && (label === undefined || t.label === label));
  }
  /** Delays asked for under `label`, in order (cleared or not). */
  delays(label: TimerLabel): number[] {
    return this.timers.filter((t) => t.label === label).map((t) => t.ms);
  }
  /** Advances to the pending `label` timer and runs it. Exactly one must be pending. */
  fire(label: TimerLabel): number {
    const pending = this.pending(label);
    if (pending.length !== 1) throw new Error(`expected one pending "${label}" timer, found ${pending.length}`);
    const timer = pending[0]!;
    timer.state = "fired";
    this.t += timer.ms;
    timer.fn();
    return timer.ms;
  }
}

/** Collects log lines instead of printing them. */
export function memoryLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (message: string, data?: Record<string, unknown>) => void lines.push(`${level} ${message}${data ? ` ${JSON.stringify(data)}` : ""}`);
  return { lines, info: push("info"), warn: push("warn"), error: push("error") };
}

let calls = 0;
export function invoker(registry: ToolRegistry): (name: string, args?: unknown, signal?: AbortSignal) => Promise<ToolOutcome> {
  const runtime: ToolRuntime = createToolRuntime({ registry });
  return (name, args = {}, signal = new AbortController().signal) =>
    runtime.invoke({ sessionId: "s1", workspace: HOST_DIR, callId: `c${++calls}`, name, args, signal });
}

export async function waitForState(hub: McpHub, name: string, state: McpServerState["state"], timeout = 20_000) {
  await vi.waitFor(() => expect(hub.get(name)?.status.state).toBe(state), { timeout, interval: 10 });
  return hub.get(name)!;
}

/** The real transport factory, keeping every handle it creates (the latest last). */
export function recordingTransport(): { transport: TransportFactory; handles: TransportHandle[] } {
  const handles: TransportHandle[] = [];
  const transport: TransportFactory = (scope, config) => {
    const handle = createTransport(scope, config);
    handles.push(handle);
    return handle;
  };
  return { transport, handles };
}
