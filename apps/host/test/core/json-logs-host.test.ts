/**
 * A real host process with SEAM_LOG_FORMAT=json (SCALE-4): every line it writes on stdout and stderr from
 * start to shutdown is one JSON log object, the ready line the start scripts look for ("Open Seam:") is
 * among them, and the host token is not. A bad SEAM_LOG_FORMAT stops the start, naming the allowed values.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { loadHostToken } from "../../src/trpc/auth.js";

const HOST_DIR = fileURLToPath(new URL("../..", import.meta.url));
const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function startHost(extraEnv: Record<string, string>) {
  const home = mkdtempSync(join(tmpdir(), "seam-jsonlog-"));
  dirs.push(home);
  const env: NodeJS.ProcessEnv = { ...process.env, SEAM_MODEL_PROVIDER: "none", SEAM_TRACE_STARTUP: "1", ...extraEnv };
  delete env.DATABASE_URL;
  delete env.SEAM_DATABASE_URL;
  const proc = spawn(process.execPath, ["--import", "tsx", MAIN, "--home", home, "--port", "0", "--web-port", "39997"], { cwd: HOST_DIR, env, stdio: ["ignore", "pipe", "pipe"] });
  const out = { stdout: "", stderr: "" };
  proc.stdout.setEncoding("utf8").on("data", (c: string) => (out.stdout += c));
  proc.stderr.setEncoding("utf8").on("data", (c: string) => (out.stderr += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once("exit", (code, signal) => resolve({ code, signal })));
  return { proc, home, out, exited };
}

type Line = { time: string; level: string; capability: string; message: string } & Record<string, unknown>;
const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "");

describe("SEAM_LOG_FORMAT=json on a real host (SCALE-4)", { timeout: 60_000 }, () => {
  it("writes nothing but JSON log lines on stdout and stderr through start and shutdown", async () => {
    const host = startHost({ SEAM_LOG_FORMAT: "json" });
    try {
      const ready = await new Promise<Line>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the host did not start within 45 s:\n${host.out.stdout}\n${host.out.stderr}`)), 45_000);
        host.proc.stdout.on("data", () => {
          const line = lines(host.out.stdout).find((l) => l.includes("Open Seam:"));
          if (!line) return;
          clearTimeout(timer);
          resolve(JSON.parse(line) as Line);
        });
        void host.exited.then(({ code }) => reject(new Error(`the host exited (${code}):\n${host.out.stdout}\n${host.out.stderr}`)));
      });
      expect(ready).toMatchObject({ level: "info", capability: "host", message: expect.stringMatching(/^Open Seam: http:\/\/127\.0\.0\.1:39997\//) });
      const listening = lines(host.out.stdout).map((l) => JSON.parse(l) as Line).find((l) => l.message.includes("listening on"))!;
      const port = /:(\d+)\/trpc/.exec(listening.message)![1];
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      const readyz = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(readyz.status).toBe(200);
      expect(await readyz.json()).toEqual({ status: "ok" });
      const token = loadHostToken(host.home);

      host.proc.kill("SIGTERM");
      expect(await host.exited).toEqual({ code: 0, signal: null });

      const out = lines(host.out.stdout);
      const err = lines(host.out.stderr);
      expect(out.length).toBeGreaterThanOrEqual(4);
      for (const line of [...out, ...err]) {
        let parsed: Line;
        try {
          parsed = JSON.parse(line) as Line;
        } catch {
          throw new Error(`not a JSON line: ${line}`);
        }
        expect(parsed).toMatchObject({ time: expect.any(String), level: expect.stringMatching(/^(info|warn|error)$/), capability: expect.any(String), message: expect.any(String) });
        expect(Number.isNaN(Date.parse(parsed.time))).toBe(false);
        expect(line).not.toContain(token);
      }
      const messages = out.map((l) => (JSON.parse(l) as Line).message);
      expect(messages.some((m) => m.startsWith("ready after "))).toBe(true); // the start-up trace (SEAM_TRACE_STARTUP=1)
      expect(messages).toContain("SIGTERM: shutting down");
    } finally {
      host.proc.kill("SIGKILL");
    }
  });

  it("refuses to start with any other SEAM_LOG_FORMAT, naming the allowed values", async () => {
    const host = startHost({ SEAM_LOG_FORMAT: "xml" });
    expect(await host.exited).toEqual({ code: 1, signal: null });
    expect(host.out.stdout).toBe("");
    expect(host.out.stderr).toContain('failed to start: SEAM_LOG_FORMAT must be one of "text", "json" (unset means "text"), not "xml"');
  });
});
