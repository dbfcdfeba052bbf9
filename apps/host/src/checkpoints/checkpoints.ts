import {
  formatIssues, SnapshotLabel, SnapshotTree, type CapabilityRow, type ChangedFile, type CheckpointsAvailability, type RewindResult,
  type SnapshotResult, type TurnChanges,
} from "@seam/shared";
import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { z } from "zod";
import { capabilityRow } from "../core/capability-row.js";
import { HostError, messageOf } from "../core/errors.js";
import type { Scope } from "../core/scope.js";
import { changedFiles, totals } from "./diff.js";
import { gitEnv, INSTALL_HINT, runGit, type GitRunner } from "./git.js";
import { pruneRefs, releaseLabels, saveRef } from "./refs.js";
import { applyPlan, planRestore, planUndo, previewPlan } from "./rewind.js";
import { canonicalWorkspace, openShadow, RepoQueue, removeShadow, shadowDir, type Shadow } from "./shadow.js";
import { takeSnapshot } from "./snapshot.js";
import { createLog } from "../core/log.js";

/** What the checkpoints capability needs from the host (passed by host.ts). */
export interface CheckpointsDeps {
  /** The data directory; shadow repositories live in `<home>/snapshots/<id>`. */
  home: string;
  /** The git binary (default `git` on PATH); tests inject a missing one. */
  git?: string;
  env?: NodeJS.ProcessEnv;
  /** Files larger than this are left out of snapshots (default 5 MiB). */
  maxFileBytes?: number;
  /** Patch text kept per file and per turn (defaults 100 KB and 1 MB). */
  patchFileBytes?: number;
  patchTurnBytes?: number;
  /** Snapshot refs kept per workspace; older ones are released every `pruneEvery` snapshots (defaults 400 and 50). */
  keepSnapshots?: number;
  pruneEvery?: number;
  /** One git command's deadline (default 120 s). */
  timeoutMs?: number;
  warn?: (message: string) => void;
}

/** The engine the turn loop and the UI's routers call (CODE-5). Every workspace path must be absolute. */
export interface Api {
  /** Whether git is here: its version, or why not (what to install). */
  available(): Promise<CheckpointsAvailability>;
  /** Snapshots the workspace into its shadow repository and keeps it under `label` (e.g. `<turnId>-start`). */
  snapshot(workspace: string, label: string): Promise<SnapshotResult>;
  /** The files that differ between two snapshots, with line counts and bounded patches, by path. */
  changes(workspace: string, from: string, to: string): Promise<ChangedFile[]>;
  /** `changes` with the card's totals. */
  turnChanges(workspace: string, from: string, to: string): Promise<TurnChanges>;
  /** "Undo this turn": the turn's files back to `start`; files changed since `end` are conflicts, untouched. */
  undo(workspace: string, start: string, end: string): Promise<RewindResult>;
  /** "Restore to here": every snapshotted file back to `tree`, files added since removed. */
  restore(workspace: string, tree: string): Promise<RewindResult>;
  /** What `restore(workspace, tree)` would restore, remove and leave as a conflict now, writing no file ("Restore to here" asks first, CTX-5). */
  previewRestore(workspace: string, tree: string): Promise<Omit<RewindResult, "before">>;
  /** Drops the refs of these labels (e.g. a deleted session's turns); returns how many. */
  release(workspace: string, labels: string[]): Promise<number>;
  /** Keeps the newest `keep` snapshot refs (default `keepSnapshots`), then `gc --auto`; returns how many went. */
  prune(workspace: string, keep?: number): Promise<number>;
  /** Deletes the workspace's shadow repository (every snapshot of it). */
  forgetWorkspace(workspace: string): Promise<void>;
}

export interface Checkpoints extends Api {
  readonly api: Api;
  /** The capability overview's row: ready while git is available. */
  status(): CapabilityRow;
}

