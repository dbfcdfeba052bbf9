/**
 * A new SQLite database from the build's seed (#17 item 1). `npm run build` applies the committed migrations,
 * through the schema engine as always, to `dist/seed/sqlite.db` (scripts/seed-db.mjs). A host that starts
 * on a data directory with no database yet copies that file instead of loading the engine in a worker
 * (~0.5 s), and gives each `_prisma_migrations` row a new id and the time of the copy. The copy is used only
 * when the seed records exactly the committed migrations (names and checksums: `deployIsolated` passes
 * `upToDate` as `matches`); otherwise, from sources (no build) and for every database that already exists, the
 * engine decides as before.
 */
import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync, linkSync, mkdirSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import BetterSqlite3 from "better-sqlite3";

/** Where the build writes the seed, beside the compiled persistence code. */
export const SEED_PATH = fileURLToPath(new URL("../seed/sqlite.db", import.meta.url));

/** Prisma's own format for `_prisma_migrations` times on SQLite. */
const prismaTime = (d: Date) => d.toISOString().replace("Z", "+00:00");

/**
 * Creates the database at `url` (`file:`) from `seed` when no file is there yet and `matches` accepts the
 * seed's URL. True when it did; false when it did nothing (the caller deploys as usual). Never replaces a
 * file: the copy is linked into place, which fails if another process got there first.
 */
export function seedSqlite(url: string, matches: (seedUrl: string) => boolean, seed = SEED_PATH): boolean {
  if (!url.startsWith("file:") || url === "file::memory:") return false;
  const target = resolve(url.slice("file:".length));
  if (existsSync(target) || !existsSync(seed) || !matches(`file:${seed}`)) return false;
  const partial = `${target}.seed-${process.pid}-${randomUUID()}`;
  try {
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(seed, partial);
    const db = new BetterSqlite3(partial);
    try {
      const now = prismaTime(new Date());
      const rows = db.prepare("SELECT id FROM _prisma_migrations").all() as { id: string }[];
      const renew = db.prepare("UPDATE _prisma_migrations SET id = ?, started_at = ?, finished_at = ? WHERE id = ?");
      db.transaction(() => { for (const row of rows) renew.run(randomUUID(), now, now, row.id); })();
    } finally {
      db.close();
    }
    linkSync(partial, target);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(partial, { force: true });
  }
}
