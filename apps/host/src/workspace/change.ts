import type { Stats } from "node:fs";
import { lstat, mkdir, readFile, realpath, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { HostError, messageOf } from "../core/errors.js";
import type { Log } from "../core/log.js";
import { atomicWrite } from "./atomic-write.js";
import { isInside, outside } from "./contain.js";
import { applyEdits, type Edit } from "./edits.js";
import { abortedError, formatBytes, hasNulPrefix } from "./files.js";
import type { Ledger } from "./ledger.js";
import { capLines, DIFF_MAX_CHARS, unifiedPatch } from "./patch.js";
import { decodeText, layOut, normalise, withBom } from "./text.js";
import { resolveWriteTarget, type WriteTarget } from "./write-target.js";

/** Files larger than this are not edited or replaced, and write_file content larger than this is refused. */
export const WRITE_MAX_BYTES = 5 * 1024 * 1024;
/** The diff the model sees is cut here; the canonical diff is kept to `diffMaxChars`. */
export const RENDERED_DIFF_MAX_CHARS = 10_000;

/** What write_file and edit_file did (or, from a preview, would do) to one file (CODE-1). */
export interface FileChange {
  path: string;
  action: "created" | "replaced" | "edited";
  /** Unified diff of the "\n"-normalised texts (jsdiff), at most `diffMaxChars`. */
  diff: string;
  /** The diff was cut at its size cap, or too large to compute (then `diff` is empty). */
  diffTruncated: boolean;
  added: number;
  removed: number;
  /** Size of the file written, in bytes. */
  bytes: number;
}

export interface ChangeLimits {
  /** Default 5 MiB. */
  maxBytes?: number;
  /** Default 200,000 characters. */
  diffMaxChars?: number;
}

export interface ChangeContext { sessionId: string; workspace: string; signal?: AbortSignal }

/** Told about every successful write (CODE-6: skills cache, language servers). */
export type AfterWrite = (event: { sessionId: string; workspace: string; abs: string; content: string }) => Promise<void> | void;

/** A computed change, ready to commit. */
export interface Plan {
  change: FileChange;
  target: WriteTarget;
  /** The file's new text, BOM and line endings as they will be on disk. */
  text: string;
  data: Buffer;
}

export interface WriteArgs { path: string; content: string }
export interface EditArgs { path: string; edits: Edit[] }

export async function planWrite(ledger: Ledger, ctx: ChangeContext, args: WriteArgs, limits: ChangeLimits = {}): Promise<Plan> {
  const maxBytes = limits.maxBytes ?? WRITE_MAX_BYTES;
  const size = Buffer.byteLength(args.content);
  if (size > maxBytes) throw tooLarge(`The content (${formatBytes(size)})`, maxBytes, "Write a smaller file, or split it into several.");
  const target = await resolveWriteTarget(ctx.workspace, args.path);
  if (!target.existing) return planned(target, null, args.content, normalise(args.content), "created", limits);
  const current = await readExisting(target, maxBytes);
  await requireRead(ledger, ctx.sessionId, target, current);
  const { raw, form } = decodeText(current, target.path, { strict: false });
  const after = normalise(args.content);
  return planned(target, normalise(raw), layOut(after, form), after, "replaced", limits);
}

export async function planEdit(ledger: Ledger, ctx: ChangeContext, args: EditArgs, limits: ChangeLimits = {}): Promise<Plan> {
  const maxBytes = limits.maxBytes ?? WRITE_MAX_BYTES;
  const target = await resolveWriteTarget(ctx.workspace, args.path);
  if (!target.existing) {
    throw new HostError("not_found:workspace", `${target.path} does not exist. Use write_file to create a new file, or check the path with glob or list_dir.`, { reason: "not_found" });
  }
  const current = await readExisting(target, maxBytes);
  await requireRead(ledger, ctx.sessionId, target, current);
  const { raw, form } = decodeText(current, target.path, { strict: true });
  const edited = applyEdits(raw, args.edits, target.path);
  const plan = planned(target, normalise(raw), withBom(edited, form.bom), normalise(edited), "edited", limits);
  if (plan.data.length > maxBytes) throw tooLarge(`${target.path} after these edits`, maxBytes, "Make smaller edits.");
  return plan;
}

/**
 * Writes a plan atomically, unless the file changed (or appeared) since the plan was computed, then
 * records the new content as seen by the session and tells `afterWrite` (whose failures are only logged).
 */
export async function commit(plan: Plan, ledger: Ledger, ctx: ChangeContext, hooks: { afterWrite?: AfterWrite; log?: Log } = {}): Promise<FileChange> {
  if (ctx.signal?.aborted) throw abortedError();
  const { target } = plan;
  if (target.existing) {
    const now = await stat(target.abs).catch(() => undefined);
    if (!now || !sameFile(now, target.existing)) throw changedSinceRead(target.path);
  } else {
    if (await lstat(target.abs).then(() => true, () => false)) {
      throw new HostError("conflict:workspace", `${target.path} was created by something else just now. Read it, then write again.`, { reason: "file_not_read" });
    }
    await mkdir(dirname(target.abs), { recursive: true }).catch((error: unknown) => rethrowWriteError(error, target.path));
    // The folders may have been swapped for links since the plan: check where the parent is now.
    if (!isInside(target.root, await realpath(dirname(target.abs)))) throw outside(target.path);
  }
  await atomicWrite(target.abs, plan.data, { mode: target.existing?.mode }).catch((error: unknown) => rethrowWriteError(error, target.path));
  ledger.record(ctx.sessionId, target.abs, plan.data);
  if (hooks.afterWrite) {
    try {
      await hooks.afterWrite({ sessionId: ctx.sessionId, workspace: ctx.workspace, abs: target.abs, content: plan.text });
    } catch (error) {
      hooks.log?.warn("afterWrite hook failed", { path: target.path, error: messageOf(error) });
    }
  }
  return plan.change;
}

const VERB: Record<FileChange["action"], string> = { created: "Created", replaced: "Replaced", edited: "Edited" };

/** One summary line, then the unified diff, cut for the model with a note saying so. */
export function renderChange(change: FileChange, maxChars: number = RENDERED_DIFF_MAX_CHARS): string {
  const head = `${VERB[change.action]} ${change.path} (+${change.added} −${change.removed})`;
  if (change.diff === "") return change.diffTruncated ? `${head}\n[The diff is too large to show.]` : head;
  const cut = capLines(change.diff, maxChars);
  const note = cut.cut ? `\n[Diff cut: showing ${cut.shownLines} of ${cut.totalLines} lines.]` : change.diffTruncated ? "\n[Diff cut at its size limit.]" : "";
  return `${head}\n${cut.text.trimEnd()}${note}`;
}

function planned(target: WriteTarget, before: string | null, text: string, after: string, action: FileChange["action"], limits: ChangeLimits): Plan {
  const data = Buffer.from(text, "utf8");
  const patch = unifiedPatch(target.path, before, after, limits.diffMaxChars ?? DIFF_MAX_CHARS);
  const change: FileChange = { path: target.path, action, diff: patch.diff, diffTruncated: patch.truncated, added: patch.added, removed: patch.removed, bytes: data.length };
  return { change, target, text, data };
}

async function readExisting(target: WriteTarget, maxBytes: number): Promise<Buffer> {
  const size = target.existing?.size ?? 0;
  if (size > maxBytes) throw tooLarge(`${target.path} (${formatBytes(size)})`, maxBytes, "Change it with a shell command instead.");
  const bytes = await readFile(target.abs);
  if (bytes.length > maxBytes) throw tooLarge(`${target.path} (${formatBytes(bytes.length)})`, maxBytes, "Change it with a shell command instead.");
  if (hasNulPrefix(bytes)) throw new HostError("bad_input:workspace", `${target.path} is a binary file; only text files can be edited or replaced.`, { reason: "binary_file" });
  return bytes;
}

async function requireRead(ledger: Ledger, sessionId: string, target: WriteTarget, current: Uint8Array): Promise<void> {
  const state = await ledger.check(sessionId, target.abs, current);
  if (state === "file_not_read") {
    throw new HostError("conflict:workspace", `${target.path} has not been read in this session. Read it with read_file first, then repeat this call.`, { reason: "file_not_read" });
  }
  if (state === "file_changed_since_read") throw changedSinceRead(target.path);
}

const changedSinceRead = (path: string) =>
  new HostError("conflict:workspace", `${path} changed since it was last read in this session. Read it again with read_file, then repeat the change against its current text.`, { reason: "file_changed_since_read" });

const tooLarge = (what: string, maxBytes: number, advice: string) =>
  new HostError("bad_input:workspace", `${what} is over the ${formatBytes(maxBytes)} limit for file edits. ${advice}`, { reason: "file_too_large" });

const sameFile = (a: Stats, b: Stats) => a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

function rethrowWriteError(error: unknown, path: string): never {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") {
    throw new HostError("denied:workspace", `Cannot write ${path} (${code}): permission denied.`, { reason: "access_denied" }, { cause: error });
  }
  if (code === "ENOTDIR" || code === "EEXIST") throw new HostError("bad_input:workspace", `Cannot create ${path}: part of its folder path is a file.`, { reason: "not_a_file" }, { cause: error });
  throw new HostError("internal:workspace", `Writing ${path} failed (${code ?? messageOf(error)}); the file is unchanged.`, { reason: "write_failed" }, { cause: error });
}
