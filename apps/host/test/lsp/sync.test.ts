import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { PoolOptions } from "../../src/lsp/pool.js";
import { presets } from "../../src/lsp/presets.js";
import { copyFixture, documentEvents, eventually, fakePool, refusal, realPool, running } from "./helpers.js";

/** Open documents follow the files (LSP-4 revised), on the real typescript-language-server. */
const ts = presets().find((p) => p.id === "typescript")!.config;
const TS_EXTENSIONS = [".ts"];
const tsPool = (options: Partial<PoolOptions> = {}, idleTimeoutMs?: number) =>
  realPool({ id: "typescript", command: ts.command, args: ts.args, initializationOptions: ts.initializationOptions, idleTimeoutMs }, TS_EXTENSIONS, options);

const def = (workspace: string, filePath: string, line: number, character: number) => ({ workspace, filePath, operation: "goToDefinition" as const, line, character });
const at = (r: { locations: { uri: string; range: { start: { line: number; character: number } } }[] }) =>
  r.locations.map((l) => `${l.uri.slice(l.uri.lastIndexOf("/") + 1)}:${l.range.start.line + 1}:${l.range.start.character + 1}`);

describe("open documents on typescript-language-server (LSP-4 revised)", () => {
  it("an outside edit of the queried file is sent as didChange (version + 1) and the answer follows the new text", async () => {
    using f = copyFixture("ts-project");
    await using p = tsPool();
    const main = join(f.ws, "src/main.ts");
    // `export const sum = add(total, …)`: `total` (line 7) is defined on line 4.
    expect(at(await p.pool.query(def(f.ws, "src/main.ts", 7, 24)))).toEqual(["main.ts:4:14"]);
    expect(at(await p.pool.query(def(f.ws, "src/main.ts", 7, 24)))).toEqual(["main.ts:4:14"]);
    writeFileSync(main, `// one line more\n${readFileSync(main, "utf8")}`);
    expect(at(await p.pool.query(def(f.ws, "src/main.ts", 8, 24)))).toEqual(["main.ts:5:14"]);
    expect(documentEvents(p.rec.events)).toEqual(["didOpen main.ts:1", "didChange main.ts:2"]);
    // Unchanged again: asked directly.
    await p.pool.query(def(f.ws, "src/main.ts", 8, 24));
    expect(documentEvents(p.rec.events)).toHaveLength(2);
  }, 60_000);

  it("an outside edit of another open document is found by its stamp and sent before the query", async () => {
    using f = copyFixture("ts-project");
    await using p = tsPool();
    const math = join(f.ws, "src/math.ts");
    expect(at(await p.pool.query(def(f.ws, "src/math.ts", 2, 10)))).toEqual(["math.ts:1:21"]);
    expect(at(await p.pool.query(def(f.ws, "src/main.ts", 4, 22)))).toEqual(["math.ts:1:17"]);
    writeFileSync(math, `\n\n${readFileSync(math, "utf8")}`);
    expect(at(await p.pool.query(def(f.ws, "src/main.ts", 4, 22)))).toEqual(["math.ts:3:17"]);
    expect(documentEvents(p.rec.events)).toEqual(["didOpen math.ts:1", "didOpen main.ts:1", "didChange math.ts:2"]);
  }, 60_000);

  it("a deleted file is closed: asked about (not_found) or found gone while another file is queried", async () => {
    using f = copyFixture("ts-project");
    await using p = tsPool();
    await p.pool.query(def(f.ws, "src/shapes.ts", 15, 17));
    await p.pool.query(def(f.ws, "src/emoji.ts", 2, 14));
    await p.pool.query(def(f.ws, "src/main.ts", 4, 22));
    rmSync(join(f.ws, "src/shapes.ts"));
    const gone = await refusal(p.pool.query(def(f.ws, "src/shapes.ts", 15, 17)));
    expect(gone.data?.reason).toBe("not_found");
    expect(documentEvents(p.rec.events).slice(-1)).toEqual(["didClose shapes.ts:deleted"]);
    rmSync(join(f.ws, "src/emoji.ts"));
    await p.pool.query(def(f.ws, "src/main.ts", 4, 22));
    expect(documentEvents(p.rec.events).slice(-1)).toEqual(["didClose emoji.ts:deleted"]);
  }, 60_000);

  it("beyond the cap the least recently used document is closed (cap 3)", async () => {
    using f = copyFixture("ts-project");
    await using p = tsPool({ maxOpenDocuments: 3 });
    await p.pool.query(def(f.ws, "src/main.ts", 4, 22));
    await p.pool.query(def(f.ws, "src/math.ts", 1, 17));
    await p.pool.query(def(f.ws, "src/shapes.ts", 15, 17));
    // main.ts is used again, so math.ts is now the least recently used.
    await p.pool.query(def(f.ws, "src/main.ts", 4, 22));
    await p.pool.query(def(f.ws, "src/emoji.ts", 2, 14));
    await p.pool.query(def(f.ws, "src/main.ts", 4, 22));
    await p.pool.query(def(f.ws, "src/math.ts", 1, 17));
    expect(documentEvents(p.rec.events)).toEqual([
      "didOpen main.ts:1", "didOpen math.ts:1", "didOpen shapes.ts:1", "didOpen emoji.ts:1", "didClose math.ts:evicted",
      "didOpen math.ts:1", "didClose shapes.ts:evicted",
    ]);
  }, 60_000);

  it("an idle shutdown closes every open document first", async () => {
    using f = copyFixture("ts-project");
    await using p = tsPool({}, 2_000);
    await p.pool.query(def(f.ws, "src/main.ts", 4, 22));
    await p.pool.query(def(f.ws, "src/math.ts", 1, 17));
    const pid = p.pool.processes()[0]!.pid!;
    expect(await eventually(() => p.pool.processes()[0]!.state === "stopped", 20_000)).toBe(true);
    expect(documentEvents(p.rec.events)).toEqual(["didOpen main.ts:1", "didOpen math.ts:1", "didClose main.ts:idle", "didClose math.ts:idle"]);
    expect(await eventually(() => !running(pid), 10_000)).toBe(true);
    // A new process starts with nothing open.
    await p.pool.query(def(f.ws, "src/main.ts", 4, 22));
    expect(documentEvents(p.rec.events).slice(-1)).toEqual(["didOpen main.ts:1"]);
  }, 60_000);

  it("Seam's own write (pool.fileChanged) updates an open document at once; a delete closes it", async () => {
    using f = copyFixture("ts-project");
    await using p = tsPool();
    const main = join(f.ws, "src/main.ts");
    await p.pool.query(def(f.ws, "src/main.ts", 7, 24));
    await p.pool.query(def(f.ws, "src/math.ts", 1, 17));
    writeFileSync(main, `\n${readFileSync(main, "utf8")}`);
    await p.pool.fileChanged(f.ws, main, "changed");
    // Sent by the write itself, before any query; the watched-files notice follows.
    expect(documentEvents(p.rec.events)).toEqual(["didOpen main.ts:1", "didOpen math.ts:1", "didChange main.ts:2"]);
    expect(p.rec.events.filter((e) => e.type === "didChangeWatchedFiles").map((e) => ("uri" in e ? e.uri : ""))).toEqual([pathToFileURL(main).href]);
    expect(at(await p.pool.query(def(f.ws, "src/main.ts", 8, 24)))).toEqual(["main.ts:5:14"]);
    expect(documentEvents(p.rec.events)).toHaveLength(3);
    // The same content written again changes nothing; a file that is not open is not opened.
    await p.pool.fileChanged(f.ws, main, "changed");
    await p.pool.fileChanged(f.ws, join(f.ws, "src/shapes.ts"), "changed");
    expect(documentEvents(p.rec.events)).toHaveLength(3);
    rmSync(join(f.ws, "src/math.ts"));
    await p.pool.fileChanged(f.ws, join(f.ws, "src/math.ts"), "deleted");
    expect(documentEvents(p.rec.events).slice(-1)).toEqual(["didClose math.ts:deleted"]);
  }, 60_000);
});

