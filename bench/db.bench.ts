/**
 * PostgreSQL vs SQLite (SCALE-1): the same host code, the same scripted turn, in the same run — one host on a
 * SQLite home, one on a database of a throwaway Debian PostgreSQL server (`@seam/testkit` `startPostgres`,
 * 127.0.0.1, fsync off like every test cluster here). Both hosts run in this process, serve tRPC on loopback
 * and are driven the way the page drives them (tRPC over HTTP, the live SSE stream); rounds alternate.
 *
 * (a) A streamed turn of BENCH_DELTAS deltas from a loopback scripted model (BENCH_GAP_MS apart), in a fresh
 *     session each round: send → last delta received, send → the turn's end event, and the host's overhead —
 *     send → last delta minus the model's own time, the median of a bare streaming `fetch` of the same
 *     response (the baseline). Per-delta latency (chunk written by the model → received by the client) too.
 * (b) `session.list` with BENCH_SESSIONS sessions: through tRPC over HTTP, and `sessions.list()` in-process.
 *
 * Prints p50/p99 per database and the PostgreSQL/SQLite ratio; asserts nothing. Needs PostgreSQL installed
 * (`npm test` installs it; else `sudo apt-get install -y postgresql`), and says so when it is missing.
 */
import type { SessionTopic } from "@seam/shared";
import { postgresBinDir, startPostgres, type ScriptedModel } from "../packages/testkit/src/index.js";
import { hostClient } from "./node-client.js";
import { latencies, startBenchModel, startSeam, wallNow } from "./pipelines.js";
import { ms, percentile } from "./stats.js";

const DELTAS = Number(process.env.BENCH_DELTAS ?? 200);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 200);
const LIST_ROUNDS = Number(process.env.BENCH_LIST_ROUNDS ?? 60);

if (!postgresBinDir()) {
  console.log("db (PostgreSQL vs SQLite): skipped — PostgreSQL is not installed (sudo apt-get install -y postgresql; `npm test` installs it)");
  process.exit(0);
}

type Seam = Awaited<ReturnType<typeof startSeam>>;
interface Turn { toLastDelta: number; toEnd: number; deltas: number[] }

/** The model's own time: send → last chunk of the same scripted response over a bare streaming fetch. */
async function modelAlone(model: ScriptedModel): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${model.baseURL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: "bench" }] }),
  });
  let last = t0;
  const decoder = new TextDecoder();
  for await (const bytes of res.body!) {
    if (decoder.decode(bytes, { stream: true }).includes('"content"')) last = performance.now();
  }
  return last - t0;
}

/** One turn in a fresh session of `seam`, as the page runs it: subscribe to the session's topic, send, follow. */
async function turn(seam: Seam, sentAt: Map<string, number>): Promise<Turn> {
  const client = hostClient(seam.url, seam.token);
  const session = await client.session.create.mutate({ workspace: seam.workspace, title: "bench turn" });
  const topic: SessionTopic = `session:${session.id}`;
  const received = new Map<string, number>();
  let t0 = 0;
  let lastDelta = 0;
  const end = await new Promise<number>((resolve, reject) => {
    const sub = client.live.stream.subscribe({ topics: [topic] }, {
      onData: (event) => {
        if (event.kind === "started") {
          t0 = performance.now();
          void client.session.send.mutate({ sessionId: session.id, text: "bench" }).catch(reject);
        }
        if (event.kind !== "data" || event.topic !== topic) return;
        const data = event.data;
        // The assistant message arrives as an item holding the first chunk, the rest as deltas; a delta may
        // carry several chunks that arrived together. Each chunk counts from when the model wrote it.
        const text = data.type === "delta" ? data.text : data.type === "item" && data.item.kind === "message" && data.item.role === "assistant" ? data.item.text : null;
        if (text !== null) {
          const now = wallNow();
          for (const chunk of text.match(/«\d+» /g) ?? []) if (!received.has(chunk)) received.set(chunk, now);
          lastDelta = performance.now();
        }
        if (data.type === "turn" && data.turn.status !== "running") {
          sub.unsubscribe();
          if (data.turn.status !== "completed") reject(new Error(`the bench turn ended ${data.turn.status}`));
          else resolve(performance.now());
        }
      },
      onError: reject,
    });
  });
  if (received.size !== DELTAS) throw new Error(`received ${received.size} of ${DELTAS} chunks`);
  return { toLastDelta: lastDelta - t0, toEnd: end - t0, deltas: latencies(sentAt, received) };
}

/** `session.list` over tRPC (what the page calls) and in-process (the host and its database alone). */
async function listOnce(seam: Seam): Promise<{ http: number; direct: number; count: number }> {
  const client = hostClient(seam.url, seam.token);
  const t0 = performance.now();
  const list = await client.session.list.query();
  const t1 = performance.now();
  await seam.host.sessions.list();
  const t2 = performance.now();
  return { http: t1 - t0, direct: t2 - t1, count: list.length };
}

