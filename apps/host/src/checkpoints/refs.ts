import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Shadow } from "./shadow.js";

/**
 * Every snapshot is kept alive by a ref `refs/seam/<ms since epoch, 14 digits>-<label>` pointing at its
 * tree (no commits: nothing needs an identity), so `gc` never drops it; the time prefix orders them.
 */
const PREFIX = "refs/seam/";

export const refName = (label: string, now = Date.now()) => `${PREFIX}${String(now).padStart(14, "0")}-${label}`;
const labelOf = (ref: string) => ref.slice(PREFIX.length + 15);

/**
 * Writes the ref as a loose ref file (what `update-ref` does for the files backend the shadow repository is
 * created with): atomic rename, no process per snapshot. A loose ref overrides a packed one of the same name.
 */
export async function saveRef(shadow: Shadow, label: string, tree: string): Promise<void> {
  const file = join(shadow.gitDir, refName(label));
  await mkdir(dirname(file), { recursive: true });
  const temp = join(shadow.gitDir, "seam-ref.tmp");
  await writeFile(temp, `${tree}\n`);
  await rename(temp, file);
}

async function listRefs(shadow: Shadow): Promise<string[]> {
  const out = await shadow.git({ args: ["for-each-ref", "--format=%(refname)", PREFIX] });
  return out.stdout.toString("utf8").split("\n").filter(Boolean).sort();
}

async function deleteRefs(shadow: Shadow, refs: string[]): Promise<void> {
  if (!refs.length) return;
  await shadow.git({ args: ["update-ref", "-z", "--stdin"], stdin: refs.map((r) => `delete ${r}\0\0`).join("") });
}

/** Drops the refs of the given labels; returns how many went. Their trees go at the next `gc`. */
export async function releaseLabels(shadow: Shadow, labels: string[]): Promise<number> {
  const wanted = new Set(labels);
  const refs = (await listRefs(shadow)).filter((r) => wanted.has(labelOf(r)));
  await deleteRefs(shadow, refs);
  return refs.length;
}

/** Keeps the newest `keep` refs and drops the rest, then lets git pack and prune if it is worth it. */
export async function pruneRefs(shadow: Shadow, keep: number): Promise<number> {
  const refs = await listRefs(shadow);
  const old = refs.slice(0, Math.max(0, refs.length - keep));
  await deleteRefs(shadow, old);
  await gcAuto(shadow);
  return old.length;
}

/** `gc --auto` with git's usual thresholds (the repository's own `gc.auto` is 0 so nothing else triggers it). */
export async function gcAuto(shadow: Shadow): Promise<void> {
  await shadow.git({ args: ["-c", "gc.auto=6700", "-c", "gc.autoDetach=false", "gc", "--auto", "--quiet"] });
}

export const refLabels = async (shadow: Shadow) => (await listRefs(shadow)).map(labelOf);
