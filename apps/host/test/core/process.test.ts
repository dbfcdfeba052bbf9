import type { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { HostError } from "../../src/core/errors.js";
import { listChildren, sanitizeEnv, spawnChild } from "../../src/core/process.js";
import { createScope } from "../../src/core/scope.js";
import { isRunning } from "../support/process.js";

const node = process.execPath;


function firstLine(stream: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      text += chunk;
      const i = text.indexOf("\n");
      if (i >= 0) resolve(text.slice(0, i));
    });
    stream.on("end", () => reject(new Error(`stream ended before a line: ${JSON.stringify(text)}`)));
  });
}

function readAll(stream: Readable): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => (text += chunk));
    stream.on("end", () => resolve(text));
  });
}

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

describe("sanitizeEnv (SEC-4)", () => {
  it("drops credential-looking names and keeps the rest", () => {
    const env = sanitizeEnv({
      OPENAI_API_KEY: "a", GITHUB_TOKEN: "b", AWS_SECRET_ACCESS_KEY: "c", DEEPSEEK_API_KEY: "d", db_password: "e",
      PGPASSWD: "f", GOOGLE_APPLICATION_CREDENTIALS: "g", HTTP_AUTH: "h", SESSION_COOKIE: "i", SSH_PRIVATE: "j",
      PATH: "/usr/bin", HOME: "/home/me", LANG: "C.UTF-8", UNSET: undefined,
    });
    expect(env).toEqual({ PATH: "/usr/bin", HOME: "/home/me", LANG: "C.UTF-8" });
  });
});

describe("spawnChild (SEC-4)", () => {
  it("passes a sanitized environment plus the explicit one", async () => {
    process.env.FOO_API_KEY = "must-not-leak";
    process.env.SEAM_TEST_PLAIN = "visible";
    try {
      await using scope = createScope("test");
      const child = spawnChild(scope, {
        label: "env",
        command: node,
        args: ["-e", "process.stdout.write(JSON.stringify(process.env))"],
        env: { SEAM_EXPLICIT: "yes", EXPLICIT_TOKEN: "given-on-purpose" },
      });
      started.push(child.pid);
      const env = JSON.parse(await readAll(child.stdout)) as Record<string, string>;
      expect(env.FOO_API_KEY).toBeUndefined();
      expect(env.SEAM_TEST_PLAIN).toBe("visible");
      expect(env.SEAM_EXPLICIT).toBe("yes");
      expect(env.EXPLICIT_TOKEN).toBe("given-on-purpose");
      expect(await child.exited).toEqual({ code: 0, signal: null });
    } finally {
      delete process.env.FOO_API_KEY;
      delete process.env.SEAM_TEST_PLAIN;
    }
  });

  it("kills the whole process tree when its scope is disposed", async () => {
    const scope = createScope("test");
    const parent = spawnChild(scope, {
      label: "tree",
      command: node,
      args: ["-e", `
        const { spawn } = require("node:child_process");
        const grandchild = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
        console.log(grandchild.pid);
        setInterval(() => {}, 1000);
      `],
    });
    started.push(parent.pid);
    const grandchild = Number(await firstLine(parent.stdout));
    expect(grandchild).toBeGreaterThan(0);
    expect(isRunning(parent.pid)).toBe(true);
    expect(isRunning(grandchild)).toBe(true);
    expect(listChildren().find((c) => c.pid === parent.pid)?.state).toBe("running");

    await scope.dispose();

    expect(isRunning(parent.pid)).toBe(false);
    expect(isRunning(grandchild)).toBe(false);
    expect((await parent.exited).signal).toBe("SIGTERM");
    // Exited children stay listed (bounded) with their exit, so a crash's stderr can still be read.
    const after = listChildren().find((c) => c.pid === parent.pid);
    expect(after).toMatchObject({ state: "exited", exit: { signal: "SIGTERM" } });
  });

  it("SIGKILLs a child that ignores SIGTERM", async () => {
    const scope = createScope("test");
    const child = spawnChild(scope, {
      label: "stubborn",
      command: node,
      args: ["-e", `process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000);`],
    });
    started.push(child.pid);
    await firstLine(child.stdout);
    const t0 = Date.now();
    await scope.dispose();
    expect(isRunning(child.pid)).toBe(false);
    expect((await child.exited).signal).toBe("SIGKILL");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(3_500);
  });

  it("stops quickly when the child exits on end of stdin, and memoizes stop", async () => {
    await using scope = createScope("test");
    const child = spawnChild(scope, {
      label: "stdin",
      command: node,
      args: ["-e", `process.stdin.resume(); process.stdin.on("end", () => process.exit(0)); console.log("ready");`],
    });
    started.push(child.pid);
    await firstLine(child.stdout);
    const first = child.stop();
    expect(child.stop()).toBe(first);
    await first;
    // Exit code 0 and no signal: ending stdin was enough, no SIGTERM/SIGKILL was needed.
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });

  it("keeps only the last bytes of stderr", async () => {
    await using scope = createScope("test");
    const child = spawnChild(scope, {
      label: "noisy",
      command: node,
      args: ["-e", `process.stderr.write("x".repeat(1024 * 1024)); process.stderr.write("THE-END");`],
      stderrLimitBytes: 4096,
    });
    started.push(child.pid);
    expect((await child.exited).code).toBe(0);
    const tail = child.stderrTail();
    expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(4096);
    expect(tail.length).toBeGreaterThan(4000);
    expect(tail.endsWith("xxxTHE-END")).toBe(true);
  });

  it("forgets a child that exited by itself, so disposal has nothing to wait for", async () => {
    const scope = createScope("test");
    const child = spawnChild(scope, { label: "short", command: node, args: ["-e", "process.exit(3)"] });
    started.push(child.pid);
    expect(await child.exited).toEqual({ code: 3, signal: null });
    await scope.dispose();
    expect(listChildren().find((c) => c.pid === child.pid)).toMatchObject({ state: "exited", exit: { code: 3 } });
  });

  it("reports a command that cannot be started", async () => {
    await using scope = createScope("test");
    let error: unknown;
    try {
      spawnChild(scope, { label: "missing", command: "/nonexistent/seam-no-such-binary" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HostError);
    expect((error as HostError).publicCode).toBe("spawn_failed");
    expect((error as HostError).message).toContain("/nonexistent/seam-no-such-binary");
  });

  it("refuses to start in a disposed scope", async () => {
    const scope = createScope("test");
    await scope.dispose();
    expect(() => spawnChild(scope, { label: "late", command: node, args: ["-e", ""] })).toThrow(/disposed/);
  });

  it("lists exited children with their exit and stderr, keeping only the most recent ones", async () => {
    const scope = createScope("test");
    for (let i = 0; i < 25; i++) {
      const child = spawnChild(scope, { label: `short-${i}`, command: node, args: ["-e", `console.error("bye ${i}"); process.exit(3)`] });
      await child.exited;
    }
    const exited = listChildren().filter((c) => c.state === "exited");
    expect(exited.length).toBe(20);
    expect(exited[0]).toMatchObject({ label: "short-24", exit: { code: 3 }, stderrTail: "bye 24\n" });
    expect(exited.some((c) => c.label === "short-0")).toBe(false);
    await scope.dispose();
  });
});
