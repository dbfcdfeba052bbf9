/** Vitest global setup of the PostgreSQL run: one throwaway server for every test file (SCALE-1). */
import { startPostgres, type PostgresServer } from "@seam/testkit";

let server: PostgresServer | undefined;

export async function setup() {
  server = await startPostgres();
  // Test workers are forked after this, so they inherit it; `postgres-setup.ts` reads it.
  process.env.SEAM_TEST_POSTGRES = server.url("postgres");
}

export function teardown() {
  server?.stop();
}
