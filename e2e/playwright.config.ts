import { defineConfig } from "@playwright/test";
import { fileURLToPath } from "node:url";
import { webServer } from "../scripts/web-server.mjs";
import { PORTS } from "./ports.js";

const root = fileURLToPath(new URL("..", import.meta.url));
// The web UI exactly as `npm start` runs it (the standalone Next.js server).
const web = webServer(root, PORTS.web);

export default defineConfig({
  testDir: "specs",
  testMatch: "**/*.e2e.ts",
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://127.0.0.1:${PORTS.web}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
    },
  },
  // The host is started by the specs themselves (fixtures/host.ts) so a test can kill and restart it.
  webServer: [
    {
      command: `node ${root}packages/testkit/dist/scripted-model/main.js --port ${PORTS.model} --scripts ${root}e2e/scripts`,
      url: `http://127.0.0.1:${PORTS.model}/__requests`,
      reuseExistingServer: false,
      stdout: "pipe",
    },
    {
      command: `node ${web.args.join(" ")}`,
      url: `http://127.0.0.1:${PORTS.web}/`,
      env: { ...web.env, SEAM_HOST_URL: `http://127.0.0.1:${PORTS.host}` },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
