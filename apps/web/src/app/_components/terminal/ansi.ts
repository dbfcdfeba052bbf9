import Anser from "anser";
import type { CSSProperties } from "react";

/** One run of terminal text with the style its escape codes gave it. */
export interface AnsiSegment {
  text: string;
  style: CSSProperties | undefined;
}

/**
 * What a terminal would show of `raw`: CRLF as LF, and a line rewritten with `\r` (progress bars) keeps
 * only its last version. Other control characters except tab and ESC are dropped.
 */
export function terminalText(raw: string): string {
  return raw
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => {
      if (!line.includes("\r")) return line;
      // The cursor went back to the line's start: what shows is the last version written.
      const versions = line.split("\r").filter((v) => v !== "");
      return versions[versions.length - 1] ?? "";
    })
    .join("\n")
    // oxlint-disable-next-line no-control-regex -- terminal output is full of control characters; these are the ones to drop
    .replace(/[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f]/g, "");
}

/**
 * Splits terminal output into styled segments (SGR colours and decorations via anser). The text stays
 * text: the segments are rendered as React text nodes, never as HTML.
 */
export function ansiSegments(raw: string): AnsiSegment[] {
  const entries = Anser.ansiToJson(terminalText(raw), { json: true, remove_empty: true, use_classes: false });
  const out: AnsiSegment[] = [];
  for (const e of entries) {
    if (!e.content) continue;
    const style: CSSProperties = {};
    if (e.fg) style.color = `rgb(${e.fg})`;
    if (e.bg) style.backgroundColor = `rgb(${e.bg})`;
    const decorations = new Set([...(e.decorations ?? []), ...(e.decoration ? [e.decoration] : [])]);
    if (decorations.has("bold")) style.fontWeight = 600;
    if (decorations.has("dim")) style.opacity = 0.7;
    if (decorations.has("italic")) style.fontStyle = "italic";
    if (decorations.has("underline")) style.textDecoration = "underline";
    if (decorations.has("strikethrough")) style.textDecoration = "line-through";
    if (decorations.has("hidden")) style.visibility = "hidden";
    const styled = Object.keys(style).length > 0 ? style : undefined;
    const last = out[out.length - 1];
    if (last && !last.style && !styled) last.text += e.content;
    else out.push({ text: e.content, style: styled });
  }
  return out;
}

/** The last `max` lines of `text`, and how many were left out before them. */
export function lastLines(text: string, max: number): { text: string; hidden: number } {
  let at = text.length;
  let count = 0;
  // A trailing newline does not start another line.
  if (text.endsWith("\n")) at--;
  while (count < max) {
    const prev = text.lastIndexOf("\n", at - 1);
    if (prev < 0) return { text, hidden: 0 };
    at = prev;
    count++;
  }
  const hidden = countLines(text.slice(0, at + 1));
  return { text: text.slice(at + 1), hidden };
}

export function countLines(text: string): number {
  if (!text) return 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return text.endsWith("\n") ? n : n + 1;
}
