import { createRequire } from "node:module";
import type TurndownService from "turndown";

// turndown and its gfm plugin (~0.1 s, ~15 MB) load with the first page converted, not at host start.
const load = createRequire(import.meta.url);

/** One converter per process: turndown keeps no per-document state between calls. */
let converter: TurndownService | undefined;
let baseForLinks: URL | undefined;

const REMOVED = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "IFRAME", "OBJECT", "EMBED", "CANVAS", "SVG", "svg", "BUTTON", "SELECT"]);

function build(): TurndownService {
  const Turndown = load("turndown") as typeof TurndownService;
  const { gfm } = load("@joplin/turndown-plugin-gfm") as typeof import("@joplin/turndown-plugin-gfm");
  const t = new Turndown({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "_" });
  t.use(gfm);
  t.remove((node) => REMOVED.has(node.nodeName));
  // Links and images resolve against the page's final URL so the model can fetch them as they stand.
  t.addRule("absoluteLinks", {
    filter: (node) => node.nodeName === "A" && !!node.getAttribute("href"),
    replacement: (content, node) => {
      const href = absolute(node.getAttribute("href") ?? "");
      const text = content.trim();
      if (!href || href.startsWith("javascript:")) return text;
      return text ? `[${text}](${href})` : "";
    },
  });
  t.addRule("absoluteImages", {
    filter: "img",
    replacement: (_content, node) => {
      const src = absolute(node.getAttribute("src") ?? "");
      if (!src || src.startsWith("data:")) return "";
      const alt = (node.getAttribute("alt") ?? "").replace(/[[\]\n]+/g, " ").trim();
      return `![${alt}](${src})`;
    },
  });
  return t;
}

function absolute(href: string): string {
  try {
    return new URL(href.trim(), baseForLinks).href.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  } catch {
    return href.trim();
  }
}

/** HTML → Markdown with GFM tables (WEB-7). Head elements are dropped; the page title leads. */
export function htmlToMarkdown(html: string, baseUrl: string): string {
  converter ??= build();
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const title = titleMatch ? decodeEntities(titleMatch[1]!).replace(/\s+/g, " ").trim() : "";
  const bodyAt = html.search(/<body\b/i);
  const body = bodyAt >= 0 ? html.slice(bodyAt) : html.replace(/<head\b[\s\S]*?<\/head\s*>/i, "");
  baseForLinks = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  let markdown: string;
  try {
    markdown = converter.turndown(body);
  } finally {
    baseForLinks = undefined;
  }
  markdown = markdown.replace(/\n{3,}/g, "\n\n").trim();
  return title ? `Title: ${title}\n\n${markdown}` : markdown;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}
