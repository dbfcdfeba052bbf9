import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { create, type Checkpoints, type CheckpointsDeps } from "../../src/checkpoints/checkpoints.js";
import { shadowDir } from "../../src/checkpoints/shadow.js";
import { createScope, type Scope } from "../../src/core/scope.js";

export const run = promisify(execFile);

export interface Fixture extends AsyncDisposable {
  base: string;
  /** The workspace. */
  ws: string;
  /** The data directory (`deps.home`). */
  home: string;
  scope: Scope;
  cp: Checkpoints;
  write(rel: string, content: string | Uint8Array, mode?: number): Promise<string>;
  read(rel: string): Promise<string>;
  exists(rel: string): Promise<boolean>;
  mode(rel: string): Promise<number>;
  /** `bash -c` in the workspace, like the bash tool. */
  sh(command: string): Promise<void>;
  /** A second workspace beside the first (same data directory). */
  another(): Promise<string>;
}

/** A temp folder with a workspace and a data directory, and a checkpoints capability on them. */
export async function checkpointsFixture(deps: Partial<CheckpointsDeps> = {}): Promise<Fixture> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "seam-ckpt-")));
  const ws = join(base, "ws");
  const home = join(base, "home");
  await mkdir(ws);
  const scope = createScope("test");
  const cp = await create(scope.child("checkpoints"), { home, ...deps });
  let others = 0;
  return {
    base, ws, home, scope, cp,
    async write(rel, content, mode) {
      const path = join(ws, rel);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content, mode === undefined ? undefined : { mode });
      return path;
    },
    read: (rel) => readFile(join(ws, rel), "utf8"),
    exists: (rel) => stat(join(ws, rel)).then(() => true, () => false),
    mode: async (rel) => (await stat(join(ws, rel))).mode & 0o777,
    async sh(command) {
      await run("bash", ["-c", command], { cwd: ws });
    },
    async another() {
      const dir = join(base, `ws${++others}`);
      await mkdir(dir);
      return dir;
    },
    async [Symbol.asyncDispose]() {
      await scope.dispose();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** sha256 of every file under `dir` (path → hash), to prove a folder was not touched. */
export async function fingerprint(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string) => {
    for (const entry of await readdir(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(path);
      else out[path] = createHash("sha256").update(await readFile(join(dir, path))).digest("hex");
    }
  };
  await walk("");
  return out;
}

/** The shadow repository of a workspace. */
export const gitDirOf = async (f: Fixture, ws = f.ws) => shadowDir(join(f.home, "snapshots"), await realpath(ws));

/** The paths in a snapshot tree (via the shadow repository's git). */
export async function treePaths(f: Fixture, tree: string): Promise<string[]> {
  const out = await run("git", [`--git-dir=${await gitDirOf(f)}`, "ls-tree", "-r", "-z", "--name-only", tree], { encoding: "buffer" });
  return out.stdout.toString("utf8").split("\0").filter(Boolean);
}
