import { closeSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { fileURLToPath } from "node:url";
import type { LspOperation } from "@seam/shared";
import { displayPath, isInside } from "../workspace/contain.js";
import type { QueryResult } from "./pool.js";
import { splitLines, type RawLocation } from "./results.js";

/** One location as the tool reports it: 1-based lines, 1-based UTF-16 columns. */
export interface LspLocationView {
  /** Workspace-relative with "/" separators; absolute when outside the workspace. */
  path: string;
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  /**
   * The start line's text with its indentation kept (so `character` indexes into it), trailing space
   * removed, cut after 400 UTF-16 units; "" when it could not be read. The rendered text trims it further.
   */
  excerpt: string;
}

/** The tool's canonical result (LSP-3). */
export interface LspToolResult {
  operation: LspOperation;
  locations: LspLocationView[];
  hover?: { markdown: string };
  truncated: boolean;
  /** Present (true) when the server may still have been indexing, so the answer may be incomplete (LSP-8). */
  mayBeIncomplete?: true;
}

export interface RenderLimits {
  /** Locations kept (default 100). */
  maxLocations: number;
  /** Characters of rendered text (default 20,000). */
  maxChars: number;
}

export const DEFAULT_RENDER_LIMITS: RenderLimits = { maxLocations: 100, maxChars: 20_000 };
/** Excerpt length in the rendered text, and in the canonical result. */
const EXCERPT_CHARS = 160;
const CANONICAL_EXCERPT_CHARS = 400;
/** Bytes scanned to find an excerpt line in another file. */
const EXCERPT_SCAN_BYTES = 4 * 1024 * 1024;
const SYNC_SCAN_BYTES = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

const NOUN: Record<LspOperation, string> = {
  goToDefinition: "definition",
  findReferences: "reference",
  goToImplementation: "implementation",
  hover: "hover information",
};

interface Placed { abs: string | null; uri: string; inside: boolean; loc: RawLocation }

/** Normalized query result → canonical + rendered text, with excerpts read one line each. */
export async function renderQuery(r: QueryResult, query: { filePath: string; line: number; character: number }, limits: RenderLimits = DEFAULT_RENDER_LIMITS) {
  const out = await renderComplete(r, query, limits);
  if (!r.mayBeIncomplete) return out;
  return { canonical: { ...out.canonical, mayBeIncomplete: true } satisfies LspToolResult, rendered: `${out.rendered}\n${INCOMPLETE_NOTE}` };
}

const INCOMPLETE_NOTE = "[This answer may be incomplete: the language server was still indexing the workspace (it had just started, or reported work in progress). Ask again in a few seconds if it matters.]";

async function renderComplete(r: QueryResult, query: { filePath: string; line: number; character: number }, limits: RenderLimits) {
  const at = `${displayPath(r.root, r.file)}:${query.line}:${query.character}`;
  if (r.operation === "hover") {
    const result: LspToolResult = { operation: "hover", locations: [], truncated: false };
    if (r.hover === null) return { canonical: result, rendered: `hover ${at}: the language server has no hover information at this position.${POSITION_TIP}` };
    const cut = cutText(r.hover, limits.maxChars - at.length - 200);
    result.hover = { markdown: cut.text };
    result.truncated = cut.cut;
    const note = cut.cut ? `\n\n[hover text cut at ${cut.text.length} of ${r.hover.length} characters]` : "";
    return { canonical: result, rendered: `hover ${at}:\n${cut.text}${note}` };
  }

  const placed = dedupe(r.locations.map((loc) => place(r.root, loc))).sort(byPlace);
  const total = placed.length;
  const kept = placed.slice(0, Math.max(0, limits.maxLocations));
  const excerpts = await readExcerpts(kept, r);
  const header = total === 0
    ? `${r.operation} ${at}: no ${NOUN[r.operation]} found (the language server returned nothing at this position).${POSITION_TIP}`
    : `${r.operation} ${at} → ${total} ${NOUN[r.operation]}${total === 1 ? "" : "s"}${kept.length < total ? `, showing the first ${kept.length}` : ""}:`;
  const lines = [header];
  const locations: LspLocationView[] = [];
  let used = header.length;
  for (let i = 0; i < kept.length; i++) {
    const view = viewOf(r.root, kept[i]!, excerpts[i] ?? "");
    const line = `${view.path}:${view.line}:${view.character}: ${cutText(view.excerpt.trim(), EXCERPT_CHARS).text}`.trimEnd();
    if (used + line.length + 1 > limits.maxChars - 200) break;
    used += line.length + 1;
    lines.push(line);
    locations.push(view);
  }
  const truncated = locations.length < total;
  if (truncated) {
    lines.push(`[${total - locations.length} more ${NOUN[r.operation]}${total - locations.length === 1 ? "" : "s"} not shown (limit ${locations.length < kept.length ? `${limits.maxChars} characters` : `${limits.maxLocations} locations`}). Narrow the question, or grep for the name.]`);
  }
  return { canonical: { operation: r.operation, locations, truncated } satisfies LspToolResult, rendered: lines.join("\n") };
}

const POSITION_TIP = " Check that line and character point at the symbol itself (both 1-based; character counts UTF-16 code units, so an emoji counts 2).";

function place(root: string, loc: RawLocation): Placed {
  let abs: string | null = null;
  if (loc.uri.startsWith("file:")) {
    try {
      abs = fileURLToPath(loc.uri);
    } catch {
      abs = null;
    }
  }
  return { abs, uri: loc.uri, inside: abs !== null && isInside(root, abs), loc };
}

function dedupe(list: Placed[]): Placed[] {
  const seen = new Set<string>();
  return list.filter((p) => {
    const { start, end } = p.loc.range;
    const key = `${p.uri}#${start.line}:${start.character}-${end.line}:${end.character}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Workspace files first, then by path and position. */
function byPlace(a: Placed, b: Placed): number {
  if (a.inside !== b.inside) return a.inside ? -1 : 1;
  const pa = a.abs ?? a.uri;
  const pb = b.abs ?? b.uri;
  if (pa !== pb) return pa < pb ? -1 : 1;
  return a.loc.range.start.line - b.loc.range.start.line || a.loc.range.start.character - b.loc.range.start.character;
}

function viewOf(root: string, p: Placed, excerpt: string): LspLocationView {
  const { start, end } = p.loc.range;
  const path = p.abs === null ? p.uri : p.inside ? displayPath(root, p.abs) : p.abs;
  return { path, line: start.line + 1, character: start.character + 1, endLine: end.line + 1, endCharacter: end.character + 1, excerpt };
}

/** Each location's start line: from the queried text for the queried file, else one bounded read per file. */
async function readExcerpts(list: Placed[], r: QueryResult): Promise<string[]> {
  const wanted = new Map<string, Set<number>>();
  for (const p of list) {
    if (p.abs === null || !isAbsolute(p.abs)) continue;
    let lines = wanted.get(p.abs);
    if (!lines) wanted.set(p.abs, (lines = new Set()));
    lines.add(p.loc.range.start.line);
  }
  const texts = new Map<string, Map<number, string>>();
  await Promise.all([...wanted].map(async ([abs, lines]) => {
    texts.set(abs, abs === r.file ? pick(splitLines(r.source), lines) : await readLines(abs, lines));
  }));
  return list.map((p) => excerptOf(p.abs === null ? undefined : texts.get(p.abs)?.get(p.loc.range.start.line)));
}

function pick(all: string[], lines: Set<number>): Map<number, string> {
  return new Map([...lines].flatMap((n) => (all[n] === undefined ? [] : [[n, all[n]!] as [number, string]])));
}

/**
 * Reads only as far as the last wanted (0-based) line, within EXCERPT_SCAN_BYTES; unreadable files give
 * nothing. The first SYNC_SCAN_BYTES are read synchronously (cheaper than thread-pool round trips).
 */
async function readLines(abs: string, lines: Set<number>): Promise<Map<number, string>> {
  const last = Math.max(...lines);
  let fd: number;
  try {
    fd = openSync(abs, "r");
  } catch {
    return new Map();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let breaks = 0;
  const take = (part: Buffer) => {
    breaks += countBreaks(part);
    chunks.push(part);
    size += part.length;
  };
  try {
    while (size < SYNC_SCAN_BYTES && breaks <= last) {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      const n = readSync(fd, chunk, 0, chunk.length, size);
      if (n === 0) return pick(splitLines(Buffer.concat(chunks).toString("utf8")), lines);
      take(chunk.subarray(0, n));
      if (n < chunk.length) return pick(splitLines(Buffer.concat(chunks).toString("utf8")), lines);
    }
    const handle = await open(abs, "r");
    try {
      while (size < EXCERPT_SCAN_BYTES && breaks <= last) {
        const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, size);
        if (bytesRead === 0) break;
        take(chunk.subarray(0, bytesRead));
      }
    } finally {
      await handle.close();
    }
    return pick(splitLines(Buffer.concat(chunks).toString("utf8")), lines);
  } catch {
    return new Map();
  } finally {
    closeSync(fd);
  }
}

/** Line breaks in a chunk (\r\n counts twice: an over-estimate only reads a little further). */
function countBreaks(part: Buffer): number {
  let n = 0;
  for (let i = part.indexOf(0x0a); i !== -1; i = part.indexOf(0x0a, i + 1)) n++;
  for (let i = part.indexOf(0x0d); i !== -1; i = part.indexOf(0x0d, i + 1)) n++;
  return n;
}

function excerptOf(line: string | undefined): string {
  if (line === undefined) return "";
  return cutText(line.trimEnd(), CANONICAL_EXCERPT_CHARS).text;
}

/** The first `max` UTF-16 units, never splitting a surrogate pair. */
function cutText(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return { text: `${text.slice(0, end)}…`, cut: true };
}
