import { formatIssues, formatSize, importSizeError, MCP_IMPORT_MAX_BYTES, type McpImportEntry, type McpImportPreview } from "@seam/shared";
import { hostIssuesOf } from "@/lib/host-error";

/*
 * Import errors as sentences (MCP-10): the size with the limit, invalid JSON with its line and column
 * (the host's message), and per server one `mcpServers.foo.command: …` line per issue, at most a few
 * and then "and K more". Never raw validation JSON.
 */

/** Issues listed per server before "and K more". */
export const ENTRY_ISSUES_SHOWN = 5;

/** The pasted text is over the limit: the sentence to show (before anything is sent), else null. */
export const pasteSizeError = (text: string): string | null => importSizeError(text);

/** A chosen file over the limit, by its size on disk (before it is read). */
export const fileSizeError = (file: { name: string; size: number }): string | null =>
  file.size > MCP_IMPORT_MAX_BYTES ? `${file.name} is ${formatSize(file.size)}; Seam imports at most ${formatSize(MCP_IMPORT_MAX_BYTES)} at a time.` : null;

const MORE = /^… (\d+) more$/;

/** One line per issue of an invalid entry, its path from the document's root; at most `max`, then "and K more". */
export function entryIssueLines(entry: Pick<McpImportEntry, "name" | "errors">, format: McpImportPreview["format"], max = ENTRY_ISSUES_SHOWN): string[] {
  const root = format === "bare" ? entry.name : `${format}.${entry.name}`;
  let hidden = 0;
  const lines: string[] = [];
  for (const issue of entry.errors) {
    const more = MORE.exec(issue.message);
    if (more && !issue.path) {
      hidden += Number(more[1]);
      continue;
    }
    lines.push(`${issue.path ? `${root}.${issue.path}` : root}: ${issue.message}`);
  }
  hidden += Math.max(0, lines.length - max);
  const shown = lines.slice(0, max);
  if (hidden > 0) shown.push(`and ${hidden} more`);
  return shown;
}

const looksLikeJson = (text: string) => /^\s*[[{]/.test(text);

/** A refused preview or apply, as a sentence: the host's message, or its issues when the message is not one. */
export function importErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!looksLikeJson(message)) return message;
  const issues = hostIssuesOf(error);
  return issues.length ? `The config was refused: ${formatIssues(issues)}.` : "The config was refused. Check that it is a {\"mcpServers\": {…}} document.";
}
