import type { ChangedFile } from "@seam/shared";
import { HostError } from "../core/errors.js";
import { nulFields } from "./git.js";
import type { Shadow } from "./shadow.js";

/** One side of a path in a tree: its git mode and blob id, or null when the path is absent. */
export interface Side { mode: string; sha: string }

/** A path that differs between two trees. */
export interface TreeChange { path: string; from: Side | null; to: Side | null }

export interface PatchLimits {
  /** Per file, in bytes of patch text (default 100 KB). */
  fileBytes: number;
  /** Per turn, all files together (default 1 MB). */
  turnBytes: number;
}

const ABSENT = "000000";

/** The paths that differ between two trees (`diff-tree -r --raw`), in git's (bytewise path) order. */
export async function treeDiff(shadow: Shadow, from: string, to: string): Promise<TreeChange[]> {
  const out = await shadow.git({ args: ["diff-tree", "-r", "-z", "--no-renames", "--raw", from, to] });
  return parseRaw(nulFields(out.stdout)).changes;
}

function parseRaw(fields: string[]): { changes: TreeChange[]; rest: string[] } {
  const changes: TreeChange[] = [];
  let i = 0;
  while (i + 1 < fields.length && fields[i]!.startsWith(":")) {
    const [oldMode, newMode, oldSha, newSha] = fields[i]!.slice(1).split(" ");
    changes.push({
      path: fields[i + 1]!,
      from: oldMode === ABSENT ? null : { mode: oldMode!, sha: oldSha! },
      to: newMode === ABSENT ? null : { mode: newMode!, sha: newSha! },
    });
    i += 2;
  }
  return { changes, rest: fields.slice(i) };
}

/** The Changed files between two snapshots: status, line counts (always complete) and bounded patches. */
export async function changedFiles(shadow: Shadow, from: string, to: string, limits: PatchLimits): Promise<ChangedFile[]> {
  const [stat, patches] = await Promise.all([
    shadow.git({ args: ["diff-tree", "-r", "-z", "--no-renames", "--raw", "--numstat", from, to] }),
    boundedPatches(shadow, from, to, limits),
  ]);
  const { changes, rest } = parseRaw(nulFields(stat.stdout));
  if (rest.length !== changes.length || patches.sections.length > changes.length) {
    throw new HostError("internal:checkpoints", `git diff-tree gave ${changes.length} changed paths but ${rest.length} counts and ${patches.sections.length} patches.`, { reason: "git_failed" });
  }
  return changes.map((change, i): ChangedFile => {
    const [added = "0", removed = "0"] = rest[i]!.split("\t", 2);
    const binary = added === "-";
    const section = patches.sections[i];
    return {
      path: change.path,
      status: change.from === null ? "added" : change.to === null ? "deleted" : "modified",
      added: binary ? 0 : Number(added),
      removed: binary ? 0 : Number(removed),
      binary,
      oldMode: change.from?.mode ?? null,
      newMode: change.to?.mode ?? null,
      patch: binary || !section ? "" : section.text,
      truncated: section ? section.truncated : !binary,
    };
  });
}

interface Section { chunks: Buffer[]; bytes: number; truncated: boolean; text: string }

/**
 * Streams `diff-tree -p` and splits it at each `diff --git ` line (content lines always start with a
 * space, +, -, @ or \, so the split is unambiguous); keeps at most `fileBytes` per file (whole lines)
 * and stops git once `turnBytes` are kept. Sections come in the same order as the raw listing.
 */
async function boundedPatches(shadow: Shadow, from: string, to: string, limits: PatchLimits): Promise<{ sections: Section[]; cut: boolean }> {
  const sections: Section[] = [];
  let total = 0;
  let cut = false;
  let carry = Buffer.alloc(0);
  const HEADER = Buffer.from("diff --git ");
  const line = (text: Buffer) => {
    if (text.subarray(0, HEADER.length).equals(HEADER)) sections.push({ chunks: [], bytes: 0, truncated: false, text: "" });
    const current = sections.at(-1);
    if (!current || current.truncated) return;
    if (current.bytes + text.length > limits.fileBytes || total + text.length > limits.turnBytes) {
      current.truncated = true;
      if (total + text.length > limits.turnBytes) cut = true;
      return;
    }
    current.chunks.push(text);
    current.bytes += text.length;
    total += text.length;
  };
  await shadow.git({
    args: ["diff-tree", "-r", "-p", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv", "--ignore-submodules", from, to],
    onStdout(chunk) {
      let data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      let start = 0;
      for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
        line(data.subarray(start, nl + 1));
        start = nl + 1;
      }
      data = data.subarray(start);
      carry = Buffer.from(data);
      return !cut;
    },
  });
  if (carry.length && !cut) line(carry);
  for (const s of sections) s.text = Buffer.concat(s.chunks).toString("utf8");
  return { sections, cut };
}

/** The Changed files card's totals. */
export function totals(files: ChangedFile[]): { added: number; removed: number; truncated: boolean } {
  return {
    added: files.reduce((n, f) => n + f.added, 0),
    removed: files.reduce((n, f) => n + f.removed, 0),
    truncated: files.some((f) => f.truncated),
  };
}
