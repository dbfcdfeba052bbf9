import { z } from "zod";

/** Skill names are kebab-case: lowercase letters and digits in single-hyphen groups, at most 64 characters (SKL-2). */
export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SKILL_NAME_MAX = 64;

export const SkillName = z.string()
  .max(SKILL_NAME_MAX, `Use at most ${SKILL_NAME_MAX} characters`)
  .regex(SKILL_NAME, "Use kebab-case: lowercase letters, digits and single hyphens, e.g. pdf-tools");

/** Fact kinds in the session timeline that belong to skills (SKL-6, SKL-8) and the compaction marker they react to. */
export const SKILLS_CATALOG_FACT = "skills_catalog";
export const SKILL_INVOCATION_FACT = "skill_invocation";
export const COMPACTION_FACT = "compaction";

/** Payload of a `skills_catalog` fact: the digest of the rendered catalog and the names it lists (empty = explicit empty replacement). */
export const SkillsCatalogPayload = z.object({ digest: z.string(), names: z.array(z.string()) });
export type SkillsCatalogPayload = z.infer<typeof SkillsCatalogPayload>;

/** Payload of a `skill_invocation` fact: which skill the user invoked with `/name`, from where, and the rest of the line. */
export const SkillInvocationPayload = z.object({ name: z.string(), args: z.string(), source: z.string(), path: z.string().nullable() });
export type SkillInvocationPayload = z.infer<typeof SkillInvocationPayload>;

const isAbsoluteLike = (p: string) => p.startsWith("/") || p === "~" || p.startsWith("~/") || /^[A-Za-z]:[\\/]/.test(p);

/** A custom skills root (rank 300): an absolute path, or one starting with `~/` (the user's home). */
export const SkillRootPath = z.string().trim()
  .min(1, "Enter a folder path")
  .max(4096)
  .refine((p) => !p.includes("\0"), "The path contains a NUL character")
  .refine(isAbsoluteLike, "Use an absolute path (or one starting with ~/)");

/** Settings key "skills" (SKL-2): custom roots, searched in the order given. */
export const SkillSettings = z.strictObject({
  customRoots: z.array(SkillRootPath).max(32, "At most 32 custom roots")
    .refine((roots) => new Set(roots).size === roots.length, "Each custom root may appear only once")
    .default([]),
});
export type SkillSettings = z.infer<typeof SkillSettings>;
export type SkillSettingsInput = z.input<typeof SkillSettings>;

export const SkillRootKind = z.enum(["project", "custom", "user", "bundled"]);
export type SkillRootKind = z.infer<typeof SkillRootKind>;

/** One filesystem root as the skills page shows it (SKL-10). */
export const SkillRootInfo = z.object({
  path: z.string(),
  rank: z.number().int(),
  kind: SkillRootKind,
  /** "project-dsh", "project-agents", "custom", "user-dsh", "user-agents", "bundled". */
  source: z.string(),
  /** Registry layer of the provider that reads it ("global" for the filesystem provider). */
  layer: z.string(),
  exists: z.boolean(),
  /** Existing and writable, or missing but creatable by this user. */
  writable: z.boolean(),
  /** A writable root is prompt authority: whoever can write there can steer the agent. */
  promptAuthority: z.boolean(),
  /** The watcher's state; "off" when watching is disabled or not needed (bundled). */
  watch: z.enum(["ok", "failed", "off"]),
});
export type SkillRootInfo = z.infer<typeof SkillRootInfo>;

export const SkillDiagnostic = z.object({
  path: z.string(),
  reason: z.string(),
  /** "error": the skill was skipped; "warning": it loaded, but something is off. */
  severity: z.enum(["error", "warning"]),
  name: z.string().nullable(),
  root: z.string().nullable(),
});
export type SkillDiagnostic = z.infer<typeof SkillDiagnostic>;

export const SkillShadow = z.object({ layer: z.string(), rank: z.number(), source: z.string(), path: z.string().nullable() });
export type SkillShadow = z.infer<typeof SkillShadow>;

/** Every candidate the registry sees for a workspace, winners and shadowed ones (SKL-10). */
export const SkillCandidateInfo = z.object({
  name: z.string(),
  description: z.string(),
  whenToUse: z.string().nullable(),
  layer: z.string(),
  rank: z.number(),
  source: z.string(),
  provider: z.string(),
  path: z.string().nullable(),
  winner: z.boolean(),
  /** The candidate that wins over this one, when it is shadowed. */
  shadowedBy: SkillShadow.nullable(),
  modelInvocable: z.boolean(),
  userInvocable: z.boolean(),
  license: z.string().nullable(),
  compatibility: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  allowedTools: z.array(z.string()).nullable(),
  /** Frontmatter keys Seam does not interpret, kept for display. */
  extraFields: z.array(z.string()),
  /** The first ~2 KB of the body as loaded now (null when it could not be loaded; see previewError). */
  bodyPreview: z.string().nullable(),
  bodyTruncated: z.boolean(),
  previewError: z.string().nullable(),
});
export type SkillCandidateInfo = z.infer<typeof SkillCandidateInfo>;

export const SkillInspection = z.object({
  workspace: z.string(),
  projectRoot: z.string(),
  /** False when a provider failed or a watcher is down: the page may be missing skills. */
  complete: z.boolean(),
  revision: z.number().int(),
  roots: z.array(SkillRootInfo),
  /** Sorted by name, then precedence (winner first). */
  candidates: z.array(SkillCandidateInfo),
  diagnostics: z.array(SkillDiagnostic),
  /** Plain words for the page: why writable roots matter. */
  promptAuthorityNote: z.string(),
});
export type SkillInspection = z.infer<typeof SkillInspection>;

/** A `/name` completion for the composer (SKL-8). */
export const SkillCompletion = z.object({ name: z.string(), description: z.string() });
export type SkillCompletion = z.infer<typeof SkillCompletion>;

/** Which workspace to look at: a session's, or an absolute folder. */
export const SkillsWhereInput = z.union([
  z.strictObject({ sessionId: z.string().min(1).max(64) }),
  z.strictObject({ workspace: z.string().min(1).max(4096).refine(isAbsoluteLike, "Use an absolute path") }),
]);
export type SkillsWhereInput = z.infer<typeof SkillsWhereInput>;
