import { readFileSync, symlinkSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createToolRuntime, type ToolOutcome } from "../../src/agent/runtime.js";
import { listChildren } from "../../src/core/process.js";
import { groupAlive } from "../../src/core/process-group.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import { createLsp, type Interface, type LspToolResult } from "../../src/lsp/lsp.js";
import { bounded, copyFixture, eventually, memoryStore, recorder, running } from "./helpers.js";

/** The real typescript-language-server (TypeScript 5 tsserver) on the fixture project, through the tool runtime. */
async function harness(observe?: ReturnType<typeof recorder>) {
  const scope: Scope = createScope("test-lsp-ts", { slowDisposeMs: Infinity });
  const registry = createToolRegistry();
  const lsp: Interface = await createLsp(scope, { store: memoryStore(), registry, pool: { observe: observe?.observe, restartBudget: { max: 100, windowMs: 60_000 } } });
  const runtime = createToolRuntime({ registry });
  let n = 0;
  const call = (workspace: string, args: Record<string, unknown>): Promise<ToolOutcome> =>
    runtime.invoke({ sessionId: "s1", workspace, callId: `c${++n}`, name: "lsp", args, signal: new AbortController().signal });
  return { scope, registry, lsp, call };
}

const canonical = (o: ToolOutcome) => o.canonical as LspToolResult;
/** 1-based UTF-16 column of `needle` on a line of a fixture file. */
const column = (file: string, line: number, needle: string) => readFileSync(file, "utf8").split("\n")[line - 1]!.indexOf(needle) + 1;