describe("open documents: edges (LSP-4 revised)", () => {
  it("the cap must be a positive integer: a clear error, and no pool", () => {
    expect(() => fakePool({}, { maxOpenDocuments: 0 })).toThrow(/maxOpenDocuments must be a positive integer/);
    expect(() => fakePool({}, { maxOpenDocuments: 1.5 })).toThrow(/maxOpenDocuments/);
  });

  it("a file grown past the byte cap is refused and closed on the server", async () => {
    using f = copyFixture("ts-project");
    await using p = fakePool({}, { maxSourceBytes: 4_096 });
    await p.pool.query(def(f.ws, "src/math.ts", 1, 17));
    writeFileSync(join(f.ws, "src/math.ts"), "x".repeat(5_000));
    const big = await refusal(p.pool.query(def(f.ws, "src/math.ts", 1, 1)));
    expect(big.data?.reason).toBe("file_too_large");
    expect(documentEvents(p.rec.events)).toEqual(["didOpen math.ts:1", "didClose math.ts:unreadable"]);
  });

  it("a bad position changes nothing on the server", async () => {
    using f = copyFixture("ts-project");
    await using p = fakePool();
    await p.pool.query(def(f.ws, "src/math.ts", 1, 17));
    expect((await refusal(p.pool.query(def(f.ws, "src/math.ts", 99, 1)))).data?.reason).toBe("invalid_position");
    expect(documentEvents(p.rec.events)).toEqual(["didOpen math.ts:1"]);
  });
});
