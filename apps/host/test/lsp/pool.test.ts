import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { listChildren } from "../../src/core/process.js";
import { groupAlive } from "../../src/core/process-group.js";
import { bounded, eventually, fakePool, logLines, refusal, running } from "./helpers.js";

/** Two canonical workspaces with a few small files, and a file outside both. */
function workspaces() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "seam-lsp-pool-")));
  const make = (name: string) => {
    const ws = join(base, name);
    mkdirSync(ws);
    writeFileSync(join(ws, "a.ts"), "const alpha = 1;\nconst beta = alpha;\nexport { beta };\n");
    writeFileSync(join(ws, "b.ts"), "export const gamma = 3;\n");
    writeFileSync(join(ws, "emoji.ts"), "const s = \"😀\"; const t = s;\n");
    writeFileSync(join(ws, "notes.md"), "# notes\n");
    return ws;
  };
  const one = make("one");
  const two = make("two");
  writeFileSync(join(base, "secret.ts"), "export const secret = 1;\n");
  symlinkSync(join(base, "secret.ts"), join(one, "link.ts"));
  const log = join(base, "server.log");
  return { base, one, two, log };
}

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});
const setup = () => {
  const w = workspaces();
  cleanup.push(() => rmSync(w.base, { recursive: true, force: true }));
  return w;
};

const def = (workspace: string, filePath = "a.ts", line = 2, character = 14) => ({ workspace, filePath, operation: "goToDefinition" as const, line, character });