const MiB = 1024 * 1024;
const RECHECK_MS = 10_000;
const Workspace = z.string().min(1, "workspace is required");
const Labels = z.array(SnapshotLabel).max(10_000);
const Keep = z.number().int().min(0).max(1_000_000);

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HostError("bad_input:checkpoints", `Invalid ${what}: ${formatIssues(parsed.error)}`, { reason: "invalid_argument" });
  return parsed.data;
}

export async function create(scope: Scope, deps: CheckpointsDeps): Promise<Checkpoints> {
  const root = join(resolve(deps.home), "snapshots");
  const runner: GitRunner = {
    git: deps.git ?? "git",
    env: gitEnv(deps.env ?? process.env, root),
    signal: scope.signal,
    timeoutMs: deps.timeoutMs ?? 120_000,
  };
  const limits = {
    maxFileBytes: deps.maxFileBytes ?? 5 * MiB,
    patch: { fileBytes: deps.patchFileBytes ?? 100_000, turnBytes: deps.patchTurnBytes ?? 1_000_000 },
    keep: deps.keepSnapshots ?? 400,
    pruneEvery: deps.pruneEvery ?? 50,
  };
  const warn = deps.warn ?? ((m: string) => createLog("checkpoints").warn(m.replace(/^checkpoints: /, "")));
  const queue = new RepoQueue();
  const opened = new Map<string, Promise<Shadow>>();
  const counts = new Map<string, number>();

  let probe: { at: number; result: Promise<CheckpointsAvailability> } | undefined;
  let last: CheckpointsAvailability = { ok: false, reason: "git has not been checked yet." };
  const available = (): Promise<CheckpointsAvailability> => {
    if (probe && (last.ok || Date.now() - probe.at < RECHECK_MS)) return probe.result;
    const result = runGit(runner, { args: ["--version"] }).then(
      (out): CheckpointsAvailability => ({ ok: true, version: out.stdout.toString("utf8").trim().replace(/^git version /, "") }),
      (error): CheckpointsAvailability => ({
        ok: false,
        reason: error instanceof HostError && error.data?.reason === "git_unavailable" ? `git is not installed — ${INSTALL_HINT.charAt(0).toLowerCase()}${INSTALL_HINT.slice(1)}` : `git does not run: ${messageOf(error)}`,
      }),
    ).then((r) => (last = r));
    probe = { at: Date.now(), result };
    return result;
  };
  await available();

  /** Validates, checks git, canonicalises the workspace and runs `job` in that repository's queue. */
  const withShadow = async <T>(workspace: unknown, job: (shadow: Shadow) => Promise<T>): Promise<T> => {
    if (scope.disposed) throw new HostError("closed:checkpoints", "Checkpoints are shut down (the host is stopping).", { reason: "closed" });
    const ws = await canonicalWorkspace(parse(Workspace, workspace, "workspace"));
    const git = await available();
    if (!git.ok) throw new HostError("unavailable:checkpoints", `Checkpoints are unavailable: ${git.reason}`, { reason: "git_unavailable" });
    const dir = shadowDir(root, ws);
    return queue.run(dir, async () => {
      let shadow = opened.get(dir);
      if (!shadow) {
        // A lock file left by a host that died mid-command would block every later command.
        shadow = rm(join(dir, "index.lock"), { force: true }).then(() => openShadow(runner, root, ws));
        opened.set(dir, shadow);
        shadow.catch(() => opened.delete(dir));
      }
      return job(await shadow);
    });
  };

  const requireTrees = async (shadow: Shadow, trees: string[]) => {
    const out = await shadow.git({ args: ["cat-file", "--batch-check"], stdin: trees.map((t) => `${t}\n`).join("") });
    const lines = out.stdout.toString("utf8").split("\n");
    trees.forEach((tree, i) => {
      if (!lines[i]?.startsWith(`${tree} tree `)) {
        throw new HostError("not_found:checkpoints", `Snapshot ${tree} is not in this workspace's checkpoints (it was pruned, or belongs to another workspace).`, { reason: "snapshot_not_found", tree });
      }
    });
  };

  const snap = async (shadow: Shadow, label: string): Promise<SnapshotResult> => {
    const result = await takeSnapshot(shadow, root, limits.maxFileBytes);
    await saveRef(shadow, label, result.tree);
    const n = (counts.get(shadow.gitDir) ?? 0) + 1;
    counts.set(shadow.gitDir, n);
    if (n % limits.pruneEvery === 0) {
      void queue.run(shadow.gitDir, () => pruneRefs(shadow, limits.keep)).catch((error) => warn(`checkpoints: pruning ${shadow.gitDir} failed: ${messageOf(error)}`));
    }
    return result;
  };

  const api: Api = {
    available,
    async snapshot(workspace, label) {
      const name = parse(SnapshotLabel, label, "label");
      return withShadow(workspace, (shadow) => snap(shadow, name));
    },
    async changes(workspace, from, to) {
      const trees = [parse(SnapshotTree, from, "from"), parse(SnapshotTree, to, "to")];
      return withShadow(workspace, async (shadow) => {
        await requireTrees(shadow, trees);
        return changedFiles(shadow, trees[0]!, trees[1]!, limits.patch);
      });
    },
    async turnChanges(workspace, from, to) {
      const files = await api.changes(workspace, from, to);
      return { from, to, files, ...totals(files) };
    },
    async undo(workspace, start, end) {
      const trees = [parse(SnapshotTree, start, "start"), parse(SnapshotTree, end, "end")];
      return withShadow(workspace, async (shadow) => {
        await requireTrees(shadow, trees);
        const before = (await snap(shadow, "before-undo")).tree;
        const applied = await applyPlan(shadow, trees[0]!, await planUndo(shadow, trees[0]!, trees[1]!, before));
        return { ...applied, before };
      });
    },
    async restore(workspace, tree) {
      const target = parse(SnapshotTree, tree, "tree");
      return withShadow(workspace, async (shadow) => {
        await requireTrees(shadow, [target]);
        const before = (await snap(shadow, "before-restore")).tree;
        const applied = await applyPlan(shadow, target, await planRestore(shadow, target, before));
        return { ...applied, before };
      });
    },
    async previewRestore(workspace, tree) {
      const target = parse(SnapshotTree, tree, "tree");
      return withShadow(workspace, async (shadow) => {
        await requireTrees(shadow, [target]);
        const current = (await snap(shadow, "preview-restore")).tree;
        return previewPlan(shadow, await planRestore(shadow, target, current));
      });
    },
    async release(workspace, labels) {
      const names = parse(Labels, labels, "labels");
      return withShadow(workspace, (shadow) => releaseLabels(shadow, names));
    },
    async prune(workspace, keep) {
      const n = keep === undefined ? limits.keep : parse(Keep, keep, "keep");
      return withShadow(workspace, (shadow) => pruneRefs(shadow, n));
    },
    async forgetWorkspace(workspace) {
      const raw = parse(Workspace, workspace, "workspace");
      // The folder may be gone already; its shadow is still found by its path.
      const ws = await canonicalWorkspace(raw).catch(() => resolve(raw));
      const dir = shadowDir(root, ws);
      await queue.run(dir, async () => {
        opened.delete(dir);
        counts.delete(dir);
        await removeShadow(dir);
      });
    },
  };

  return {
    ...api,
    api,
    status: () => capabilityRow({
      id: "checkpoints",
      title: "Checkpoints (Changed files, Undo, Restore)",
      configured: true,
      visible: true,
      ready: last.ok,
      note: last.ok ? `Snapshots in a shadow git repository per workspace (git ${last.version}).` : `${last.reason ?? "git is not available."}`,
      tools: [],
    }),
  };
}

/** The brief's name for `create`. */
export const createCheckpoints = create;
