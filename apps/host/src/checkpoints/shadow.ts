import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { HostError } from "../core/errors.js";
import { runGit, type GitCall, type GitResult, type GitRunner } from "./git.js";

/** One workspace's shadow repository: `--git-dir` under the data directory, `--work-tree` the workspace. */
export interface Shadow {
  /** The canonical workspace path (symlinks resolved). */
  readonly workspace: string;
  readonly gitDir: string;
  /** The tree the index held when this process last wrote it (null when unknown), so an unchanged snapshot skips write-tree. */
  indexTree: string | null;
  /** Runs git on this repository with its own index file. */
  git(call: GitCall): Promise<GitResult>;
}

/** Where a workspace's shadow repository lives: `<root>/<first 24 hex of sha256(canonical path)>`. */
export function shadowDir(root: string, canonicalWorkspace: string): string {
  return join(root, createHash("sha256").update(canonicalWorkspace).digest("hex").slice(0, 24));
}

/** The canonical workspace path, or a clear error when it is not an existing absolute folder. */
export async function canonicalWorkspace(workspace: string): Promise<string> {
  if (typeof workspace !== "string" || !isAbsolute(workspace)) {
    throw new HostError("bad_input:checkpoints", `The workspace must be an absolute path (got ${JSON.stringify(workspace)}).`, { reason: "invalid_workspace" });
  }
  let real: string;
  try {
    real = await realpath(workspace);
  } catch {
    throw new HostError("not_found:checkpoints", `The workspace ${workspace} does not exist.`, { reason: "workspace_not_found", workspace });
  }
  if (!(await stat(real)).isDirectory()) {
    throw new HostError("bad_input:checkpoints", `The workspace ${workspace} is not a folder.`, { reason: "invalid_workspace", workspace });
  }
  return real;
}

// No conversion of any kind between the workspace and the snapshots: bytes in, bytes out.
const ATTRIBUTES = "* -text -eol -filter -ident -working-tree-encoding\n";
const CONFIG = `[core]
\trepositoryformatversion = 0
\tbare = false
\tfilemode = true
\tsymlinks = true
\tignorecase = false
\tlogallrefupdates = false
\tautocrlf = false
\tsafecrlf = false
\tquotepath = false
\tuntrackedCache = true
\tfsmonitor = false
\thooksPath = /dev/null
\tpreloadIndex = true
[gc]
\tauto = 0
[diff]
\trenames = false
\tnoprefix = false
[advice]
\tdetachedHead = false
`;

/** Opens (creating on first use) the shadow repository of `workspace`. */
export async function openShadow(runner: GitRunner, root: string, workspace: string): Promise<Shadow> {
  const gitDir = shadowDir(root, workspace);
  const index = join(gitDir, "index");
  const shadow: Shadow = {
    workspace,
    gitDir,
    indexTree: null,
    git: (call) => runGit(runner, { cwd: workspace, ...call, args: [`--git-dir=${gitDir}`, `--work-tree=${workspace}`, ...call.args], env: { GIT_INDEX_FILE: index, ...call.env } }),
  };
  if (existsSync(join(gitDir, "HEAD"))) return shadow;
  await mkdir(root, { recursive: true });
  await runGit(runner, { args: [`--git-dir=${gitDir}`, "init", "--quiet", "--template="] });
  await mkdir(join(gitDir, "info"), { recursive: true });
  await writeFile(join(gitDir, "config"), CONFIG);
  await writeFile(join(gitDir, "info", "attributes"), ATTRIBUTES);
  await writeFile(join(gitDir, "seam-workspace"), `${workspace}\n`);
  await syncExcludes(shadow, root);
  return shadow;
}

/**
 * The shadow's `info/exclude`: the user's own `.git/info/exclude` (it lives in their git dir, which the
 * shadow does not read) and the data directory when it sits inside the workspace. Returns whether it changed.
 */
export async function syncExcludes(shadow: Shadow, root: string): Promise<boolean> {
  const lines = ["# Written by Seam: the workspace's .git/info/exclude and Seam's own data folder."];
  const own = await readFile(join(shadow.workspace, ".git", "info", "exclude"), "utf8").catch(() => "");
  if (own) lines.push(own.trimEnd());
  const inside = relative(shadow.workspace, root);
  if (inside && !inside.startsWith("..") && !isAbsolute(inside)) lines.push(`/${inside.split(sep).map(escapeIgnore).join("/")}/`);
  const text = `${lines.join("\n")}\n`;
  const file = join(shadow.gitDir, "info", "exclude");
  if ((await readFile(file, "utf8").catch(() => "")) === text) return false;
  await writeFile(file, text);
  return true;
}

const escapeIgnore = (name: string) => name.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`);

/** Removes a shadow repository entirely. */
export async function removeShadow(gitDir: string): Promise<void> {
  await rm(gitDir, { recursive: true, force: true });
}

/** Runs jobs on one repository one after another (two sessions on a workspace share its shadow). */
export class RepoQueue {
  private tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(job, job);
    const tail = next.then(() => undefined, () => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
