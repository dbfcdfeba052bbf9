import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LspServerConfig, type LspServerConfigInput } from "@seam/shared";
import { TRPCError } from "@trpc/server";
import { afterEach, describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createLog } from "../../src/core/log.js";
import { createScope } from "../../src/core/scope.js";
import { answerConfiguration, valueAt } from "../../src/lsp/configuration.js";
import { createHost } from "../../src/host.js";
import { createLsp, SETTINGS_KEY } from "../../src/lsp/lsp.js";
import { presets } from "../../src/lsp/presets.js";
import { appRouter } from "../../src/trpc/root.js";
import { eventually, FAKE_SERVER, logLines, memoryStore, refusal, running } from "./helpers.js";

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const ITEMS = [{ section: "fake.alpha" }, {}, { section: "missing.path" }, { section: "fake.alpha.depth", scopeUri: "file:///x" }, { section: "flat.key" }];
const SETTINGS = { fake: { alpha: { depth: 3, list: [1, 2] } }, "flat.key": "dotted", other: false };

/** A settings service over one fake server that asks `workspace/configuration` for ITEMS after `initialized`. */
async function service(extra: Partial<LspServerConfigInput> = {}) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "seam-lsp-settings-")));
  const ws = join(base, "ws");
  const log = join(base, "server.log");
  mkdirSync(ws);
  writeFileSync(join(ws, "x.fake"), "one two\n");
  const config: LspServerConfigInput = { id: "fake", command: process.execPath, args: [FAKE_SERVER, JSON.stringify({ log, configuration: ITEMS })], extensions: [".fake"], ...extra };
  const store = memoryStore({ [SETTINGS_KEY]: { servers: [config] } });
  const scope = createScope("test-lsp-settings", { slowDisposeMs: Infinity });
  const lsp = await createLsp(scope, { store, registry: createToolRegistry(), throttleMs: 10, log: createLog("test", () => {}) });
  cleanups.push(() => rmSync(base, { recursive: true, force: true }), () => scope.dispose());
  const query = () => lsp.query({ workspace: ws, filePath: "x.fake", operation: "hover", line: 1, character: 1 });
  /** The logged events of one kind (`configuration`, `didChangeConfiguration`), parsed, per pid. */
  const logged = (kind: string) => logLines(log).filter((l) => l.split(" ")[1] === kind).map((l) => {
    const [pid, , ...rest] = l.split(" ");
    return { pid: Number(pid), value: JSON.parse(rest.join(" ")) as unknown };
  });
  return { store, lsp, api: lsp.api, ws, log, config, query, logged };
}

