/**
 * Host overhead of one model step against session length (CTX-4). A scripted model (`@seam/testkit`)
 * answers every request at once over loopback; a real host (SQLite, the agent loop, the model view, the
 * context meter with a window so the compaction check runs, the skills catalog hook, checkpoints' after-turn
 * hook) runs one-step turns in two sessions:
 *
 * - **10 items (baseline)** and **5,000 items**, both seeded in one transaction (`store.sessions.createWithHistory`)
 *   before the host starts, so the host meets them cold, as after a restart.
 *
 * Each round sends a message and waits for the turn's end event (the first round of each session, which builds
 * the view and counts every item once, is reported apart). Prints the medians and the ratio (target ≤ 1.5×).
 * What stays O(n) per step is outside the host's choice: the request body carries the whole history (the
 * provider client serialises it, the scripted model parses it). Asserts nothing. BENCH_ROUNDS changes the sample.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TimelineItem, TurnInfo } from "@seam/shared";
import { viewOfTimeline } from "../apps/host/src/agent/model-view.js";
import { createScope } from "../apps/host/src/core/scope.js";
import { createModel } from "../apps/host/src/llm/llm.js";
import { createSecretSource } from "../apps/host/src/llm/secrets.js";
import { createHost } from "../apps/host/src/host.js";
import { openDatabase } from "../apps/host/src/persistence/db.js";
import { ms, percentile } from "./stats.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const SIZES = [10, 5_000];
const at = "2026-01-01T00:00:00.000Z";

/** Turns of user message, tool call with a short result, assistant answer; a note fact now and then. */
function history(n: number): { turns: Omit<TurnInfo, "sessionId">[]; items: TimelineItem[] } {
  const turns: Omit<TurnInfo, "sessionId">[] = [];
  const items: TimelineItem[] = [];
  for (let seq = 1; seq <= n; seq++) {
    const k = (seq - 1) % 4;
    const turnId = `t${Math.floor((seq - 1) / 4)}`;
    if (k === 0) {
      turns.push({ id: turnId, status: "completed", steps: 2, reason: null, mode: "model", inputTokens: null, outputTokens: null, startedAt: at, endedAt: at });
      items.push({ kind: "message", id: `i${seq}`, seq, turnId, createdAt: at, role: "user", text: `Please look at file ${seq}.`, state: "complete" });
    } else if (k === 1) {
      items.push({
        kind: "tool_call", id: `i${seq}`, seq, turnId, createdAt: at, callId: `c${seq}`, name: "read_file", args: { path: `f${seq}.ts` },
        status: "ok", canonical: null, rendered: `export const v${seq} = ${seq};`, error: null, startedAt: at, endedAt: at,
      });
    } else if (k === 2) {
      items.push({ kind: "message", id: `i${seq}`, seq, turnId, createdAt: at, role: "assistant", text: `It exports v${seq}.`, state: "complete" });
    } else {
      items.push({ kind: "fact", id: `i${seq}`, seq, turnId: null, createdAt: at, factKind: "note", text: `note ${seq}`, payload: null });
    }
  }
  return { turns, items };
}

const home = mkdtempSync(join(tmpdir(), "seam-bench-step-"));
const workspace = mkdtempSync(join(tmpdir(), "seam-bench-step-ws-"));
writeFileSync(join(workspace, "a.txt"), "a\n");
// The model runs in its own process, as a provider would: its request parsing is not the host's time.
const scriptFile = join(workspace, "bench-script.json");
writeFileSync(scriptFile, JSON.stringify({ name: "bench", turns: [{ match: "", steps: [{ text: "ok" }] }] }));
const cli = fileURLToPath(new URL("../packages/testkit/dist/scripted-model/main.js", import.meta.url));
const server = spawn(process.execPath, [cli, "--scripts", scriptFile], { stdio: ["ignore", "pipe", "inherit"] });
process.once("exit", () => server.kill()); // also when the bench fails part-way
const baseURL = await new Promise<string>((resolve, reject) => {
  server.once("exit", (code) => reject(new Error(`the scripted model exited (${code})`)));
  server.stdout!.on("data", (chunk: Buffer) => {
    const m = /base URL (\S+);/.exec(chunk.toString());
    if (m?.[1]) resolve(m[1]);
  });
});

