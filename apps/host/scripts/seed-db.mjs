// Writes dist/seed/sqlite.db: a SQLite database with every committed migration applied by the schema engine,
// exactly as a host's first start would. A host starting on a data directory with no database copies it
// (src/persistence/seed.ts) instead of running the engine. Run after tsc (it uses the compiled migrate.js).
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { deployMigrations, prismaPaths } from "../dist/persistence/migrate.js";

const out = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "seed", "sqlite.db");
const partial = `${out}.partial`;
mkdirSync(dirname(out), { recursive: true });
for (const f of [partial, `${partial}-journal`]) rmSync(f, { force: true });
const { applied } = await deployMigrations({ ...prismaPaths(), url: `file:${partial}` });
if (existsSync(`${partial}-journal`) || existsSync(`${partial}-wal`)) throw new Error(`${partial}: the engine left a journal behind`);
renameSync(partial, out);
console.log(`seed database: ${applied.length} migrations → ${out}`);
