/**
 * web_fetch throughput and peak memory on a large page (SPEC §9, WEB-8): a ~4.5 MB HTML page served on
 * loopback (allowlisted past the SSRF guard) fetched three ways in the same run —
 *   raw:     a bare streaming fetch that reads and discards the body (the baseline),
 *   fetcher: the HTTP fetch provider alone (guard, pinned connection, streamed decode and strip, stopping at the char cap),
 *   tool:    the web_fetch tool through the tool runtime (selection, fetcher, HTML → Markdown, output cap).
 * Prints median time, throughput and peak heap+external growth per pipeline, and the ratios to raw.
 * Asserts nothing. Run with --expose-gc for steadier memory numbers.
 *
 * The heap figure counts garbage not yet collected, and V8 lets the young generation grow to 16 MB per
 * semi-space: with default flags a pipeline that makes a few MB of short-lived garbage shows it all. Run
 * again with `--max-semi-space-size=1` (the `bench` script does both) and garbage is collected as it is
 * made, so the peak is close to what the pipeline really holds at once. The line printed says which.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSettings } from "@seam/shared";
import { createToolRegistry } from "../apps/host/src/agent/registry.js";
import { createToolRuntime } from "../apps/host/src/agent/runtime.js";
import { createHttpFetcher } from "../apps/host/src/web/providers/http.js";
import { createWebService } from "../apps/host/src/web/service.js";
import { compileAllowlist } from "../apps/host/src/web/ssrf.js";
import { webFetchTool } from "../apps/host/src/web/web-fetch.js";
import { percentile } from "./stats.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const TARGET_BYTES = Number(process.env.BENCH_PAGE_BYTES ?? 4_500_000);

function page(): Buffer {
  const section = (i: number) => `<section id="s${i}"><h2>Section ${i}</h2>
<p>Paragraph ${i} with <a href="/doc/${i}">a relative link</a>, <em>emphasis</em> and <code>inline code</code>. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>
<table><tr><th>key</th><th>value</th></tr><tr><td>row ${i}</td><td>${i * 7}</td></tr></table>
<script>window.track && window.track(${i});</script>
<ul><li>first item ${i}</li><li>second item ${i}</li></ul></section>\n`;
  const parts = ["<!doctype html><html><head><meta charset=\"utf-8\"><title>Bench page</title><style>body{font:14px sans-serif}</style></head><body>"];
  let size = parts[0]!.length;
  for (let i = 0; size < TARGET_BYTES - 20; i++) {
    const s = section(i);
    parts.push(s);
    size += Buffer.byteLength(s);
  }
  parts.push("</body></html>");
  return Buffer.from(parts.join(""));
}

const body = page();
const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": String(body.length) });
  res.end(body);
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page.html`;

const allowlist = compileAllowlist(["127.0.0.1"]);
const fetcher = createHttpFetcher({ allowlist: () => allowlist });
const settings = WebSettings.parse({ fetchAllowlist: ["127.0.0.1"] });
const service = createWebService({ configured: () => ({ search: null, fetch: null }) });
service.registerFetch(fetcher);
const registry = createToolRegistry();
registry.register(webFetchTool({ service, settings: () => settings }));
const runtime = createToolRuntime({ registry });
const signal = new AbortController().signal;

const pipelines: Record<string, () => Promise<number>> = {
  async raw() {
    const res = await fetch(url);
    let n = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) n += chunk.length;
    return n;
  },
  async fetcher() {
    const r = await fetcher.fetch({ url }, { signal });
    return r.body.content.length;
  },
  async tool() {
    const outcome = await runtime.invoke({ sessionId: "bench", workspace: "/", callId: "c", name: "web_fetch", args: { url }, signal });
    if (outcome.status !== "ok") throw new Error(outcome.rendered);
    return outcome.rendered.length;
  },
};

const gc = (globalThis as { gc?: () => void }).gc;
const memory = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

// BENCH_WARM=1 skips the per-round forced GC, which also lets V8 drop compiled code: the code stays warm,
// and the memory figures then carry earlier rounds' garbage.
const warm = process.env.BENCH_WARM === "1";

async function once(run: () => Promise<number>): Promise<{ ms: number; peak: number; out: number }> {
  if (!warm) gc?.();
  const base = memory();
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, memory() - base);
  }, 1);
  const started = performance.now();
  const out = await run();
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, memory() - base);
  return { ms, peak, out };
}

const results: Record<string, { ms: number[]; peak: number[]; out: number }> = {};
for (const name of Object.keys(pipelines)) results[name] = { ms: [], peak: [], out: 0 };
for (const run of Object.values(pipelines)) await run(); // warm-up: JIT, converter construction
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(pipelines)) {
    const r = await once(run);
    results[name]!.ms.push(r.ms);
    results[name]!.peak.push(r.peak);
    results[name]!.out = r.out;
  }
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const smallYoung = process.execArgv.some((a) => /^--max-semi-space-size=[12]$/.test(a));
const heapMode = (warm ? "warm: no per-round GC, " : "") + (smallYoung ? "1 MB young generation: peak ≈ what is held" : "default young generation: peak includes uncollected garbage");
console.log(`web_fetch on a ${mb(body.length)} HTML page over loopback (${ROUNDS} rounds, ${heapMode}${gc ? "" : ", no --expose-gc: memory is noisier"})`);
const raw = results.raw!;
for (const [name, r] of Object.entries(results)) {
  const median = percentile(r.ms, 50);
  const peak = percentile(r.peak, 50);
  const ratio = name === "raw" ? "" : `  ×${(median / percentile(raw.ms, 50)).toFixed(2)} time  ×${(peak / Math.max(1, percentile(raw.peak, 50))).toFixed(2)} memory`;
  console.log(`  ${name.padEnd(8)} p50 ${median.toFixed(1).padStart(7)} ms  ${(body.length / 1e6 / (median / 1000)).toFixed(0).padStart(5)} MB/s  peak +${mb(peak).padStart(8)} (max +${mb(Math.max(...r.peak))})  output ${r.out.toLocaleString("en-US")} chars${ratio}`);
}
await new Promise<void>((resolve) => server.close(() => resolve()));
