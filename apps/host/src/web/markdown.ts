import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/**
 * HTML → Markdown (WEB-7) with mdream's Rust engine compiled to WebAssembly: a streaming tokenizer that writes
 * Markdown as it walks the tags, with no DOM, at the same speed on the first page as on the hundredth (no JIT to
 * warm up) and with its working memory outside the JavaScript heap. Portable: no native binary. It loads with the
 * first page converted, not at host start. What Seam does its own way is applied to the HTML first
 * (`markdown-prepass.ts`) and to the Markdown after.
 */
type Engine = typeof import("mdream/wasm/mdream_edge.js");
let engine: Promise<Engine> | undefined;
let prepass: Promise<typeof import("./markdown-prepass.js")> | undefined;
/** Bumped when an instance traps, so the next page gets a fresh one (a trapped instance's memory is suspect). */
let generation = 0;

/**
 * Elements whose text is not page content, dropped with everything inside them. The fetcher already strips scripts,
 * styles, noscript and templates (listed for HTML from elsewhere); `title` leads the page instead.
 */
const DROPPED = ["script", "style", "noscript", "template", "iframe", "object", "embed", "canvas", "svg", "button", "select", "title"];
const OPTIONS = { plugins: { filter: { exclude: DROPPED } } };

/**
 * A link with no text (an icon, an empty anchor) says nothing: dropped. Every target went through the pre-pass, so it
 * has no spaces or parentheses; `![](…)` is an image without alt text and stays.
 */
const EMPTY_LINK = /(?<![!\\])\[\]\([^()\s]*\)/g;

/**
 * The last guard, for a tag the pre-pass could not read (a quoted value past its limit): a link or image target
 * that runs code or inlines data — `(scheme:…)`, `(<scheme:…>)`, either with a `"title"` — goes, its text stays.
 * What is still odd after that (a target across lines) keeps only a harmless fragment in place of the scheme.
 */
const UNSAFE_TARGET =
  /\]\(\s*(?:<\s*(?:javascript|vbscript|data):(?:\\.|[^>\\\n])*>|(?:javascript|vbscript|data):(?:[^()\s]|\([^()\s]*\))*)(?:\s+"(?:\\.|[^"\\\n])*")?\s*\)/gi;
const UNSAFE_SCHEME_LEFT = /(\]\(\s*<?\s*)(?:javascript|vbscript|data):/gi;

/** HTML → Markdown with GFM tables: links and images absolute against `baseUrl`, the page title first. */
export async function htmlToMarkdown(html: string, baseUrl: string): Promise<string> {
  const { preparePage, CHECKBOX_MARK } = await (prepass ??= import("./markdown-prepass.js"));
  const page = preparePage(html, URL.canParse(baseUrl) ? new URL(baseUrl) : undefined);
  const markdown = (await convert(page.html))
    .replace(CHECKBOX_MARK.pattern, "[$1]")
    .replace(UNSAFE_TARGET, "]")
    .replace(UNSAFE_SCHEME_LEFT, "$1#")
    .replace(EMPTY_LINK, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return page.title ? `Title: ${page.title}\n\n${markdown}` : markdown;
}

async function convert(html: string): Promise<string> {
  const current = generation;
  const { htmlToMarkdown: run, __mdreamTakePanicMessage: panicMessage } = await (engine ??= load(current));
  try {
    return run(html, OPTIONS);
  } catch (error) {
    // A trap (a Rust panic or an out-of-bounds access) is a WebAssembly.RuntimeError; anything else is ours.
    if (!(error instanceof Error) || error.name !== "RuntimeError") throw error;
    if (generation === current) {
      generation++;
      engine = undefined;
    }
    let detail: string | undefined;
    try {
      detail = panicMessage();
    } catch {
      // The instance is past answering; the trap itself is the detail.
    }
    throw new Error(`The page could not be converted to Markdown (the converter failed: ${detail ?? error.message}).`, { cause: error });
  }
}

/** One instance of the engine: its glue module (a fresh copy after a trap) with the compiled module bound to it. */
async function load(instance: number): Promise<Engine> {
  const glue = import.meta.resolve("mdream/wasm/mdream_edge.js");
  const module: Engine = await import(instance === 0 ? glue : `${glue}?instance=${instance}`);
  module.initSync({ module: await readFile(fileURLToPath(import.meta.resolve("mdream/wasm/mdream_edge_bg.wasm"))) });
  return module;
}
