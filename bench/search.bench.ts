/**
 * Search latency against the index size (CTX-5): `store.search` on SQLite FTS5 over 1,000 (baseline) and
 * 50,000 indexed messages, same vocabulary and word frequencies, in the same run. Three kinds of query:
 *   rare:   a word in 3 messages;
 *   common: a word in ~5 % of the messages (bm25 scores every match before the top 20 are cut);
 *   prefix: two words, the last one a 3-letter prefix (what typing in the search box sends).
 * Prints the median per kind and size and the large/small ratio. Asserts nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScope } from "../apps/host/src/core/scope.js";
import { openDatabase, type Database } from "../apps/host/src/persistence/db.js";
import { ms, percentile } from "./stats.js";

const SMALL = Number(process.env.BENCH_SMALL ?? 1_000);
const LARGE = Number(process.env.BENCH_LARGE ?? 50_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 60);
const PER_SESSION = 500;

// A deterministic generator, so both databases hold the same kind of text.
let seed = 42;
const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const VOCAB = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}x`);
const zipf = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(VOCAB.length * rand() ** 3))]!;
const sentence = (i: number, n: number) => {
  const words = Array.from({ length: 12 + Math.floor(rand() * 30) }, zipf);
  if (i % 20 === 0) words.push("commonword");
  if (i === 7 || i === Math.floor(n / 2) || i === n - 3) words.push("rareword");
  return words.join(" ");
};

async function fill(db: Database, n: number) {
  seed = 42;
  for (let start = 0; start < n; start += PER_SESSION) {
    const s = await db.store.sessions.create({ title: `bench ${start}`, workspace: "/w" });
    const count = Math.min(PER_SESSION, n - start);
    await db.exclusive(async (prisma) => {
      await prisma.message.createMany({
        data: Array.from({ length: count }, (_, k) => ({
          sessionId: s.id, seq: k + 1, role: k % 2 ? "assistant" : "user", text: sentence(start + k, n), state: "complete",
        })),
      });
      await prisma.session.update({ where: { id: s.id }, data: { lastSeq: count } });
    });
  }
}

const kinds: Record<string, () => string> = {
  rare: () => "rareword",
  common: () => "commonword",
  prefix: () => `${zipf()} ${zipf().slice(0, 3)}`,
};

async function measure(n: number) {
  const home = mkdtempSync(join(tmpdir(), "seam-bench-search-"));
  const scope = createScope("bench");
  try {
    const db = await openDatabase(scope, { home, url: `file:${join(home, "seam.db")}` });
    const t0 = performance.now();
    await fill(db, n);
    const fillMs = performance.now() - t0;
    const out: Record<string, number> = {};
    for (const [kind, q] of Object.entries(kinds)) {
      seed = 7;
      for (let i = 0; i < 5; i++) await db.store.search(q(), { limit: 20 }); // warm
      const times: number[] = [];
      for (let i = 0; i < QUERIES; i++) {
        const query = q();
        const start = performance.now();
        await db.store.search(query, { limit: 20 });
        times.push(performance.now() - start);
      }
      out[kind] = percentile(times, 50);
    }
    return { out, fillMs };
  } finally {
    await scope.dispose();
    rmSync(home, { recursive: true, force: true });
  }
}

const small = await measure(SMALL);
const large = await measure(LARGE);
console.log(`search: ${SMALL.toLocaleString("en-US")} vs ${LARGE.toLocaleString("en-US")} indexed messages, ${QUERIES} queries per kind (indexing took ${(small.fillMs / 1000).toFixed(1)} s / ${(large.fillMs / 1000).toFixed(1)} s)`);
for (const kind of Object.keys(kinds)) {
  const a = small.out[kind]!;
  const b = large.out[kind]!;
  console.log(`  ${kind.padEnd(7)} p50 ${ms(a).padStart(11)} at ${SMALL.toLocaleString("en-US")}   ${ms(b).padStart(11)} at ${LARGE.toLocaleString("en-US")}   ×${(b / a).toFixed(2)}`);
}
