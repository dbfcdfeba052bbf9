/**
 * A warm `lsp` query (SPEC §9, LSP-3/LSP-4): goToDefinition of `add` at its call in the fixture project
 * (apps/host/test/fixture/lsp/ts-project), on the real typescript-language-server with the TypeScript 5
 * tsserver, in the same run:
 *
 * 1. raw (baseline): a bare vscode-jsonrpc connection to an already-initialized server, the file opened
 *    once; each sample is one `textDocument/definition` request.
 * 2. seam: the `lsp` tool through the tool runtime on a warm pooled server — containment check, routing,
 *    the source read and its content hash, the workspace queue, the document already open and unchanged
 *    (LSP-4 revised: one request), excerpt read and rendering.
 * 3. pool only: the same without the tool runtime and the rendering — the LSP-4 target, ≤ 1.10× raw.
 * 4. pool, changed file: the pool query on a file whose content changed before each sample (written outside
 *    the timing): read, hash, didChange (full text, version + 1), definition.
 * 5. raw didChange: the baseline of 4 — a bare connection sending didChange (text from memory) and definition.
 * 6. raw open/close: read the file, didOpen → definition → didClose on a bare connection — what the old
 *    per-query document lifetime cost, for comparison.
 * 7. spawn per query: a fresh server for each query (spawn, initialize, didOpen, definition, shutdown).
 *
 * Rounds alternate between the warm pipelines so drift hits all of them. Prints p50/p99 and ratios; asserts
 * nothing. BENCH_LSP_QUERIES / BENCH_LSP_SPAWNS change the sample sizes.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node";
import { createToolRegistry } from "../apps/host/src/agent/registry.js";
import { createToolRuntime } from "../apps/host/src/agent/runtime.js";
import { createLog } from "../apps/host/src/core/log.js";
import { createScope } from "../apps/host/src/core/scope.js";
import { createLsp } from "../apps/host/src/lsp/lsp.js";
import { ms, percentile } from "./stats.js";

const QUERIES = Number(process.env.BENCH_LSP_QUERIES ?? 1_000);
const SPAWNS = Number(process.env.BENCH_LSP_SPAWNS ?? 8);
const ROUND = 100;
const WARMUP = 200;

const hostRequire = createRequire(fileURLToPath(new URL("../apps/host/package.json", import.meta.url)));
const cli = hostRequire.resolve("typescript-language-server/lib/cli.mjs");
const tsserver = hostRequire.resolve("typescript5/lib/tsserver.js");
const fixture = fileURLToPath(new URL("../apps/host/test/fixture/lsp/ts-project", import.meta.url));

const base = realpathSync(mkdtempSync(join(tmpdir(), "seam-bench-lsp-")));
const ws = join(base, "ws");
cpSync(fixture, ws, { recursive: true });
const main = join(ws, "src", "main.ts");
const mainUri = pathToFileURL(main).href;
// The changed-file pipelines work on a copy of main.ts, so that the unchanged ones never see a change.
const edited = join(ws, "src", "edited.ts");
const editedUri = pathToFileURL(edited).href;
const texts = [readFileSync(main, "utf8"), `${readFileSync(main, "utf8")}// changed\n`];
writeFileSync(edited, texts[0]!);
const mathUri = pathToFileURL(join(ws, "src", "math.ts")).href;
const position = { line: 3, character: 21 };

type Call = () => Promise<void>;
/** `prepare` runs before each sample, outside the timing. */
interface Pipeline { name: string; call: Call; prepare?(): void }

/**
 * A bare client: typescript-language-server spawned directly, initialized, main.ts opened once. Detached (its own
 * session), as Seam's `spawnChild` starts servers: under Linux's autogroup scheduling a server in the bench's own
 * session competes with the bench for CPU and answers more slowly, which would flatter Seam's ratios.
 */
async function rawServer(): Promise<{ connection: MessageConnection; close(): Promise<void> }> {
  const child = spawn(process.execPath, [cli, "--stdio"], { cwd: ws, stdio: ["pipe", "pipe", "ignore"], detached: true });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onRequest(() => null);
  connection.listen();
  await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri: pathToFileURL(ws).href,
    workspaceFolders: [{ uri: pathToFileURL(ws).href, name: "ws" }],
    capabilities: { textDocument: { definition: { linkSupport: true }, hover: { contentFormat: ["markdown"] } } },
    initializationOptions: { tsserver: { path: tsserver, useSyntaxServer: "never" } },
  });
  await connection.sendNotification("initialized", {});
  return {
    connection,
    async close() {
      await connection.sendRequest("shutdown").catch(() => {});
      await connection.sendNotification("exit").catch(() => {});
      connection.dispose();
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => { child.kill("SIGKILL"); resolve(); }, 3_000);
        child.once("exit", () => { clearTimeout(timer); resolve(); });
      });
    },
  };
}

const expectMath = (who: string, result: unknown) => {
  const first = (Array.isArray(result) ? result[0] : result) as { uri?: string; targetUri?: string } | undefined;
  if ((first?.targetUri ?? first?.uri) !== mathUri) throw new Error(`${who}: unexpected result ${JSON.stringify(result)}`);
};

async function openMain(connection: MessageConnection) {
  await connection.sendNotification("textDocument/didOpen", { textDocument: { uri: mainUri, languageId: "typescript", version: 1, text: readFileSync(main, "utf8") } });
}

async function timed(p: Pipeline, n: number, into: number[]) {
  for (let i = 0; i < n; i++) {
    p.prepare?.();
    const t = performance.now();
    await p.call();
    into.push(performance.now() - t);
  }
}