const p = (sample: number[], q: number) => percentile(sample, q);
const row = (name: string, s: number[]) => `  ${name.padEnd(38)} p50 ${ms(p(s, 50)).padStart(11)}  p99 ${ms(p(s, 99)).padStart(11)}`;
const ratio = (name: string, pg: number[], lite: number[]) =>
  `  ${`${name} PostgreSQL/SQLite`.padEnd(38)} p50 ${`${(p(pg, 50) / p(lite, 50)).toFixed(2)}×`.padStart(11)}  p99 ${`${(p(pg, 99) / p(lite, 99)).toFixed(2)}×`.padStart(11)}`;

const { model, sentAt } = await startBenchModel(DELTAS, GAP_MS);
const pgServer = await startPostgres();
const hosts: Record<"sqlite" | "postgres", Seam> = {
  sqlite: await startSeam(model),
  postgres: await startSeam(model, [], { SEAM_DATABASE_URL: pgServer.url("seam_bench") }),
};
const names = ["sqlite", "postgres"] as const;
try {
  // (a) streamed turns, rounds alternating; one warm-up turn each (JIT, first model call, connection pool).
  const alone: number[] = [];
  const turns = { sqlite: [] as Turn[], postgres: [] as Turn[] };
  await modelAlone(model);
  for (const name of names) await turn(hosts[name], sentAt);
  for (let r = 0; r < ROUNDS; r++) {
    alone.push(await modelAlone(model));
    for (const name of r % 2 === 0 ? names : [...names].reverse()) turns[name].push(await turn(hosts[name], sentAt));
  }
  const modelTime = p(alone, 50);
  const overhead = (name: (typeof names)[number]) => turns[name].map((t) => t.toLastDelta - modelTime);
  console.log(`db: PostgreSQL ${pgServer.port} vs SQLite — streamed turn of ${DELTAS} deltas ${GAP_MS} ms apart, ${ROUNDS} rounds (fresh session each)`);
  console.log(row("model alone, send → last chunk", alone));
  for (const name of names) {
    console.log(` ${name === "sqlite" ? "SQLite" : "PostgreSQL"}`);
    console.log(row("send → last delta", turns[name].map((t) => t.toLastDelta)));
    console.log(row("send → turn end", turns[name].map((t) => t.toEnd)));
    console.log(row("host overhead (last delta − model)", overhead(name)));
    console.log(row(`per delta, chunk → client (n=${turns[name].length * DELTAS})`, turns[name].flatMap((t) => t.deltas)));
  }
  console.log(" ratio");
  console.log(ratio("send → last delta", turns.postgres.map((t) => t.toLastDelta), turns.sqlite.map((t) => t.toLastDelta)));
  console.log(ratio("send → turn end", turns.postgres.map((t) => t.toEnd), turns.sqlite.map((t) => t.toEnd)));
  console.log(ratio("host overhead", overhead("postgres"), overhead("sqlite")));
  console.log(ratio("per delta", turns.postgres.flatMap((t) => t.deltas), turns.sqlite.flatMap((t) => t.deltas)));

  // (b) session.list with SESSIONS sessions on each host.
  for (const name of names) {
    const seam = hosts[name];
    const client = hostClient(seam.url, seam.token);
    const have = (await seam.host.sessions.list()).length;
    for (let i = have; i < SESSIONS; i++) await client.session.create.mutate({ workspace: seam.workspace, title: `bench session ${i}` });
    for (let i = 0; i < 5; i++) await listOnce(seam);
  }
  const lists = { sqlite: { http: [] as number[], direct: [] as number[] }, postgres: { http: [] as number[], direct: [] as number[] } };
  let count = 0;
  for (let r = 0; r < LIST_ROUNDS; r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse()) {
      const once = await listOnce(hosts[name]);
      lists[name].http.push(once.http);
      lists[name].direct.push(once.direct);
      count = once.count;
    }
  }
  console.log(`\ndb: session.list with ${count} sessions, ${LIST_ROUNDS} rounds`);
  for (const name of names) {
    console.log(` ${name === "sqlite" ? "SQLite" : "PostgreSQL"}`);
    console.log(row("session.list over tRPC (HTTP)", lists[name].http));
    console.log(row("sessions.list() in-process", lists[name].direct));
  }
  console.log(" ratio");
  console.log(ratio("tRPC", lists.postgres.http, lists.sqlite.http));
  console.log(ratio("in-process", lists.postgres.direct, lists.sqlite.direct));
} finally {
  for (const name of names) await hosts[name].close();
  await model.close();
  pgServer.stop();
}
