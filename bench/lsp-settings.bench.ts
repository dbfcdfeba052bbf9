/**
 * What a server's `settings` cost (LSP-8), in the same run:
 *
 * 1. answering `workspace/configuration` in-process for pyright's three items (`python`, `python.analysis`,
 *    `pyright`) and serializing the answer as the connection would: no settings (baseline: every item null,
 *    what Seam answered before), a small settings object, and one near the 100,000-character cap;
 * 2. a cold query on the fake stdio server (spawn, initialize, initialized, first hover), which asks
 *    `workspace/configuration` after `initialized`: without settings (baseline) and with settings (the
 *    answer plus the `workspace/didChangeConfiguration` push, which makes it ask again).
 *
 * Prints p50/p99 and ratios; asserts nothing. BENCH_LSP_ANSWERS / BENCH_LSP_COLD change the sample sizes.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createToolRegistry } from "../apps/host/src/agent/registry.js";
import { createLog } from "../apps/host/src/core/log.js";
import { createScope } from "../apps/host/src/core/scope.js";
import { answerConfiguration, type ServerSettings } from "../apps/host/src/lsp/configuration.js";
import { createLsp } from "../apps/host/src/lsp/lsp.js";
import { ms, percentile } from "./stats.js";

const ANSWERS = Number(process.env.BENCH_LSP_ANSWERS ?? 20_000);
const COLD = Number(process.env.BENCH_LSP_COLD ?? 30);
const FAKE_SERVER = fileURLToPath(new URL("../apps/host/test/fixture/lsp/fake-server.mjs", import.meta.url));
const ITEMS = { items: [{ scopeUri: "file:///ws", section: "python" }, { scopeUri: "file:///ws", section: "python.analysis" }, { scopeUri: "file:///ws", section: "pyright" }] };

const small = { python: { analysis: { extraPaths: ["vendor"], typeCheckingMode: "basic" } }, pyright: { disableOrganizeImports: true } };
const large = { python: { analysis: { extraPaths: Array.from({ length: 3_850 }, (_, i) => `vendor/lib-${i}/src/pkg`) } }, pyright: {} };

const line = (name: string, sample: number[], base?: number[], unit = (n: number) => ms(n)) => {
  const p50 = percentile(sample, 50);
  const ratio = base ? `  ${(p50 / percentile(base, 50)).toFixed(2)}×` : "  (baseline)";
  console.log(`${name.padEnd(44)} p50 ${unit(p50).padStart(12)}  p99 ${unit(percentile(sample, 99)).padStart(12)}${ratio}`);
};
const us = (n: number) => `${(n * 1000).toFixed(2)} µs`;

/** One answer per sample, serialized as the connection writes it. */
function answers(settings: ServerSettings): number[] {
  const out: number[] = [];
  for (let i = 0; i < ANSWERS; i++) {
    const t = performance.now();
    JSON.stringify({ jsonrpc: "2.0", id: i, result: answerConfiguration(settings, ITEMS) });
    out.push(performance.now() - t);
  }
  return out;
}

console.log(`lsp-settings: answering workspace/configuration (${ANSWERS} answers each, pyright's 3 items)`);
console.log(`  large settings: ${JSON.stringify(large).length.toLocaleString("en-US")} characters as JSON`);
answers(small);
const none = answers(undefined);
const withSmall = answers(small);
const withLarge = answers(large);
line("no settings: every item null", none, undefined, us);
line("small settings", withSmall, none, us);
line("settings near the 100,000-character cap", withLarge, none, us);

const base = realpathSync(mkdtempSync(join(tmpdir(), "seam-bench-lsp-settings-")));
writeFileSync(join(base, "x.fake"), "one two\n");
const scope = createScope("bench-lsp-settings", { slowDisposeMs: Infinity });
try {
  const server = (id: string, settings?: Record<string, unknown>) => ({
    id, command: process.execPath, args: [FAKE_SERVER, JSON.stringify({ configuration: ITEMS.items })], extensions: [`.${id}`], ...(settings ? { settings } : {}),
  });
  const store = new Map<string, unknown>([["lsp", { servers: [server("plain"), server("configured", small)] }]]);
  const lsp = await createLsp(scope, {
    store: { settings: { get: async (k: string) => store.get(k), set: async (k: string, v: unknown) => void store.set(k, v) } },
    registry: createToolRegistry(),
    log: createLog("bench", () => {}),
  });
  writeFileSync(join(base, "x.plain"), "one two\n");
  writeFileSync(join(base, "x.configured"), "one two\n");
  const cold = async (id: string) => {
    const t = performance.now();
    await lsp.query({ workspace: base, filePath: `x.${id}`, operation: "hover", line: 1, character: 1 });
    const took = performance.now() - t;
    await lsp.pool.disposeServer(id);
    return took;
  };
  await cold("plain");
  await cold("configured");
  const plain: number[] = [];
  const configured: number[] = [];
  // Which goes first alternates too, so an order effect (the previous process still exiting) hits both.
  for (let i = 0; i < COLD; i++) {
    if (i % 2 === 0) {
      plain.push(await cold("plain"));
      configured.push(await cold("configured"));
    } else {
      configured.push(await cold("configured"));
      plain.push(await cold("plain"));
    }
  }
  console.log(`\nlsp-settings: cold query on the fake stdio server (${COLD} each, alternating, order swapped every round)`);
  line("no settings (nulls answered)", plain);
  line("settings (answered + didChangeConfiguration)", configured, plain);
} finally {
  await scope.dispose();
  rmSync(base, { recursive: true, force: true });
}