describe("pool (LSP-4) over a fake stdio server", () => {
  it("starts one server lazily on the first query and deduplicates concurrent starts", async () => {
    const w = setup();
    await using p = fakePool({ delayMs: 5, log: w.log });
    expect(p.pool.processes()).toEqual([]);
    const results = await Promise.all([p.pool.query(def(w.one)), p.pool.query(def(w.one, "b.ts", 1, 14)), p.pool.query(def(w.one))]);
    expect(results.map((r) => r.locations.length)).toEqual([1, 1, 1]);
    expect(p.rec.events.filter((e) => e.type === "spawn")).toHaveLength(1);
    const [proc] = p.pool.processes();
    expect(proc).toMatchObject({ serverId: "fake", workspace: w.one, state: "ready", restarts: 0 });
    // 1-based in, 0-based on the wire: line 2, character 14 → {line: 1, character: 13}.
    expect(results[0]!.locations[0]!.range.start).toEqual({ line: 1, character: 13 });
  });

  it("serializes queries per workspace; a document is opened once and stays open while unchanged (LSP-4 revised)", async () => {
    const w = setup();
    await using p = fakePool({ delayMs: 20, log: w.log });
    await Promise.all(Array.from({ length: 8 }, (_, i) => p.pool.query(def(w.one, i % 2 ? "a.ts" : "b.ts", 1, 2))));
    const seq = p.rec.events.filter((e) => ["didOpen", "request", "response", "didClose", "didChange"].includes(e.type)).map((e) => e.type);
    expect(seq).toEqual(["didOpen", "request", "response", "didOpen", "request", "response", ...Array.from({ length: 6 }, () => ["request", "response"]).flat()]);
    // The server saw the same: two opens, eight requests, no close and no change.
    expect(await eventually(() => logLines(w.log).length === 10)).toBe(true);
    const seen = logLines(w.log).map((l) => l.split(" ")[1]);
    expect(seen).toEqual(["open", "request", "open", ...Array.from({ length: 7 }, () => "request")]);
  });

  it("two workspaces get two servers", async () => {
    const w = setup();
    await using p = fakePool({ delayMs: 5 });
    await Promise.all([p.pool.query(def(w.one)), p.pool.query(def(w.two))]);
    const procs = p.pool.processes();
    expect(procs.map((x) => x.workspace).sort()).toEqual([w.one, w.two].sort());
    expect(new Set(procs.map((x) => x.pid)).size).toBe(2);
    // Each result belongs to its own workspace.
    const r = await p.pool.query(def(w.two));
    expect(r.root).toBe(w.two);
    expect(r.locations[0]!.uri).toBe(pathToFileURL(join(w.two, "a.ts")).href);
  });

  it("kill the server mid-query 50 times: every query is answered after one replacement, never hangs", async () => {
    const w = setup();
    await using p = fakePool({ delayMs: 150 }, { restartBudget: { max: 1_000, windowMs: 60_000 } });
    await p.pool.query(def(w.one));
    for (let i = 0; i < 50; i++) {
      const requested = p.rec.next("request");
      const query = p.pool.query(def(w.one));
      await bounded(requested, 15_000, `request ${i}`);
      const pid = p.pool.processes()[0]!.pid!;
      process.kill(pid, "SIGKILL");
      const result: unknown = await bounded(query.then((r) => r, (e: unknown) => e), 20_000, `query ${i}`);
      if (result instanceof Error) {
        // Allowed by LSP-4, but it must be typed.
        expect((result as { code?: string }).code, String(result)).toMatch(/:lsp$/);
      } else {
        expect((result as { locations: unknown[] }).locations).toHaveLength(1);
      }
    }
    const [proc] = p.pool.processes();
    expect(proc!.restarts).toBe(50);
    expect(proc!.state).toBe("ready");
    // The view keeps the last failure in words.
    expect(proc!.lastError).toContain("lsp:fake was killed by SIGKILL");
    expect(p.rec.events.filter((e) => e.type === "replace")).toHaveLength(50);
  }, 180_000);

  it("a server that dies on every request: replaced once, then a typed server_failed error", async () => {
    const w = setup();
    await using p = fakePool({ crash: "always" });
    const error = await refusal(bounded(p.pool.query(def(w.one)), 20_000, "query"));
    expect(error.code).toBe("unavailable:lsp");
    expect(error.data?.reason).toBe("server_failed");
    expect(error.message).toContain("failed twice");
    expect(p.rec.events.filter((e) => e.type === "spawn")).toHaveLength(2);
    expect(p.pool.processes()[0]).toMatchObject({ state: "failed", restarts: 1 });
  });

  it("over the restart budget the process stays failed until restarted", async () => {
    const w = setup();
    await using p = fakePool({ crash: "always" }, { restartBudget: { max: 2, windowMs: 60_000 } });
    await refusal(p.pool.query(def(w.one)));
    const second = await refusal(p.pool.query(def(w.one)));
    expect(second.data?.reason).toBe("server_failed");
    const spawns = p.rec.events.filter((e) => e.type === "spawn").length;
    const fast = await refusal(p.pool.query(def(w.one)));
    expect(fast.message).toContain("is failing");
    expect(fast.message).toContain("Restart it");
    expect(p.rec.events.filter((e) => e.type === "spawn").length).toBe(spawns);
    expect(p.pool.processes()[0]!.lastError).toContain("Restart it");
    // A restart clears the budget (and starts a fresh process, which is fine until it is asked something).
    await p.pool.restart("fake", w.one);
    expect(p.pool.processes()[0]).toMatchObject({ state: "ready" });
  });

  it("cancellation sends $/cancelRequest and frees the queue", async () => {
    const w = setup();
    await using p = fakePool({ hang: true, log: w.log });
    const controller = new AbortController();
    const requested = p.rec.next("request");
    const query = p.pool.query({ ...def(w.one), signal: controller.signal });
    await requested;
    controller.abort();
    const error = await refusal(bounded(query, 5_000, "cancelled query"));
    expect(error.data?.reason).toBe("cancelled");
    expect(await eventually(() => logLines(w.log).some((l) => l.includes("cancel definition"))), `${logLines(w.log).join("\n")}\n${p.rec.events.map((e) => e.type).join(" ")}`).toBe(true);
    // The next query in the workspace runs (hover is answered at once), on the document still open.
    const hover = await bounded(p.pool.query({ ...def(w.one), operation: "hover" }), 5_000, "hover after cancel");
    expect(hover.hover).toBe("**fake**");
    await eventually(() => logLines(w.log).length === 3);
    expect(logLines(w.log).map((l) => l.split(" ")[1])).toEqual(["open", "request", "cancel"]);
  });

  it("a timeout sends $/cancelRequest and is a typed timeout", async () => {
    const w = setup();
    await using p = fakePool({ hang: true, log: w.log }, { requestTimeoutMs: 1_500 });
    const error = await refusal(bounded(p.pool.query(def(w.one)), 10_000, "timed-out query"));
    expect(error.code).toBe("timeout:lsp");
    expect(await eventually(() => logLines(w.log).some((l) => l.includes("cancel definition")))).toBe(true);
    expect(p.pool.processes()[0]!.state).toBe("ready");
  });

  it("operations the server does not offer, or rejects with MethodNotFound, are operation_unsupported", async () => {
    const w = setup();
    await using p = fakePool({ hoverMissing: true, log: w.log });
    const impl = await refusal(p.pool.query({ ...def(w.one), operation: "goToImplementation" }));
    expect(impl.data?.reason).toBe("operation_unsupported");
    expect(impl.message).toContain("not supported by this language server");
    // Refused before the document was opened.
    expect(logLines(w.log)).toEqual([]);
    const hover = await refusal(p.pool.query({ ...def(w.one), operation: "hover" }));
    expect(hover.data?.reason).toBe("operation_unsupported");
    expect(hover.message).toContain("not supported by this language server");
    // The server is fine for what it does support.
    expect((await p.pool.query(def(w.one))).locations).toHaveLength(1);
  });

  it("refuses files outside the workspace, symlinks escaping it, unrouted and oversized files, bad positions", async () => {
    const w = setup();
    await using p = fakePool({}, { maxSourceBytes: 64 });
    writeFileSync(join(w.one, "big.ts"), `${"x".repeat(100)}\n`);
    expect((await refusal(p.pool.query(def(w.one, "../secret.ts", 1, 1)))).data?.reason).toBe("outside_workspace");
    expect((await refusal(p.pool.query(def(w.one, join(w.base, "secret.ts"), 1, 1)))).data?.reason).toBe("outside_workspace");
    expect((await refusal(p.pool.query(def(w.one, "link.ts", 1, 1)))).data?.reason).toBe("outside_workspace");
    const unrouted = await refusal(p.pool.query(def(w.one, "notes.md", 1, 1)));
    expect(unrouted.data?.reason).toBe("no_server");
    expect(unrouted.message).toContain(".md");
    expect((await refusal(p.pool.query(def(w.one, "big.ts", 1, 1)))).data?.reason).toBe("file_too_large");
    expect((await refusal(p.pool.query(def(w.one, "a.ts", 9, 1)))).message).toContain("past the end");
    expect((await refusal(p.pool.query(def(w.one, "a.ts", 1, 40)))).message).toContain("UTF-16 code units");
    // emoji.ts: `const s = "😀"` — the emoji occupies columns 12 and 13; 13 is its second half.
    expect((await refusal(p.pool.query(def(w.one, "emoji.ts", 1, 13)))).message).toContain("use 12");
    // Nothing was started for any of these.
    expect(p.pool.processes()).toEqual([]);
  });

  it("an idle server shuts down after its idle time and starts again on the next query", async () => {
    const w = setup();
    await using p = fakePool({}, { idleTimeoutMs: 300 });
    await p.pool.query(def(w.one));
    const pid = p.pool.processes()[0]!.pid!;
    expect(await eventually(() => p.pool.processes()[0]!.state === "stopped", 5_000)).toBe(true);
    expect(await eventually(() => !running(pid), 5_000)).toBe(true);
    await p.pool.query(def(w.one));
    expect(p.pool.processes()[0]).toMatchObject({ state: "ready", restarts: 0 });
    expect(p.pool.processes()[0]!.pid).not.toBe(pid);
  });

  it("dispose leaves no process behind: servers, their children, and listChildren entries", async () => {
    const w = setup();
    const p = fakePool({ child: true, log: w.log });
    await Promise.all([p.pool.query(def(w.one)), p.pool.query(def(w.two))]);
    const pids = p.pool.processes().map((x) => x.pid!);
    const children = logLines(w.log).filter((l) => l.split(" ")[1] === "child").map((l) => Number(l.split(" ")[2]));
    expect(pids).toHaveLength(2);
    expect(children).toHaveLength(2);
    for (const pid of [...pids, ...children]) expect(running(pid)).toBe(true);
    await p.scope.dispose();
    for (const pid of [...pids, ...children]) expect(running(pid), `pid ${pid}`).toBe(false);
    for (const pid of pids) expect(groupAlive(pid)).toBe(false);
    expect(listChildren().filter((c) => c.state === "running" && pids.includes(c.pid))).toEqual([]);
    expect(p.pool.processes()).toEqual([]);
  });

  it("disposeServer stops every workspace's process of that server and a query in flight fails typed", async () => {
    const w = setup();
    await using p = fakePool({ hang: true });
    const requested = p.rec.next("request");
    const inflight = refusal(bounded(p.pool.query(def(w.one)), 10_000, "in-flight query"));
    await requested;
    await p.pool.disposeServer("fake");
    const error = await inflight;
    expect(error.code).toMatch(/:lsp$/);
    expect(p.pool.processes()).toEqual([]);
  });
});

