/**
 * The PostgreSQL e2e run (SCALE-1): chat, the MCP page and its policy plane, and approvals, with every host
 * on PostgreSQL instead of SQLite. `fixtures/postgres-global.ts` starts one throwaway Debian PostgreSQL
 * server on 127.0.0.1 for the run (the `postgresql` package; `npm test` installs it where missing) and
 * stops it at the end; each host data directory gets a database of its own on it (`fixtures/database.ts`),
 * created by the host at its first start. Everything else is the default run's (`playwright.config.ts`).
 *
 *   npx playwright test -c e2e/playwright.postgres.config.ts [spec…]
 *
 * `npm test` runs it after the default (SQLite) run.
 */
import { defineConfig } from "@playwright/test";
import base from "./playwright.config.js";

const POSTGRES_SPECS = ["chat.e2e.ts", "mcp.e2e.ts", "mcp-policy.e2e.ts", "permissions.e2e.ts", "cluster.e2e.ts"];

export default defineConfig({
  ...base,
  testMatch: POSTGRES_SPECS.map((spec) => `**/${spec}`),
  globalSetup: "./fixtures/postgres-global.ts",
  outputDir: "test-results/postgres",
});
