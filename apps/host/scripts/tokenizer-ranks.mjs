// Writes dist/agent/o200k_base.json: gpt-tokenizer's o200k ranks (its own table, unchanged) as JSON, which the
// host parses on its first token count (src/agent/tokens.ts) with less memory and time than the package's
// JavaScript module of the same table. `node scripts/tokenizer-ranks.mjs [out.json]` (tests write elsewhere).
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const out = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "agent", "o200k_base.json");
const ranks = createRequire(import.meta.url)("gpt-tokenizer/bpeRanks/o200k_base").default;
if (!Array.isArray(ranks) || ranks.length < 199_000 || Object.keys(ranks).length !== ranks.length) throw new Error("gpt-tokenizer's o200k ranks are not the table this script expects");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(ranks));
console.log(`tokenizer ranks: ${ranks.length} → ${out}`);
