// `npm test`: every test — dependency direction, lint, build, typecheck, unit and integration (Vitest; the host's
// database-backed tests on SQLite and again on PostgreSQL), MCP conformance, e2e (Playwright in Debian Chromium;
// chat, the MCP page and approvals again with the host on PostgreSQL).
import { chromiumPath, ensureChromium, ensureDependencies, ensurePostgres, ensureSystemTools, root, run, step } from "./lib.mjs";

ensureDependencies();
ensureChromium();
ensureSystemTools();
ensurePostgres();
step("Dependency direction: no cycles, capabilities never import the composition root (dependency-cruiser)");
run("npm", ["run", "--silent", "depcheck"]);
step("Lint (oxlint, zero warnings)");
run("npm", ["run", "--silent", "lint"]);
step("Build, typecheck, unit and integration tests (turbo)");
run("npx", ["turbo", "run", "build", "typecheck", "test", "--output-logs=new-only", ...process.argv.slice(2)]);
step("MCP conformance: the suite's client scenarios against Seam's MCP client");
run("node", ["scripts/conformance.mjs"]);
step("End-to-end tests (Playwright, Chromium)");
run("npx", ["playwright", "test", "-c", "e2e/playwright.config.ts"], { env: { CHROMIUM_PATH: chromiumPath() } });
step("End-to-end tests on PostgreSQL (chat, MCP page and policy, approvals; a throwaway Debian PostgreSQL on 127.0.0.1)");
run("npx", ["playwright", "test", "-c", "e2e/playwright.postgres.config.ts"], { env: { CHROMIUM_PATH: chromiumPath() } });
console.log(`\n✓ All tests passed (${root}).`);