// Seed both sessions before the host starts.
const seedScope = createScope("seed");
const db = await openDatabase(seedScope, { home });
const sessionIds: string[] = [];
const histories = SIZES.map(history);
for (const [i, n] of SIZES.entries()) {
  const h = histories[i]!;
  sessionIds.push((await db.store.sessions.createWithHistory({ title: `bench ${n}`, workspace, mode: null, ...h })).id);
}
await seedScope.dispose();

const scope = createScope("bench");
const host = await createHost(scope, {
  home, version: "bench",
  env: { SEAM_MODEL_PROVIDER: "openai-compatible", SEAM_MODEL_BASE_URL: baseURL, SEAM_MODEL: "bench", SEAM_CONTEXT_WINDOW: "10000000", HOME: home },
});

/** One turn: send, then wait for the turn's end on the session's live events. */
async function step(sessionId: string): Promise<number> {
  const controller = new AbortController();
  let ended!: (turn: { status: string; reason: string | null }) => void;
  const done = new Promise<{ status: string; reason: string | null }>((r) => (ended = r));
  const events = host.live.session(sessionId, controller.signal)[Symbol.asyncIterator]();
  const pump = (async () => {
    for (;;) {
      const next = await events.next();
      if (next.done) return;
      if (next.value.type === "turn" && next.value.turn.status !== "running") ended(next.value.turn);
    }
  })();
  await new Promise((r) => setImmediate(r)); // the subscription is listening
  const t0 = performance.now();
  await host.sessions.send({ sessionId, text: "hello" });
  const turn = await done;
  const elapsed = performance.now() - t0;
  controller.abort();
  await pump.catch(() => {});
  // A turn that failed measured nothing worth printing.
  if (turn.status !== "completed") throw new Error(`a bench turn ended ${turn.status}: ${turn.reason ?? "no reason given"}`);
  return elapsed;
}

/** The provider call alone with the same history (the prompt, the provider adapter's encoding, HTTP, the model's answer). */
const llm = createModel({ provider: "openai-compatible", baseURL, model: "bench", maxSteps: 25 }, createSecretSource({ home, env: {} }));
const messagesOf = (n: number) => [...viewOfTimeline(histories[SIZES.indexOf(n)]!.items, []).messages(), { role: "user" as const, text: "hello" }];
async function bareCall(n: number): Promise<number> {
  const messages = messagesOf(n);
  const t0 = performance.now();
  for await (const _ of llm.stream({ system: "You are a bench.", messages, tools: [], signal: new AbortController().signal }));
  return performance.now() - t0;
}

const first: number[] = [];
const turnTimes: number[][] = SIZES.map(() => []);
const callTimes: number[][] = SIZES.map(() => []);
for (const id of sessionIds) first.push(await step(id));
for (let r = 0; r < ROUNDS; r++) {
  // Alternate the sessions so drift on a shared machine hits both alike.
  for (const [i, id] of sessionIds.entries()) {
    turnTimes[i]!.push(await step(id));
    callTimes[i]!.push(await bareCall(SIZES[i]!));
  }
}

console.log(`step-overhead: one model step through a real host, scripted model (own process) answering at once, ${ROUNDS} rounds`);
const line = (label: string, sample: number[], base: number, extra = "") =>
  console.log(`  ${label.padEnd(44)} p50 ${ms(percentile(sample, 50))}  p99 ${ms(percentile(sample, 99))}  ${(percentile(sample, 50) / base).toFixed(2)}× baseline${extra}`);
const turnBase = percentile(turnTimes[0]!, 50);
const callBase = percentile(callTimes[0]!, 50);
const overhead = SIZES.map((_, i) => turnTimes[i]!.map((t, r) => Math.max(0, t - callTimes[i]![r]!)));
const overheadBase = percentile(overhead[0]!, 50);
for (const [i, n] of SIZES.entries()) {
  const size = `${n.toLocaleString("en-US")} items${i === 0 ? " (baseline)" : ""}`;
  line(`turn, ${size}`, turnTimes[i]!, turnBase, `  (first step ${ms(first[i]!)})`);
  line(`  provider call alone, ${size}`, callTimes[i]!, callBase);
  line(`  host overhead (turn − provider call), ${size}`, overhead[i]!, overheadBase);
}

await scope.dispose();
server.kill();
rmSync(home, { recursive: true, force: true });
rmSync(workspace, { recursive: true, force: true });
