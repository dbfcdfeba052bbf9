import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { ShellSettings } from "@seam/shared";
import { createToolRegistry, type ToolRegistry } from "../../src/agent/registry.js";
import type { ToolContext, ToolResult } from "../../src/agent/tool.js";
import type { Scope } from "../../src/core/scope.js";
import type { Log } from "../../src/core/log.js";
import { create, type Deps, type Interface } from "../../src/shell/shell.js";

export const hasBwrap = (() => {
  try {
    readFileSync("/usr/bin/bwrap");
    return true;
  } catch {
    return false;
  }
})();

const dirs: string[] = [];
/** A fresh canonical temp dir, removed by `cleanDirs()`. */
export function tempDir(prefix = "seam-shell-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(dir);
  return dir;
}
export function cleanDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function memorySettings(initial?: unknown): Deps["settings"] & { values: Map<string, unknown>; writes: number } {
  const values = new Map<string, unknown>();
  if (initial !== undefined) values.set("shell", initial);
  const store = {
    values,
    writes: 0,
    get: async (key: string) => values.get(key),
    set: async (key: string, value: unknown) => {
      store.writes++;
      values.set(key, value);
    },
  };
  return store;
}

export function quietLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  const push = (message: string) => lines.push(message);
  return { lines, info: push, warn: push, error: push };
}

export interface Rig {
  shell: Interface;
  registry: ToolRegistry;
  home: string;
  workspace: string;
  settings: ReturnType<typeof memorySettings>;
  log: ReturnType<typeof quietLog>;
  /** Runs a tool directly (no runtime) with a fresh context; chunks of live output are collected. */
  call(name: string, args: unknown, opts?: { sessionId?: string; signal?: AbortSignal; workspace?: string }): Promise<ToolResult & { live: string }>;
}

export async function rig(scope: Scope, opts: { settings?: ShellSettings | unknown; deps?: Partial<Deps>; home?: string; workspace?: string } = {}): Promise<Rig> {
  const home = opts.home ?? join(tempDir(), "home");
  mkdirSync(home, { recursive: true });
  const workspace = opts.workspace ?? tempDir("seam-ws-");
  const registry = createToolRegistry();
  const settings = memorySettings(opts.settings);
  const log = quietLog();
  const shell = await create(scope, { registry, settings, home, log, ...opts.deps });
  let n = 0;
  return {
    shell, registry, home, workspace, settings, log,
    async call(name, args, o = {}) {
      const tool = registry.get(name)!;
      const parsed = tool.parse(args);
      if (!parsed.ok) throw new Error(parsed.message);
      let live = "";
      const ctx: ToolContext = {
        signal: o.signal ?? new AbortController().signal, sessionId: o.sessionId ?? "s1", workspace: o.workspace ?? workspace, callId: `c${++n}`,
        output: (chunk) => (live += chunk),
      };
      const result = await tool.run(parsed.value, ctx);
      return { ...result, live };
    },
  };
}

/** A number no other process on the machine has in its command line: `sleep <marker>` is findable in /proc. */
export function marker(): string {
  return `9${randomBytes(3).readUIntBE(0, 3) % 100_000}.${randomBytes(3).readUIntBE(0, 3)}`;
}

/** Pids of live (non-zombie) processes whose command line contains `text`. */
export function survivors(text: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ");
      if (!cmdline.includes(text)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] !== "Z") found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

export async function waitFor(what: string, done: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const OFF: ShellSettings = { sandbox: "off", network: true };
