/**
 * Setup of every test file in the PostgreSQL run: a data directory's database becomes a PostgreSQL
 * database of its own (`testDbUrl(<home>/seam.db)`) instead of `<home>/seam.db`, so the tests run
 * unchanged against the pg adapter, its migrations and its search.
 */
import { join } from "node:path";
import { vi } from "vitest";
import { testDbUrl } from "./db-url.js";

vi.mock("../../src/persistence/url.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/persistence/url.js")>();
  return {
    ...real,
    databaseUrl: (home: string, env?: import("../../src/persistence/url.js").DatabaseEnv) =>
      env?.SEAM_DATABASE_URL || env?.DATABASE_URL ? real.databaseUrl(home, env) : testDbUrl(join(home, "seam.db")),
  };
});
