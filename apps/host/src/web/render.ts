import type { WebFetchResult, WebSearchResult, WebSource } from "@seam/shared";
import { cutChars } from "./providers/http.js";
import { htmlToMarkdown } from "./markdown.js";

export interface QueryResult { query: string; provider: string; result: WebSearchResult }

/**
 * Merges per-query sources round-robin by rank (rank 1 of every query, then rank 2, …), keeps the
 * first occurrence of each URL, and caps the list (WEB-7). `capped` says whether anything was dropped.
 */
export function mergeSources(results: WebSearchResult[], max: number): { sources: WebSource[]; capped: boolean } {
  const seen = new Set<string>();
  const merged: WebSource[] = [];
  let capped = false;
  const longest = Math.max(0, ...results.map((r) => r.sources.length));
  for (let rank = 0; rank < longest; rank++) {
    for (const r of results) {
      const source = r.sources[rank];
      if (!source) continue;
      const key = urlKey(source.url);
      if (seen.has(key)) continue;
      seen.add(key);
      if (merged.length >= max) {
        capped = true;
        continue;
      }
      merged.push(source);
    }
  }
  return { sources: merged, capped };
}

/** URLs compare by their normalized form (scheme/host case, default port), fragment ignored. */
function urlKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = "";
    return u.href;
  } catch {
    return url;
  }
}

const SNIPPET_MAX = 400;

/** `- [title-or-url](url) — snippet (publishedAt)` */
export function sourceLine(s: WebSource): string {
  const label = (s.title ?? s.url).replace(/\s+/g, " ").replace(/([[\]])/g, "\\$1");
  const target = s.url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  let line = `- [${label}](${target})`;
  if (s.snippet) {
    const flat = s.snippet.replace(/\s+/g, " ").trim();
    line += ` — ${flat.length > SNIPPET_MAX ? `${cutChars(flat, SNIPPET_MAX).trimEnd()}…` : flat}`;
  }
  if (s.publishedAt) line += ` (${s.publishedAt})`;
  return line;
}

/** The text the model sees for web_search (WEB-7). */
export function renderSearch(results: QueryResult[], sources: WebSource[], capped: boolean, max: number): string {
  const several = results.length > 1;
  const parts: string[] = [];
  for (const r of results) {
    const answer = r.result.content?.trim();
    if (!answer) continue;
    parts.push(several ? `### ${r.query}\n${answer}` : answer);
  }
  if (sources.length > 0) {
    parts.push(["Sources:", ...sources.map(sourceLine)].join("\n"));
    if (capped) parts.push(`[Showing the first ${max} sources; more were found. The limit is a deployment setting.]`);
  }
  if (parts.length === 0) return "No results found.";
  return parts.join("\n\n");
}

/** The text the model sees for web_fetch (WEB-7): header, Markdown body, notices, capped at `maxChars`. */
export async function renderFetch(result: WebFetchResult, maxChars: number): Promise<{ text: string; cut: boolean }> {
  const header = `Fetched ${result.url} (HTTP ${result.statusCode})`;
  const body = result.body.kind === "html" ? await htmlToMarkdown(result.body.content, result.url) : result.body.content;
  const notes: string[] = [];
  if (result.truncated) notes.push("[The page is longer than the fetch limit; only its beginning was read.]");
  const shown = body.trim() === "" ? "(empty body)" : body;
  const full = `${header}\n\n${shown}`;
  const tail = notes.length ? `\n\n${notes.join("\n")}` : "";
  if (full.length + tail.length <= maxChars) return { text: full + tail, cut: false };
  const note = `\n\n[Output cut at ${maxChars.toLocaleString("en-US")} characters; the rest of the page is not shown.]`;
  const room = Math.max(header.length, maxChars - note.length - tail.length);
  return { text: `${cutChars(full, room)}${tail}${note}`, cut: true };
}
