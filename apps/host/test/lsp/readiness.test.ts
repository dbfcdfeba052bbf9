import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveCommand } from "../../src/lsp/command.js";
import type { PoolEvent } from "../../src/lsp/pool.js";
import { presets } from "../../src/lsp/presets.js";
import { renderQuery } from "../../src/lsp/render.js";
import { copyFixture, fakePool, realPool } from "./helpers.js";

/** LSP-8: a server that is still indexing is waited for, and a result that may be incomplete says so. */
const def = (workspace: string, filePath: string, line: number, character: number) => ({ workspace, filePath, operation: "goToDefinition" as const, line, character });
const at = (r: { locations: { uri: string; range: { start: { line: number; character: number } } }[] }) =>
  r.locations.map((l) => `${l.uri.slice(l.uri.lastIndexOf("/") + 1)}:${l.range.start.line + 1}:${l.range.start.character + 1}`);
const waits = (events: PoolEvent[]) => events.flatMap((e) => (e.type === "wait" ? [e.why] : []));

function shellProject() {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), "seam-lsp-sh-")));
  writeFileSync(join(ws, "lib.sh"), "#!/bin/bash\n# Greets its argument.\ngreet() {\n  echo \"hello $1\"\n}\n");
  writeFileSync(join(ws, "main.sh"), "#!/bin/bash\nsource ./lib.sh\ngreet world\n");
  return { ws, [Symbol.dispose]: () => rmSync(ws, { recursive: true, force: true }) };
}

describe("readiness of cold servers, real servers (LSP-8)", () => {
  it("a cold bash-language-server answers a cross-file definition correctly on the first call", async () => {
    const command = resolveCommand("bash-language-server", process.env);
    expect(command, "bash-language-server is the host's devDependency").not.toBeNull();
    using project = shellProject();
    await using p = realPool({ id: "bash", command: command!, args: ["start"] }, [".sh"]);
    const r = await p.pool.query(def(project.ws, "main.sh", 3, 1));
    expect(at(r), JSON.stringify(p.rec.events.filter((e) => e.type === "wait"))).toEqual(["lib.sh:3:1"]);
    expect(r.mayBeIncomplete).toBe(false);
    // It answers at once, warm.
    const from = p.rec.events.length;
    expect(at(await p.pool.query(def(project.ws, "main.sh", 3, 1)))).toEqual(["lib.sh:3:1"]);
    expect(waits(p.rec.events.slice(from))).toEqual([]);
  }, 60_000);

  it("typescript-language-server with its syntax server enabled answers the real definition on the first call", async () => {
    const ts = presets().find((x) => x.id === "typescript")!.config;
    const options = ts.initializationOptions as { tsserver: { path: string; useSyntaxServer?: string } };
    expect(options.tsserver.useSyntaxServer).toBe("never");
    // The preset's options without `useSyntaxServer: "never"`: tsserver's default ("auto") answers from the syntax server while the project loads.
    const auto = { ...options, tsserver: { path: options.tsserver.path } };
    using f = copyFixture("ts-project");
    await using p = realPool({ id: "typescript", command: ts.command, args: ts.args, initializationOptions: auto }, [".ts"]);
    const r = await p.pool.query(def(f.ws, "src/main.ts", 4, 22));
    expect(at(r), JSON.stringify(p.rec.events.filter((e) => e.type === "wait"))).toEqual(["math.ts:1:17"]);
    expect(r.mayBeIncomplete).toBe(false);
  }, 60_000);
});

describe("readiness rules, on a fake server (LSP-8)", () => {
  it("open work-done progress is waited for, and an answer given while it is open is asked again", async () => {
    using f = copyFixture("ts-project");
    await using p = fakePool({ progressMs: 1_200 });
    const r = await p.pool.query(def(f.ws, "src/main.ts", 4, 22));
    // While "indexing" the fake answers 1:1; the answer kept is the one after the progress ended.
    expect(at(r)).toEqual(["main.ts:4:22"]);
    expect(r.mayBeIncomplete).toBe(false);
    expect(waits(p.rec.events)).toContain("progress");
  });

  it("progress that never ends is waited for at most progressMs; the answer says it may be incomplete, later queries do not wait", async () => {
    using f = copyFixture("ts-project");
    await using p = fakePool({ progressMs: 1, progressEnds: false }, { readiness: { progressMs: 800 } });
    // Let the server report its progress before asking.
    await p.pool.restart("fake", f.ws);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const r = await p.pool.query(def(f.ws, "src/main.ts", 4, 22));
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(r.mayBeIncomplete).toBe(true);
    const rendered = await renderQuery(r, { filePath: "src/main.ts", line: 4, character: 22 });
    expect(rendered.canonical).toMatchObject({ mayBeIncomplete: true });
    expect(rendered.rendered).toContain("may be incomplete");
    const from = p.rec.events.length;
    const again = await p.pool.query(def(f.ws, "src/main.ts", 4, 22));
    expect(waits(p.rec.events.slice(from))).toEqual([]);
    expect(again.mayBeIncomplete).toBe(false);
  });

  it("an empty answer from a young server is asked again with backoff until it answers", async () => {
    using f = copyFixture("ts-project");
    await using p = fakePool({ emptyForMs: 1_000 });
    const r = await p.pool.query(def(f.ws, "src/main.ts", 4, 22));
    expect(at(r)).toEqual(["main.ts:4:22"]);
    expect(r.mayBeIncomplete).toBe(false);
    const empties = waits(p.rec.events).filter((w) => w === "empty");
    expect(empties.length).toBeGreaterThanOrEqual(2);
    // Backoff: each wait at least as long as the one before.
    const ms = p.rec.events.flatMap((e) => (e.type === "wait" ? [e.ms] : []));
    expect([...ms].sort((a, b) => a - b)).toEqual(ms);
  });

  it("an empty answer that stays empty is returned after retryMs, marked as maybe incomplete; from an old server it is final", async () => {
    using f = copyFixture("ts-project");
    await using p = fakePool({ emptyForMs: 60_000 }, { readiness: { retryMs: 600, warmupMs: 60_000 } });
    const started = Date.now();
    const r = await p.pool.query(def(f.ws, "src/main.ts", 4, 22));
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(r.locations).toEqual([]);
    expect(r.mayBeIncomplete).toBe(true);
    const rendered = await renderQuery(r, { filePath: "src/main.ts", line: 4, character: 22 });
    expect(rendered.rendered).toMatch(/^goToDefinition src\/main\.ts:4:22: no definition found .*\n\[This answer may be incomplete/s);
    expect(rendered.canonical).toEqual({ operation: "goToDefinition", locations: [], truncated: false, mayBeIncomplete: true });

    await using old = fakePool({ emptyForMs: 60_000 }, { readiness: { warmupMs: 0 } });
    const final = await old.pool.query(def(f.ws, "src/main.ts", 4, 22));
    expect(final.mayBeIncomplete).toBe(false);
    expect(waits(old.rec.events)).toEqual([]);
  });

  it("a cancelled query stops waiting at once", async () => {
    using f = copyFixture("ts-project");
    await using p = fakePool({ emptyForMs: 60_000 });
    const controller = new AbortController();
    const query = p.pool.query({ ...def(f.ws, "src/main.ts", 4, 22), signal: controller.signal });
    await p.rec.next("wait");
    controller.abort();
    await expect(query).rejects.toMatchObject({ data: { reason: "cancelled" } });
  });
});
