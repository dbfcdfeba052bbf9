/**
 * A real Seam host process for the multi-host tests (SCALE-2, SCALE-3): `src/main.ts` under tsx with its
 * own data directory, on a shared PostgreSQL database, talking to a scripted model. `kill()` is a SIGKILL
 * (a crash); `stop()` a clean shutdown.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadHostToken } from "../../src/trpc/auth.js";
import { hostClient } from "../support/host-client.js";

const HOST_DIR = fileURLToPath(new URL("../..", import.meta.url));
const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

export interface HostProcess {
  name: string;
  url: string;
  client: ReturnType<typeof hostClient>;
  proc: ChildProcess;
  output(): string;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function startHostProcess(name: string, opts: { databaseUrl: string; modelBaseUrl: string; modelId: string; leaseMs: number; webPort: number }): Promise<HostProcess> {
  const home = mkdtempSync(join(tmpdir(), `seam-${name}-`));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SEAM_DATABASE_URL: opts.databaseUrl, SEAM_LEASE_MS: String(opts.leaseMs),
    SEAM_MODEL_PROVIDER: "openai-compatible", SEAM_MODEL_BASE_URL: opts.modelBaseUrl, SEAM_MODEL: opts.modelId, SEAM_MAX_STEPS: "2",
    SEAM_LOG_FORMAT: "text",
  };
  delete env.DATABASE_URL;
  const proc = spawn(process.execPath, ["--import", "tsx", MAIN, "--home", home, "--port", "0", "--web-port", String(opts.webPort)], { cwd: HOST_DIR, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout!.setEncoding("utf8").on("data", (c: string) => (out += c));
  proc.stderr!.setEncoding("utf8").on("data", (c: string) => (out += c));
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host ${name} did not start within 60 s:\n${out}`)), 60_000);
    const look = () => {
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/trpc/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on("data", look);
    void exited.then(() => reject(new Error(`host ${name} exited during start:\n${out}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const cleanup = () => rmSync(home, { recursive: true, force: true });
  return {
    name, url, proc,
    client: hostClient(url, loadHostToken(home)),
    output: () => out,
    async kill() {
      proc.kill("SIGKILL");
      await exited;
      cleanup();
    },
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      await exited;
      cleanup();
    },
  };
}