describe("pool.fileChanged (CODE-6, LSP-4)", () => {
  it("tells the running server of the file's workspace, in order with its queries, and nobody else", async () => {
    const w = setup();
    await using p = fakePool({ delayMs: 5, log: w.log });
    // No server runs yet: nothing to tell, and nothing is started for it.
    await p.pool.fileChanged(w.one, join(w.one, "a.ts"), "changed");
    expect(p.pool.processes()).toEqual([]);

    await p.pool.query(def(w.one));
    await p.pool.fileChanged(w.one, join(w.one, "a.ts"), "changed");
    await p.pool.fileChanged(w.one, join(w.one, "new.ts"), "created");
    await p.pool.fileChanged(w.two, join(w.two, "b.ts"), "changed");
    const uri = (file: string) => pathToFileURL(join(w.one, file)).href;
    await vi.waitFor(() => expect(logLines(w.log).map((l) => l.slice(l.indexOf(" ") + 1)).filter((l) => l.startsWith("changed"))).toEqual([`changed 2 ${uri("a.ts")}`, `changed 1 ${uri("new.ts")}`]));
    expect(p.rec.events.filter((e) => e.type === "didChangeWatchedFiles").map((e) => e.workspace)).toEqual([w.one, w.one]);
    // The workspace without a running server got nothing and started nothing.
    expect(p.pool.processes().map((x) => x.workspace)).toEqual([w.one]);
  });
});
