import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LspServerConfigInput, LspServerView } from "@seam/shared";
import { afterEach, describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/agent/registry.js";
import { lspStatus } from "../../src/lsp/status.js";
import { createLog } from "../../src/core/log.js";
import { createScope } from "../../src/core/scope.js";
import { createLsp, SETTINGS_KEY } from "../../src/lsp/lsp.js";
import { FAKE_SERVER, eventually, memoryStore, refusal, running } from "./helpers.js";

const fake = (id: string, extensions: string[], extra: Partial<LspServerConfigInput> = {}): LspServerConfigInput =>
  ({ id, command: process.execPath, args: [FAKE_SERVER, "{}"], extensions, ...extra });

/** bash-language-server is installed (a devDependency), so a missing one is an absolute path that does not exist. */
const MISSING_BASH = "/nonexistent/bin/bash-language-server";

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

async function service(initial?: unknown) {
  const store = memoryStore(initial === undefined ? {} : { [SETTINGS_KEY]: initial });
  const registry = createToolRegistry();
  const scope = createScope("test-lsp-service", { slowDisposeMs: Infinity });
  const lsp = await createLsp(scope, { store, registry, throttleMs: 10, log: createLog("test", () => {}) });
  const ws = realpathSync(mkdtempSync(join(tmpdir(), "seam-lsp-svc-")));
  writeFileSync(join(ws, "x.fake"), "one two\n");
  cleanups.push(() => rmSync(ws, { recursive: true, force: true }), () => scope.dispose());
  return { store, registry, scope, lsp, api: lsp.api, ws };
}

const row = (servers: LspServerView[], tools: ReturnType<ReturnType<typeof createToolRegistry>["visible"]>) =>
  lspStatus(tools.filter((t) => t.capability === "lsp").map((t) => t.name), servers);

describe("LSP settings API (LSP-5, LSP-7)", () => {
  it("a fresh install has the TypeScript preset enabled and active, and the lsp tool registered", async () => {
    const s = await service();
    const [ts] = await s.api.servers();
    expect(ts).toMatchObject({ active: true, problem: null, processes: [] });
    expect(ts!.config).toMatchObject({ id: "typescript", enabled: true, extensions: [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"] });
    expect(s.store.values.has(SETTINGS_KEY)).toBe(false);
    const tool = s.registry.get("lsp")!;
    expect(tool).toMatchObject({ capability: "lsp", effect: "read", timeoutMs: 60_000 });
    expect(tool.description).toContain("Files handled now: .cjs .cts .js .jsx .mjs .mts .ts .tsx.");
    expect(tool.guidance).toContain("Prefer grep and read_file");
    expect(row(await s.api.servers(), s.registry.visible())).toMatchObject({ codePresent: true, configured: true, visible: true, ready: true });
  });

  it("presets: TypeScript, Python and Bash available here (host devDependencies), so no install hint", async () => {
    const s = await service();
    const presets = await s.api.presets();
    expect(presets.map((p) => [p.id, p.available])).toEqual([["typescript", true], ["python", true], ["bash", true]]);
    expect(presets[2]!.hint).toBeNull();
    expect(presets[0]!.config.initializationOptions).toMatchObject({ tsserver: { path: expect.stringMatching(/typescript5\/lib\/tsserver\.js$/) } });
  });

  it("add saves, routes and re-describes the tool; the server starts on the first query", async () => {
    const s = await service();
    const view = await s.api.add(fake("fake", ["FAKE", ".fk"]));
    expect(view).toMatchObject({ active: true, problem: null, config: { id: "fake", extensions: [".fake", ".fk"], enabled: true, idleTimeoutMs: 600_000 } });
    expect((s.store.values.get(SETTINGS_KEY) as { servers: { id: string }[] }).servers.map((c) => c.id)).toEqual(["typescript", "fake"]);
    expect(s.registry.get("lsp")!.description).toContain(".fake");
    const r = await s.lsp.query({ workspace: s.ws, filePath: "x.fake", operation: "goToDefinition", line: 1, character: 5 });
    expect(r.serverId).toBe("fake");
    expect((await s.api.servers()).find((v) => v.config.id === "fake")!.processes).toMatchObject([{ workspace: s.ws, state: "ready" }]);
  });

  it("invalid fields are bad_input:lsp with the field path first; nothing is saved", async () => {
    const s = await service();
    const bad = await refusal(s.api.add(fake("Bad Id", ["a/b"])));
    expect(bad.code).toBe("bad_input:lsp");
    expect(bad.message).toMatch(/^id: /);
    expect(bad.message).toContain("extensions.0: ");
    expect(s.store.values.has(SETTINGS_KEY)).toBe(false);
    expect((await s.api.servers()).map((v) => v.config.id)).toEqual(["typescript"]);
  });

  it("an extension conflict names both servers and the extension, and saves nothing", async () => {
    const s = await service();
    const error = await refusal(s.api.add(fake("deno", [".mts", ".TS"])));
    expect(error.code).toBe("conflict:lsp");
    expect(error.publicCode).toBe("extension_conflict");
    expect(error.message).toContain(".ts");
    expect(error.message).toContain('"typescript"');
    expect(error.message).toContain('"deno"');
    expect(s.store.values.has(SETTINGS_KEY)).toBe(false);
    expect(s.lsp.providers.route("a.mts")?.id).toBe("typescript");
    expect((await s.api.servers()).map((v) => v.config.id)).toEqual(["typescript"]);
    // A disabled server claims nothing, so it may share extensions.
    expect(await s.api.add(fake("deno", [".ts"], { enabled: false }))).toMatchObject({ active: false, problem: "Disabled." });
    // …until it is enabled.
    const enabling = await refusal(s.api.update({ id: "deno", config: fake("deno", [".ts"]) }));
    expect(enabling.publicCode).toBe("extension_conflict");
  });

  it("an enabled server whose command does not resolve is refused with how to install it; a disabled one is saved", async () => {
    const s = await service();
    const error = await refusal(s.api.add({ id: "bash", command: MISSING_BASH, args: ["start"], extensions: [".sh"] }));
    expect(error.code).toBe("bad_input:lsp");
    expect(error.publicCode).toBe("command_not_found");
    expect(error.message).toMatch(/^command: "\/nonexistent\/bin\/bash-language-server" is not an executable file/);
    expect(error.message).toContain("npm i -g bash-language-server");
    expect(s.store.values.has(SETTINGS_KEY)).toBe(false);
    const missingScript = await refusal(s.api.add({ id: "gone", command: process.execPath, args: ["/nowhere/server.js"], extensions: [".gone"] }));
    expect(missingScript.message).toMatch(/^args\.0: /);
    const disabled = await s.api.add({ id: "bash", command: "bash-language-server", args: ["start"], extensions: [".sh"], enabled: false });
    expect(disabled).toMatchObject({ active: false, problem: "Disabled." });
    expect((s.store.values.get(SETTINGS_KEY) as { servers: unknown[] }).servers).toHaveLength(2);
    expect((await refusal(s.api.add(fake("bash", [".bash"])))).publicCode).toBe("duplicate_id");
  });

  it("update stops the server's processes and activates the new config; remove unroutes and unregisters the tool", async () => {
    const s = await service({ servers: [fake("fake", [".fake"])] });
    await s.lsp.query({ workspace: s.ws, filePath: "x.fake", operation: "hover", line: 1, character: 1 });
    const pid = s.lsp.pool.processes("fake")[0]!.pid!;
    // Saving the same config again keeps the process.
    expect((await s.api.update({ id: "fake", config: fake("fake", [".fake"]) })).processes).toMatchObject([{ pid, state: "ready" }]);
    const renamed = await s.api.update({ id: "fake", config: fake("faker", [".fake", ".fk2"]) });
    expect(renamed).toMatchObject({ active: true, config: { id: "faker" }, processes: [] });
    expect(await eventually(() => !running(pid))).toBe(true);
    expect(s.lsp.providers.route("y.fk2")?.id).toBe("faker");
    expect((await s.api.servers()).map((v) => v.config.id)).toEqual(["faker"]);
    expect(s.registry.get("lsp")!.description).toContain(".fk2");
    await refusal(s.api.update({ id: "nope", config: fake("nope", [".x"]) })).then((e) => expect(e.code).toBe("not_found:lsp"));
    await s.api.remove({ id: "faker" });
    expect(s.lsp.providers.providers()).toEqual([]);
    expect(s.registry.get("lsp")).toBeUndefined();
    expect(s.lsp.toolVisible()).toBe(false);
    expect(s.store.values.get(SETTINGS_KEY)).toEqual({ servers: [] });
    expect(row(await s.api.servers(), s.registry.visible())).toMatchObject({ configured: false, visible: false, ready: false });
  });

  it("restart replaces one workspace's process or all of them; a workspace without one gets it started", async () => {
    const s = await service({ servers: [fake("fake", [".fake"])] });
    await s.lsp.query({ workspace: s.ws, filePath: "x.fake", operation: "hover", line: 1, character: 1 });
    const before = s.lsp.pool.processes("fake")[0]!.pid;
    const view = await s.api.restart({ id: "fake" });
    expect(view.processes).toMatchObject([{ state: "ready", restarts: 0 }]);
    expect(view.processes[0]!.pid).not.toBe(before);
    const other = realpathSync(mkdtempSync(join(tmpdir(), "seam-lsp-svc2-")));
    cleanups.push(() => rmSync(other, { recursive: true, force: true }));
    const started = await s.api.restart({ id: "fake", workspace: other });
    expect(started.processes.map((p) => p.workspace).sort()).toEqual([s.ws, other].sort());
    expect((await refusal(s.api.restart({ id: "missing" }))).code).toBe("not_found:lsp");
  });

  it("events: a snapshot now, then one after changes (process states included)", async () => {
    const s = await service({ servers: [fake("fake", [".fake"])] });
    const controller = new AbortController();
    const iterator = s.lsp.live.lsp(controller.signal)[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect((first.value as LspServerView[]).map((v) => v.config.id)).toEqual(["fake"]);
    await s.lsp.query({ workspace: s.ws, filePath: "x.fake", operation: "hover", line: 1, character: 1 });
    let latest = (await iterator.next()).value as LspServerView[];
    while (latest[0]!.processes[0]?.state !== "ready") latest = (await iterator.next()).value as LspServerView[];
    expect(latest[0]!.processes[0]).toMatchObject({ workspace: s.ws, state: "ready" });
    await s.api.add(fake("other", [".other"]));
    latest = (await iterator.next()).value as LspServerView[];
    expect(latest.map((v) => v.config.id)).toEqual(["fake", "other"]);
    controller.abort();
    expect((await iterator.next()).done).toBe(true);
  });

  it("start-up: saved servers whose command is missing, or that conflict, are inactive with the reason in words", async () => {
    const s = await service({
      servers: [
        { id: "bash", command: MISSING_BASH, args: ["start"], extensions: [".sh"] },
        fake("one", [".dup", ".a"]),
        fake("two", [".dup"]),
        fake("ok", [".ok"]),
      ],
    });
    const views = Object.fromEntries((await s.api.servers()).map((v) => [v.config.id, v]));
    expect(views.bash).toMatchObject({ active: false, problem: expect.stringContaining("npm i -g bash-language-server") });
    expect(views.one).toMatchObject({ active: false, problem: expect.stringContaining('.dup is claimed by both "one" and "two"') });
    expect(views.two!.active).toBe(false);
    expect(views.ok!.active).toBe(true);
    expect(s.lsp.providers.route("f.a")).toBeUndefined();
    const r = row(await s.api.servers(), s.registry.visible());
    expect(r).toMatchObject({ configured: true, visible: true, ready: false });
    expect(r.note).toContain("Inactive: bash (command:");
  });

  it("teardown removes the tool and every route, then every process", async () => {
    const s = await service({ servers: [fake("fake", [".fake"])] });
    await s.lsp.query({ workspace: s.ws, filePath: "x.fake", operation: "hover", line: 1, character: 1 });
    const pid = s.lsp.pool.processes("fake")[0]!.pid!;
    const order: string[] = [];
    s.registry.onChange((c) => order.push(`tool ${c.type}`));
    s.lsp.providers.onChange(() => order.push(`routes ${s.lsp.providers.providers().length}`));
    s.lsp.onChange(() => {
      if (!running(pid) && !order.includes("process gone")) order.push("process gone");
    });
    await s.scope.dispose();
    expect(order.slice(0, 2)).toEqual(["tool unregistered", "routes 0"]);
    expect(running(pid)).toBe(false);
    expect(s.lsp.pool.processes()).toEqual([]);
    expect((await refusal(s.api.add(fake("late", [".late"])))).code).toBe("closed:lsp");
  });
});
