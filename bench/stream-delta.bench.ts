/**
 * Host overhead per streamed delta (SPEC §9): the time from the scripted model writing a chunk until the
 * client receives it, through Seam (OpenAI-compatible adapter → agent loop → session bus → tRPC SSE
 * [→ web proxy → Chromium]) versus a raw SSE relay measured in the same run. Prints p50/p99 and ratios;
 * asserts nothing. Send and receive times are wall-clock (performance.timeOrigin + now) on one machine.
 */
import type { Browser } from "playwright-core";
import { browserAvailable, launch, relayToBrowser, seamToBrowser } from "./browser.js";
import { relayToNode, seamToNode } from "./node-client.js";
import { startBenchModel } from "./pipelines.js";
import { ms, percentile } from "./stats.js";

const DELTAS = Number(process.env.BENCH_DELTAS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GAP_MS = 3;

const { model, sentAt } = await startBenchModel(DELTAS, GAP_MS);
const row = (name: string, s: number[]) => `  ${name.padEnd(24)} n=${String(s.length).padStart(5)}  p50 ${ms(percentile(s, 50))}  p99 ${ms(percentile(s, 99))}`;
const ratio = (seam: number[], base: number[]) =>
  `  ratio seam/relay           p50 ${(percentile(seam, 50) / percentile(base, 50)).toFixed(2)}×  p99 ${(percentile(seam, 99) / percentile(base, 99)).toFixed(2)}×`;

async function measure(label: string, relay: () => Promise<number[]>, seam: () => Promise<number[]>) {
  await relay(); // warm-up: JIT, SQLite, first adapter call, page load
  await seam();
  const r: number[] = [];
  const s: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    r.push(...(await relay()));
    s.push(...(await seam()));
  }
  console.log(`\n${label}`);
  console.log(row("relay (baseline)", r));
  console.log(row("seam", s));
  console.log(ratio(s, r));
}

console.log(`streamed-delta latency, model chunk → client (${DELTAS} deltas × ${ROUNDS} rounds, ${GAP_MS} ms apart)`);
await measure("Node SSE client, host only", () => relayToNode(model, sentAt, DELTAS), () => seamToNode(model, sentAt));

const missing = browserAvailable();
if (missing) {
  console.log(`\nChromium through the web app: skipped (${missing})`);
} else {
  let browser: Browser | undefined;
  try {
    browser = await launch();
    const b = browser;
    await measure("Chromium, Seam through the web app's /trpc proxy", () => relayToBrowser(b, model, sentAt, DELTAS), () => seamToBrowser(b, model, sentAt, DELTAS));
  } finally {
    await browser?.close();
  }
}
await model.close();