/** `ratios`: [numerator, denominator] indexes into names/samples. */
function report(title: string, names: string[], samples: number[][], ratios: [number, number][]) {
  const p50 = samples.map((s) => percentile(s, 50));
  const p99 = samples.map((s) => percentile(s, 99));
  console.log(`\n${title}`);
  names.forEach((name, k) => console.log(`  ${name.padEnd(36)} n=${String(samples[k]!.length).padEnd(5)} p50 ${ms(p50[k]!)}  p99 ${ms(p99[k]!)}`));
  for (const [a, b] of ratios) {
    console.log(`  ratio ${names[a]} / ${names[b]}`.padEnd(78) + `p50 ${(p50[a]! / p50[b]!).toFixed(2)}×  p99 ${(p99[a]! / p99[b]!).toFixed(2)}×`);
  }
}

const scope = createScope("bench-lsp");
const raw = await rawServer();
// The changing pipelines (didChange; didOpen → definition → didClose) on a bare connection of their own.
const rawOpenClose = await rawServer();
try {
  await openMain(raw.connection);
  const registry = createToolRegistry();
  const settings = new Map<string, unknown>();
  const lsp = await createLsp(scope, {
    store: { settings: { get: async (k) => settings.get(k), set: async (k, v) => void settings.set(k, v) } },
    registry,
    log: createLog("bench-lsp", () => {}),
  });
  const runtime = createToolRuntime({ registry });
  const signal = new AbortController().signal;
  let n = 0;
  let version = 1;
  let poolEdits = 0;
  let rawEdits = 0;
  let rawEditVersion = 1;
  await rawOpenClose.connection.sendNotification("textDocument/didOpen", { textDocument: { uri: editedUri, languageId: "typescript", version: 1, text: texts[0] } });

  const pipelines: Pipeline[] = [
    {
      name: "raw vscode-jsonrpc (baseline)",
      call: async () => expectMath("raw", await raw.connection.sendRequest("textDocument/definition", { textDocument: { uri: mainUri }, position })),
    },
    {
      name: "seam: lsp tool via runtime",
      call: async () => {
        const outcome = await runtime.invoke({ sessionId: "bench", workspace: ws, callId: `c${++n}`, name: "lsp", args: { operation: "goToDefinition", filePath: "src/main.ts", line: 4, character: 22 }, signal });
        if (!outcome.rendered.includes("src/math.ts:1:17")) throw new Error(`seam: unexpected result ${outcome.rendered}`);
      },
    },
    {
      name: "seam: pool query only",
      call: async () => {
        const r = await lsp.query({ workspace: ws, filePath: "src/main.ts", operation: "goToDefinition", line: 4, character: 22 });
        expectMath("pool", r.locations);
      },
    },
    {
      name: "seam: pool query, file changed",
      prepare: () => writeFileSync(edited, texts[++poolEdits % 2]!),
      call: async () => {
        const r = await lsp.query({ workspace: ws, filePath: "src/edited.ts", operation: "goToDefinition", line: 4, character: 22 });
        expectMath("pool-changed", r.locations);
      },
    },
    {
      name: "raw didChange+definition",
      call: async () => {
        const c = rawOpenClose.connection;
        await c.sendNotification("textDocument/didChange", { textDocument: { uri: editedUri, version: ++rawEditVersion }, contentChanges: [{ text: texts[++rawEdits % 2] }] });
        expectMath("raw-change", await c.sendRequest("textDocument/definition", { textDocument: { uri: editedUri }, position }));
      },
    },
    {
      name: "raw didOpen+definition+didClose",
      call: async () => {
        const c = rawOpenClose.connection;
        await c.sendNotification("textDocument/didOpen", { textDocument: { uri: mainUri, languageId: "typescript", version: ++version, text: readFileSync(main, "utf8") } });
        expectMath("raw-open", await c.sendRequest("textDocument/definition", { textDocument: { uri: mainUri }, position }));
        await c.sendNotification("textDocument/didClose", { textDocument: { uri: mainUri } });
      },
    },
  ];

  for (let k = 0; k < WARMUP; k += 50) for (const p of pipelines) await timed(p, 50, []);
  const samples = pipelines.map(() => [] as number[]);
  for (let done = 0, round = 0; done < QUERIES; done += ROUND, round++) {
    for (let j = 0; j < pipelines.length; j++) {
      const k = (j + round) % pipelines.length;
      await timed(pipelines[k]!, Math.min(ROUND, QUERIES - done), samples[k]!);
    }
  }

  // A fresh server per query: what the pool saves.
  const perQuery: number[] = [];
  for (let i = 0; i < SPAWNS; i++) {
    const t = performance.now();
    const fresh = await rawServer();
    await openMain(fresh.connection);
    expectMath("spawn", await fresh.connection.sendRequest("textDocument/definition", { textDocument: { uri: mainUri }, position }));
    perQuery.push(performance.now() - t);
    await fresh.close();
  }

  report(
    `LSP goToDefinition, warm (${QUERIES} queries each, rounds of ${ROUND}, ${WARMUP} warm-up) and spawn-per-query (${SPAWNS})`,
    [...pipelines.map((p) => p.name), "spawn a server per query"],
    [...samples, perQuery],
    // tool and pool vs raw; changed pool vs raw; changed raw vs raw; changed pool vs changed raw; open/close vs raw; spawn vs raw.
    [[1, 0], [2, 0], [3, 0], [4, 0], [3, 4], [5, 0], [6, 0]],
  );
} finally {
  await scope.dispose();
  await raw.close();
  await rawOpenClose.close();
  rmSync(base, { recursive: true, force: true });
}