describe("workspace/configuration answers (LSP-8)", () => {
  it("answers by dotted section, the whole object without one, null when absent", () => {
    const params = { items: ITEMS };
    expect(answerConfiguration(SETTINGS, params)).toEqual([{ depth: 3, list: [1, 2] }, SETTINGS, null, 3, "dotted"]);
    expect(answerConfiguration(undefined, params)).toEqual([null, null, null, null, null]);
    // A key holding dots matches as one step; the longest one that leads somewhere wins.
    expect(valueAt({ "a.b": { c: 1 }, a: { b: { d: 2 } } }, "a.b.c")).toBe(1);
    expect(valueAt({ "a.b": { c: 1 }, a: { b: { d: 2 } } }, "a.b.d")).toBe(2);
    // Falsy values are values; arrays and scalars have no sections.
    expect(answerConfiguration({ off: false, zero: 0, nil: null }, { items: [{ section: "off" }, { section: "zero" }, { section: "nil" }] })).toEqual([false, 0, null]);
    expect(valueAt({ list: [1, 2] }, "list.0")).toBeUndefined();
    expect(valueAt({ s: "text" }, "s.length")).toBeUndefined();
    expect(answerConfiguration(SETTINGS, { items: [{ section: "" }, { section: 7 }, "junk"] })).toEqual([SETTINGS, SETTINGS, SETTINGS]);
    // Malformed params get an empty answer, never a throw.
    expect(answerConfiguration(SETTINGS, null)).toEqual([]);
    expect(answerConfiguration(SETTINGS, { items: "nope" })).toEqual([]);
    // Inherited names are not settings.
    expect(answerConfiguration({}, { items: [{ section: "constructor" }, { section: "toString" }] })).toEqual([null, null]);
  });

  it("presets stay valid configs; bash's section bashIde switches ShellCheck off", () => {
    for (const p of presets()) expect(LspServerConfig.parse(p.config)).toEqual(p.config);
    const bash = presets().find((p) => p.id === "bash")!;
    expect(answerConfiguration(bash.config.settings, { items: [{ section: "bashIde" }] })).toEqual([{ shellcheckPath: "" }]);
  });

  it("a real server process gets its settings by section, whole and null; the settings are pushed after initialized", async () => {
    const s = await service({ settings: SETTINGS });
    await s.query();
    expect(await eventually(() => s.logged("configuration").length > 0)).toBe(true);
    const pid = s.lsp.pool.processes("fake")[0]!.pid!;
    expect(s.logged("configuration")[0]).toEqual({ pid, value: [{ depth: 3, list: [1, 2] }, SETTINGS, null, 3, "dotted"] });
    expect(s.logged("didChangeConfiguration")).toEqual([{ pid, value: { settings: SETTINGS } }]);
  });

  it("a server without settings gets null for every item and no didChangeConfiguration", async () => {
    const s = await service();
    await s.query();
    expect(await eventually(() => s.logged("configuration").length > 0)).toBe(true);
    expect(s.logged("configuration").map((e) => e.value)).toEqual([[null, null, null, null, null]]);
    expect(s.logged("didChangeConfiguration")).toEqual([]);
  });

  it("saving new settings restarts the server's processes, which then get the new settings", async () => {
    const s = await service({ settings: SETTINGS });
    await s.query();
    const pid = s.lsp.pool.processes("fake")[0]!.pid!;
    const next = { fake: { alpha: "changed" } };
    const view = await s.api.update({ id: "fake", config: { ...s.config, settings: next } });
    expect(view.config.settings).toEqual(next);
    expect(view.processes).toEqual([]);
    expect(await eventually(() => !running(pid))).toBe(true);
    expect((s.store.values.get(SETTINGS_KEY) as { servers: { settings?: unknown }[] }).servers[0]!.settings).toEqual(next);
    await s.query();
    const fresh = s.lsp.pool.processes("fake")[0]!.pid!;
    expect(fresh).not.toBe(pid);
    expect(await eventually(() => s.logged("configuration").some((e) => e.pid === fresh))).toBe(true);
    expect(s.logged("configuration").find((e) => e.pid === fresh)!.value).toEqual(["changed", next, null, null, null]);
    expect(s.logged("didChangeConfiguration").filter((e) => e.pid === fresh).map((e) => e.value)).toEqual([{ settings: next }]);
  });

  it("refuses settings that are not a bounded JSON object with a clear error; nothing is saved and the process keeps running", async () => {
    const s = await service({ settings: SETTINGS });
    await s.query();
    const pid = s.lsp.pool.processes("fake")[0]!.pid!;
    const saved = structuredClone(s.store.values.get(SETTINGS_KEY));
    const deep: Record<string, unknown> = {};
    let node = deep;
    for (let i = 0; i < 80; i++) node = (node.n = {}) as Record<string, unknown>;
    const bad: [unknown, RegExp][] = [
      [["python"], /^settings: Must be a JSON object like \{"python": \{"analysis": \{…\}\}\}, not an array$/],
      ["{\"python\": {}}", /^settings: Must be a JSON object like .*, not a string$/],
      [null, /^settings: Must be a JSON object like .*, not null$/],
      [{ big: "x".repeat(100_001) }, /^settings: The value is 100,0\d\d characters as JSON; the limit is 100,000/],
      [deep, /^settings: The value is nested more than \d+ levels deep/],
    ];
    for (const [settings, message] of bad) {
      const error = await refusal(s.api.update({ id: "fake", config: { ...s.config, settings } as LspServerConfigInput }));
      expect(error.code).toBe("bad_input:lsp");
      expect(error.publicCode).toBe("invalid_config");
      expect(error.message).toMatch(message);
      const added = await refusal(s.api.add({ ...s.config, id: "other", extensions: [".other"], settings } as LspServerConfigInput));
      expect(added.message).toMatch(message);
    }
    expect(s.store.values.get(SETTINGS_KEY)).toEqual(saved);
    expect((await s.api.servers()).map((v) => [v.config.id, v.config.settings])).toEqual([["fake", SETTINGS]]);
    expect(s.lsp.pool.processes("fake")).toMatchObject([{ pid, state: "ready" }]);
  });
});

describe("settings through tRPC and the real host (LSP-7, LSP-8)", () => {
  it("an invalid settings value is BAD_REQUEST naming the field and saves nothing; a valid one persists across a restart", async () => {
    const home = mkdtempSync(join(tmpdir(), "seam-lsp-settings-host-"));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const start = async () => {
      const scope = createScope("test-host", { slowDisposeMs: Infinity });
      cleanups.push(() => scope.dispose());
      const host = await createHost(scope, { home, env: { SEAM_MODEL_PROVIDER: "none" }, version: "test" });
      return { scope, caller: appRouter.createCaller({ host }) };
    };
    const first = await start();
    const config = { id: "fake", command: process.execPath, args: [FAKE_SERVER, "{}"], extensions: [".fake"], enabled: true, idleTimeoutMs: 600_000 };
    for (const settings of [["python"], "text", { big: "x".repeat(100_001) }]) {
      const error = await first.caller.lsp.add({ ...config, settings } as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TRPCError);
      expect((error as TRPCError).code).toBe("BAD_REQUEST");
      expect((error as TRPCError).message).toMatch(/settings/);
      expect((error as TRPCError).message).toMatch(/Must be a JSON object|characters as JSON; the limit is 100,000/);
    }
    expect((await first.caller.lsp.servers()).map((v) => v.config.id)).toEqual(["typescript"]);

    const settings = { fake: { alpha: { depth: 3 } } };
    await first.caller.lsp.add({ ...config, settings });
    await first.scope.dispose();
    const again = await start();
    expect((await again.caller.lsp.servers()).find((v) => v.config.id === "fake")?.config.settings).toEqual(settings);
  }, 60_000);
});
