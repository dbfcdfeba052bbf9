import { z } from "zod";

/**
 * One validation problem as Seam shows it: `path` is dotted (`servers.0.command`, "" for the value
 * itself) and `message` is zod's text. The host sends these in a tRPC error's `data.issues`.
 */
export const FieldIssue = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof FieldIssue>;

/** What the formatter needs of a ZodError (or of anything carrying zod issues). */
export interface HasIssues { readonly issues: readonly z.core.$ZodIssue[] }

export interface IssueLimits {
  /** Issues kept; the rest are counted in a last "… N more" entry. Default 10. */
  maxIssues?: number;
  /** Characters kept of each path and each message (an ellipsis marks a cut). Default 300. */
  maxChars?: number;
}

export interface FormatOptions extends IssueLimits {
  /** Prefix for an issue about the value itself ("(arguments)", "settings"); none by default. */
  root?: string;
  /** Between issues. Default "; ". */
  separator?: string;
  /** `false` for schemas whose messages name their field already ("description is required"). Default true. */
  paths?: boolean;
}

const MAX_ISSUES = 10;
const MAX_CHARS = 300;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text);
const pathText = (path: readonly PropertyKey[]) => path.map((p) => (typeof p === "symbol" ? (p.description ?? "symbol") : String(p))).join(".");

/**
 * The branch of a failed union to report: one that accepted the value's shape (all its issues lie
 * inside the value), with the fewest issues. `null` when every branch refused the value itself; the
 * union's own message (perhaps a custom one) is reported then.
 */
function closestBranch(branches: readonly (readonly z.core.$ZodIssue[])[]): readonly z.core.$ZodIssue[] | null {
  let best: readonly z.core.$ZodIssue[] | null = null;
  for (const branch of branches) {
    const inside = branch.length > 0 && branch.every((i) => i.path.length > 0);
    if (inside && (best === null || branch.length < best.length)) best = branch;
  }
  return best;
}

function collect(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[], out: { path: readonly PropertyKey[]; message: string }[]): void {
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    const branch = issue.code === "invalid_union" ? closestBranch(issue.errors) : null;
    if (branch) collect(branch, path, out);
    else out.push({ path, message: issue.message });
  }
}

/**
 * Zod issues as `{path, message}` pairs: a failed union reports the branch that came closest, and the
 * list is bounded (at most `maxIssues` entries plus one that counts the rest; each text cut to `maxChars`).
 */
export function issuesOf(error: HasIssues, limits: IssueLimits = {}): FieldIssue[] {
  const maxIssues = Math.max(1, limits.maxIssues ?? MAX_ISSUES);
  const maxChars = Math.max(8, limits.maxChars ?? MAX_CHARS);
  const all: { path: readonly PropertyKey[]; message: string }[] = [];
  collect(error.issues, [], all);
  const kept = all.slice(0, maxIssues).map((i) => ({ path: cut(pathText(i.path), maxChars), message: cut(i.message, maxChars) }));
  if (all.length > maxIssues) kept.push({ path: "", message: `… ${all.length - maxIssues} more` });
  return kept;
}

/** One line for people and models: `path: message` joined by "; " (see FormatOptions). */
export function formatIssues(error: HasIssues | readonly FieldIssue[], opts: FormatOptions = {}): string {
  const issues = "issues" in error ? issuesOf(error, opts) : error;
  return issues
    .map((i) => {
      const path = opts.paths === false ? "" : i.path || (i.message.startsWith("…") ? "" : (opts.root ?? ""));
      return path ? `${path}: ${i.message}` : i.message;
    })
    .join(opts.separator ?? "; ");
}
