import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { atomicWrite, isTempName, tempNameFor } from "../../src/workspace/atomic-write.js";

const WRITER = fileURLToPath(new URL("./atomic-writer.ts", import.meta.url));
const SIZE = 48 * 1024 * 1024;
const TEMP = /^\.target\.bin\.seam-tmp-[0-9a-f]{12}$/;

/** Starts the writer, SIGKILLs it `delayMs` after it says it is writing; resolves when it is gone. */
function killMidway(target: string, delayMs: number): Promise<{ finished: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", WRITER, target, String(SIZE), "n"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.startsWith("writing\n") && !child.killed) setTimeout(() => child.kill("SIGKILL"), delayMs);
    });
    child.on("error", reject);
    child.on("exit", () => resolve({ finished: out.includes("done") }));
  });
}

async function withDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "seam-atomic-"));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("atomic writes (CODE-1)", () => {
  it("CODE-1: a writer SIGKILLed during a large write leaves the old or the new content, never a mix", async () => {
    await withDir(async (dir) => {
      const target = join(dir, "target.bin");
      const outcomes: string[] = [];
      for (const delayMs of [0, 1, 3, 8, 15, 30, 60, 120]) {
        await writeFile(target, Buffer.alloc(SIZE / 2, "o"));
        const { finished } = await killMidway(target, delayMs);
        const bytes = await readFile(target);
        const old = bytes.length === SIZE / 2 && bytes.every((b) => b === 0x6f);
        const fresh = bytes.length === SIZE && bytes.every((b) => b === 0x6e);
        expect(old || fresh, `delay ${delayMs} ms: ${bytes.length} bytes`).toBe(true);
        const strays = (await readdir(dir)).filter((n) => n !== "target.bin");
        for (const name of strays) {
          expect(name).toMatch(TEMP);
          expect(isTempName(name)).toBe(true);
          await rm(join(dir, name));
        }
        outcomes.push(`${delayMs}ms:${old ? "old" : "new"}${finished ? "" : "+killed"}${strays.length ? "+temp" : ""}`);
      }
      // At least one kill landed before the rename.
      expect(outcomes.some((o) => o.includes(":old"))).toBe(true);
    });
  }, 120_000);

  it("CODE-1: keeps the old mode, creates new files 0644 less the umask, and leaves no temp file", async () => {
    await withDir(async (dir) => {
      const script = join(dir, "run.sh");
      await writeFile(script, "old", { mode: 0o755 });
      await atomicWrite(script, Buffer.from("new"), { mode: (await stat(script)).mode });
      expect((await stat(script)).mode & 0o7777).toBe(0o755);
      const fresh = join(dir, "fresh.txt");
      await atomicWrite(fresh, Buffer.from("x"));
      expect((await stat(fresh)).mode & 0o777).toBe(0o644 & ~process.umask());
      expect((await readdir(dir)).sort()).toEqual(["fresh.txt", "run.sh"]);
    });
  });

  it("CODE-1: a failed write removes its temp file and leaves the target alone", async () => {
    await withDir(async (dir) => {
      const target = join(dir, "busy");
      await mkdir(target);
      await writeFile(join(target, "inside.txt"), "keep");
      await expect(atomicWrite(target, Buffer.from("x"))).rejects.toThrow(/EISDIR|EEXIST|ENOTEMPTY|EPERM/);
      expect(await readdir(dir)).toEqual(["busy"]);
      expect(await readFile(join(target, "inside.txt"), "utf8")).toBe("keep");
    });
  });

  it("CODE-1: temp names are recognisable and fit long file names", () => {
    const long = `${"é".repeat(120)}.txt`;
    const name = tempNameFor(join("/x", long)).slice(3);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(isTempName(name)).toBe(true);
    expect(isTempName("target.bin")).toBe(false);
  });
});