describe("lsp tool over the real typescript-language-server (LSP-3, LSP-4)", () => {
  const fixture = copyFixture("ts-project");
  const ws = fixture.ws;
  const rec = recorder();
  let h: Awaited<ReturnType<typeof harness>>;
  beforeAll(async () => {
    symlinkSync(join(fixture.outside, "src", "math.ts"), join(ws, "src", "leak.ts"));
    h = await harness(rec);
  });
  afterAll(async () => {
    await h.scope.dispose();
    fixture[Symbol.dispose]();
  });

  it("goToDefinition across files: path:line:col with the source line", async () => {
    const o = await h.call(ws, { operation: "goToDefinition", filePath: "src/main.ts", line: 4, character: 22 });
    expect(o.status, o.rendered).toBe("ok");
    expect(canonical(o).locations).toEqual([
      { path: "src/math.ts", line: 1, character: 17, endLine: 1, endCharacter: 20, excerpt: "export function add(a: number, b: number): number {" },
    ]);
    expect(o.rendered).toBe("goToDefinition src/main.ts:4:22 → 1 definition:\nsrc/math.ts:1:17: export function add(a: number, b: number): number {");
  });

  it("findReferences lists every use, without the declaration by default (LSP-8)", async () => {
    const o = await h.call(ws, { operation: "findReferences", filePath: "src/math.ts", line: 1, character: 17 });
    expect(o.status, o.rendered).toBe("ok");
    expect(canonical(o).locations.map((l) => `${l.path}:${l.line}:${l.character}`)).toEqual(["src/main.ts:1:10", "src/main.ts:4:22", "src/main.ts:7:20"]);
    expect(canonical(o).truncated).toBe(false);
    const no = await h.call(ws, { operation: "findReferences", filePath: "src/math.ts", line: 1, character: 17, includeDeclaration: false });
    expect(canonical(no).locations).toEqual(canonical(o).locations);
  });

  it("findReferences with includeDeclaration: true lists the declaration too (LSP-8)", async () => {
    const o = await h.call(ws, { operation: "findReferences", filePath: "src/main.ts", line: 4, character: 22, includeDeclaration: true });
    expect(o.status, o.rendered).toBe("ok");
    expect(canonical(o).locations.map((l) => `${l.path}:${l.line}:${l.character}`)).toEqual(["src/main.ts:1:10", "src/main.ts:4:22", "src/main.ts:7:20", "src/math.ts:1:17"]);
    expect(o.rendered).toContain("src/math.ts:1:17: export function add(a: number, b: number): number {");
    const bad = await h.call(ws, { operation: "findReferences", filePath: "src/main.ts", line: 4, character: 22, includeDeclaration: "yes" });
    expect(bad.error?.code).toBe("invalid_arguments");
    expect(bad.rendered).toContain("includeDeclaration");
  });

  it("goToImplementation of an interface finds its classes", async () => {
    const o = await h.call(ws, { operation: "goToImplementation", filePath: "src/shapes.ts", line: 1, character: 18 });
    expect(o.status, o.rendered).toBe("ok");
    const found = canonical(o).locations.map((l) => `${l.path}:${l.line}:${l.character}`);
    expect(found).toContain("src/shapes.ts:5:14");
    expect(found).toContain("src/shapes.ts:12:14");
    expect(o.rendered).toContain("src/shapes.ts:5:14: export class Square implements Shape {");
  });

  it("hover gives the type and the doc comment as Markdown", async () => {
    const o = await h.call(ws, { operation: "hover", filePath: "src/main.ts", line: 4, character: column(join(ws, "src/main.ts"), 4, "multiply") });
    expect(o.status, o.rendered).toBe("ok");
    const markdown = canonical(o).hover!.markdown;
    expect(markdown).toContain("multiply(a: number, b: number): number");
    expect(markdown).toContain("Multiplies two numbers.");
    expect(markdown).toMatch(/^```typescript\n/);
    expect(canonical(o).locations).toEqual([]);
  });

  it("columns are UTF-16 code units in both directions (a non-BMP emoji counts 2)", async () => {
    const file = join(ws, "src/emoji.ts");
    const line3 = readFileSync(file, "utf8").split("\n")[2]!;
    // `… "😀😀"; export const pair = [ab,cd];` — counting code points would land two units early, on `ab`.
    const cd = line3.lastIndexOf("cd") + 1;
    expect([...line3.slice(0, cd - 1)].length + 1).toBe(cd - 2);
    const def = await h.call(ws, { operation: "goToDefinition", filePath: "src/emoji.ts", line: 3, character: cd });
    expect(def.status, def.rendered).toBe("ok");
    expect(canonical(def).locations.map((l) => `${l.line}:${l.character}`)).toEqual(["2:14"]);
    // The other way round: a definition after an emoji on its line comes back in UTF-16 columns too.
    const back = await h.call(ws, { operation: "goToDefinition", filePath: "src/emoji.ts", line: 5, character: column(file, 5, "target") });
    const target = column(file, 4, "target");
    const line4 = readFileSync(file, "utf8").split("\n")[3]!;
    expect([...line4.slice(0, target - 1)].length + 1).toBe(target - 1);
    expect(canonical(back).locations).toEqual([
      { path: "src/emoji.ts", line: 4, character: target, endLine: 4, endCharacter: target + 6, excerpt: line4 },
    ]);
    expect(back.rendered).toContain(`src/emoji.ts:4:${target}: export const smile = "🙂"; export const target = 3;`);
  });

  it("a location outside the workspace (the TypeScript lib) keeps its absolute path and one excerpt line", async () => {
    const o = await h.call(ws, { operation: "goToDefinition", filePath: "src/shapes.ts", line: 15, character: column(join(ws, "src/shapes.ts"), 15, "PI") });
    expect(o.status, o.rendered).toBe("ok");
    const [loc] = canonical(o).locations;
    expect(isAbsolute(loc!.path)).toBe(true);
    expect(loc!.path).toMatch(/lib\.es5\.d\.ts$/);
    expect(loc!.excerpt).toContain("PI");
  });

  it("refuses a file outside the workspace and a symlink escaping it", async () => {
    const outside = await h.call(ws, { operation: "goToDefinition", filePath: join(fixture.outside, "src/math.ts"), line: 1, character: 17 });
    expect(outside.status).toBe("error");
    expect(outside.error?.code).toBe("outside_workspace");
    const dotdot = await h.call(ws, { operation: "hover", filePath: "../outside/src/math.ts", line: 1, character: 17 });
    expect(dotdot.error?.code).toBe("outside_workspace");
    const link = await h.call(ws, { operation: "hover", filePath: "src/leak.ts", line: 1, character: 17 });
    expect(link.error?.code).toBe("outside_workspace");
    expect(link.rendered).toContain("outside the workspace");
  });

  it("says plainly when there is nothing at a position, and explains bad arguments", async () => {
    const empty = await h.call(ws, { operation: "goToDefinition", filePath: "src/math.ts", line: 4, character: 1 });
    expect(empty.status).toBe("ok");
    expect(empty.rendered).toContain("no definition found");
    expect(canonical(empty).locations).toEqual([]);
    const bad = await h.call(ws, { operation: "rename", filePath: "src/math.ts", line: 0, character: 1 });
    expect(bad.error?.code).toBe("invalid_arguments");
    const past = await h.call(ws, { operation: "hover", filePath: "src/math.ts", line: 99, character: 1 });
    expect(past.error?.code).toBe("invalid_position");
  });

  it("concurrent queries on one workspace are serialized request → response, on documents kept open (LSP-4 revised)", async () => {
    const from = rec.events.length;
    const ops = ["goToDefinition", "findReferences", "hover", "goToImplementation", "goToDefinition", "hover"] as const;
    const outcomes = await Promise.all(ops.map((operation, i) => h.call(ws, { operation, filePath: i % 2 ? "src/main.ts" : "src/shapes.ts", line: i % 2 ? 4 : 1, character: i % 2 ? 22 : 18 })));
    expect(outcomes.map((o) => o.status)).toEqual(ops.map(() => "ok"));
    const seq = rec.events.slice(from).filter((e) => ["didOpen", "didChange", "request", "response", "didClose"].includes(e.type));
    // Both files were opened by earlier tests and did not change: no didOpen, didChange or didClose.
    expect(seq.map((e) => e.type)).toEqual(ops.flatMap(() => ["request", "response"]));
  });
});

describe("typescript-language-server processes (LSP-4, LSP-6)", () => {
  it("two workspaces get two servers; kills mid-query are answered after one replacement; dispose leaves nothing", async () => {
    using a = copyFixture("ts-project");
    using b = copyFixture("ts-project");
    const rec = recorder();
    const h = await harness(rec);
    const seen = new Set<number>();
    try {
      const [ra, rb] = await Promise.all([
        h.call(a.ws, { operation: "goToDefinition", filePath: "src/main.ts", line: 4, character: 22 }),
        h.call(b.ws, { operation: "goToDefinition", filePath: "src/main.ts", line: 4, character: 22 }),
      ]);
      expect([ra.status, rb.status]).toEqual(["ok", "ok"]);
      const procs = h.lsp.pool.processes("typescript");
      expect(procs.map((p) => p.workspace).sort()).toEqual([a.ws, b.ws].sort());
      expect(new Set(procs.map((p) => p.pid)).size).toBe(2);
      for (const p of procs) seen.add(p.pid!);

      for (let i = 0; i < 3; i++) {
        const requested = rec.next("request");
        const call = h.call(a.ws, { operation: "findReferences", filePath: "src/math.ts", line: 1, character: 17 });
        await bounded(requested, 30_000, `request ${i}`);
        const pid = h.lsp.pool.processes("typescript").find((p) => p.workspace === a.ws)!.pid!;
        process.kill(pid, "SIGKILL");
        const o = await bounded(call, 60_000, `query ${i}`);
        expect(o.status, o.rendered).toBe("ok");
        expect(canonical(o).locations).toHaveLength(3);
        // The killed server's whole tree (tsserver included) is gone.
        expect(await eventually(() => !groupAlive(pid), 10_000), `group ${pid}`).toBe(true);
        seen.add(h.lsp.pool.processes("typescript").find((p) => p.workspace === a.ws)!.pid!);
      }
      expect(h.lsp.pool.processes("typescript").find((p) => p.workspace === a.ws)).toMatchObject({ state: "ready", restarts: 3 });
    } finally {
      await h.scope.dispose();
    }
    for (const pid of seen) {
      expect(running(pid), `pid ${pid}`).toBe(false);
      expect(groupAlive(pid), `group ${pid}`).toBe(false);
    }
    expect(listChildren().filter((c) => c.state === "running" && seen.has(c.pid))).toEqual([]);
  }, 180_000);
});
