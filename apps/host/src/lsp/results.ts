/** LSP result shapes → Seam's normalized ones (LSP-1): locations and Markdown hover text. */

export interface LspPosition { line: number; character: number }
export interface LspRange { start: LspPosition; end: LspPosition }
/** A location as the server gave it: 0-based, UTF-16 columns. */
export interface RawLocation { uri: string; range: LspRange }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const isPosition = (v: unknown): v is LspPosition => isObject(v) && Number.isInteger(v.line) && Number.isInteger(v.character);
const isRange = (v: unknown): v is LspRange => isObject(v) && isPosition(v.start) && isPosition(v.end);

/** `Location | Location[] | LocationLink[] | null` → locations; a link points at its target's name. */
export function locationsOf(result: unknown): RawLocation[] {
  const items = Array.isArray(result) ? result : result == null ? [] : [result];
  const out: RawLocation[] = [];
  for (const item of items) {
    if (!isObject(item)) continue;
    if (typeof item.targetUri === "string") {
      const range = isRange(item.targetSelectionRange) ? item.targetSelectionRange : item.targetRange;
      if (isRange(range)) out.push({ uri: item.targetUri, range });
    } else if (typeof item.uri === "string" && isRange(item.range)) {
      out.push({ uri: item.uri, range: item.range });
    }
  }
  return out;
}

/** `Hover.contents` (MarkupContent, MarkedString or MarkedString[]) → Markdown; null when empty. */
export function hoverMarkdown(result: unknown): string | null {
  if (!isObject(result)) return null;
  const parts = (Array.isArray(result.contents) ? result.contents : [result.contents]).map(markedToMarkdown).filter((p) => p.trim() !== "");
  return parts.length > 0 ? parts.join("\n\n---\n\n").trim() : null;
}

function markedToMarkdown(content: unknown): string {
  if (typeof content === "string") return content;
  if (!isObject(content) || typeof content.value !== "string") return "";
  if (typeof content.language === "string") return fence(content.value, content.language);
  // MarkupContent: Markdown as is; plain text fenced so that it is not read as Markdown.
  return content.kind === "plaintext" ? fence(content.value, "") : content.value;
}

function fence(code: string, language: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}${language}\n${code}\n${ticks}`;
}

/** Lines as LSP counts them: split at \n, \r\n and \r. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}
