import { stat } from "node:fs/promises";
import type { SkillCandidateInfo, SkillInspection, SkillRootInfo } from "@seam/shared";
import { messageOf } from "../core/errors.js";
import { mapLimited, type FsProvider } from "./fs-provider.js";
import { GLOBAL_LAYER, type Entry, type SkillRegistry } from "./registry.js";
import { isWritable } from "./roots.js";

export const PREVIEW_CHARS = 2048;

export const PROMPT_AUTHORITY_NOTE =
  "Skills are trusted instructions: the agent follows a skill's body as if you wrote it. Every writable root is " +
  "therefore prompt authority — any person, tool or script that can write into it can steer the agent. Keep " +
  "writable roots to folders you control, and review skills that come with cloned repositories.";

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

/** Everything the skills page shows (SKL-10): roots, every candidate with precedence, diagnostics, previews. */
export async function inspectSkills(
  deps: { registry: SkillRegistry; fs: FsProvider; fsLayer?: string },
  workspace: string,
  scopes: readonly string[],
): Promise<SkillInspection> {
  const { projectRoot, roots } = await deps.fs.roots(workspace);
  const observation = await deps.registry.observe({ cwd: workspace, scopes });
  const rootInfo: SkillRootInfo[] = await Promise.all(roots.map(async (r) => {
    const exists = await stat(r.path).then((s) => s.isDirectory(), () => false);
    const writable = r.kind === "bundled" ? false : await isWritable(r.path);
    return {
      path: r.path, rank: r.rank, kind: r.kind, source: r.source, layer: deps.fsLayer ?? GLOBAL_LAYER,
      exists, writable, promptAuthority: writable, watch: deps.fs.watchState(r),
    };
  }));

  const preview = async (entry: Entry) => {
    try {
      const def = await deps.registry.load(entry, { cwd: workspace });
      if (!def) return { bodyPreview: null, bodyTruncated: false, previewError: "could not be loaded now (changed or removed since it was listed)" };
      return { bodyPreview: def.body.slice(0, PREVIEW_CHARS), bodyTruncated: def.body.length > PREVIEW_CHARS, previewError: null };
    } catch (error) {
      return { bodyPreview: null, bodyTruncated: false, previewError: messageOf(error) };
    }
  };

  const candidates: SkillCandidateInfo[] = await mapLimited(observation.entries, 32, async (e) => ({
    name: e.name,
    description: e.description,
    whenToUse: orNull(e.whenToUse),
    layer: e.layer,
    rank: e.rank,
    source: e.source,
    provider: e.provider,
    path: orNull(e.path),
    winner: e.shadowedBy === null,
    shadowedBy: e.shadowedBy ? { layer: e.shadowedBy.layer, rank: e.shadowedBy.rank, source: e.shadowedBy.source, path: orNull(e.shadowedBy.path) } : null,
    modelInvocable: e.modelInvocable,
    userInvocable: e.userInvocable,
    license: orNull(e.meta?.license),
    compatibility: orNull(e.meta?.compatibility),
    metadata: orNull(e.meta?.metadata),
    allowedTools: orNull(e.meta?.allowedTools),
    extraFields: Object.keys(e.meta?.extra ?? {}),
    ...(await preview(e)),
  }));

  return {
    workspace,
    projectRoot: projectRoot ?? workspace,
    complete: observation.complete,
    revision: observation.revision,
    roots: rootInfo,
    candidates,
    diagnostics: observation.diagnostics.map((d) => ({ path: d.path, reason: d.reason, severity: d.severity, name: orNull(d.name), root: orNull(d.root) })),
    promptAuthorityNote: PROMPT_AUTHORITY_NOTE,
  };
}
