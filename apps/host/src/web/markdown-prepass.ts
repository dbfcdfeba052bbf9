import { decodeHTML, decodeHTMLAttribute, escapeAttribute } from "entities";

/**
 * Seam's own treatment of a page, applied to its HTML before mdream converts it (WEB-7). mdream's compiled engine
 * takes no hooks, so the few tags Seam reads or changes are rewritten here, in one left-to-right pass of a regular
 * expression that matches only those tags; everything else reaches mdream as it was.
 *
 * - `<a>`: the target made absolute against the page (or its first `<base href>`), with spaces and parentheses
 *   escaped; a `javascript:`/`vbscript:`/`data:` target removed (the link becomes its text); no title or
 *   aria-label, so a link without text stays empty and is dropped after conversion.
 * - `<img>`: dropped without a usable source, else its source made absolute and its alt text on one line.
 * - `<pre>` and its `<code>`: the code's language as `language-x`, however the page names it.
 * - task-list checkboxes: a marker that becomes `[x] ` / `[ ] ` after conversion ({@link CHECKBOX_MARK}).
 * - definition lists, `<details>`, addresses, figure captions: plain blocks; sub/superscripts, marks, insertions:
 *   plain text (mdream would keep them as raw tags, which the chat shows as such).
 * - the first `<title>` outside the body and any SVG: taken as the page title.
 * - hidden elements (`hidden`, `display: none`, `visibility: hidden`): shown, as a reader can open them (tab panels,
 *   collapsed sections); mdream's element filter would drop them.
 */
export interface PreparedPage {
  html: string;
  title: string;
}

/** Blocks and inline elements mdream keeps as raw HTML, and what they are read as instead. */
const AS_PLAIN: Record<string, string> = {
  dl: "div", dt: "p", dd: "p", details: "div", summary: "p", address: "p", figcaption: "p",
  sub: "span", sup: "span", ins: "span", mark: "span",
};

/**
 * A start or end tag of one of the names the pass handles. Attributes: unquoted runs and quoted values (a quoted
 * value may hold `>`), unrolled so that a tag which never closes fails in linear time; a quoted value longer than
 * 8 KiB is not followed (the tag is then left as written — nothing unsafe survives it, see `markdown.ts`).
 */
const TAG =
  /<(\/?)(a|img|base|pre|code|input|title|body|svg|dl|dt|dd|details|summary|address|figcaption|sub|sup|ins|mark)(?=[\s/>])([^>"']*(?:(?:"[^"]{0,8192}"|'[^']{0,8192}')[^>"']*)*)>/gi;

/**
 * Any start tag whose attributes may hide it (a cheap look-ahead first, so only those reach the callback), read
 * like {@link TAG}.
 */
const MAYBE_HIDDEN =
  /<([a-z][\w:-]*)(?=[^<>]*?(?:\bhidden\b|display\s*:\s*none))([^>"']*(?:(?:"[^"]{0,8192}"|'[^']{0,8192}')[^>"']*)*)>/gi;

/** One attribute: its name, then an optional double-quoted, single-quoted or unquoted value. */
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

const TITLE_END = /<\/title/gi;

/** The opening tag right before a `<pre>` (its parent, when nothing but space lies between them). */
const PARENT_TAG = /<[a-z][\w-]*\b([^<>]*)>\s*$/i;

/** Link targets that run code or inline data rather than name a page. */
const UNSAFE_SCHEME = /^\s*(?:javascript|vbscript|data):/i;

/** `lang-x` or `language-x` on a code block; GitHub's `highlight-source-x` on its wrapper. */
const LANGUAGE_CLASS = /(?:^|\s)lang(?:uage)?-([\w+#.-]+)/i;
const WRAPPER_LANGUAGE_CLASS = /(?:^|\s)highlight-(?:source|text)-([\w+#.-]+)/i;

/**
 * Private-use characters around `x` or a space stand for a checkbox until the Markdown is written (mdream would
 * escape a literal `[x]`). The page's own private-use characters of these two code points are removed first.
 */
export const CHECKBOX_MARK = { open: "\uE000", close: "\uE001", pattern: /\uE000([x ])\uE001/g, strip: /[\uE000\uE001]/g };

export function preparePage(html: string, pageUrl: URL | undefined): PreparedPage {
  let base = pageUrl;
  let baseSeen = false;
  let title: string | undefined;
  let inBody = false;
  let svgDepth = 0;
  let pre: { language: string | undefined } | null = null;

  const rewritten = html.replace(CHECKBOX_MARK.strip, "").replace(MAYBE_HIDDEN, unhide).replace(TAG, (tag: string, slash: string, tagName: string, rawAttributes: string, offset: number, source: string) => {
    const name = tagName.toLowerCase();
    const plain = AS_PLAIN[name];
    if (slash) {
      if (name === "pre") pre = null;
      else if (name === "svg") svgDepth = Math.max(0, svgDepth - 1);
      return plain ? `</${plain}>` : tag;
    }
    if (plain) return `<${plain}>`;
    switch (name) {
      case "a": {
        const href = attributes(rawAttributes).get("href");
        if (href === undefined || UNSAFE_SCHEME.test(href)) return "<a>";
        return `<a href="${escapeAttribute(absolute(href, base))}">`;
      }
      case "img": {
        const attrs = attributes(rawAttributes);
        const src = attrs.get("src");
        if (!src?.trim() || UNSAFE_SCHEME.test(src)) return "";
        const alt = attrs.get("alt")?.replace(/\s+/g, " ").trim();
        return `<img src="${escapeAttribute(absolute(src, base))}"${alt ? ` alt="${escapeAttribute(alt)}"` : ""}>`;
      }
      case "base": {
        // As in a browser, the first <base href> counts, itself relative to the page's URL.
        const href = attributes(rawAttributes).get("href")?.trim();
        if (!baseSeen && href !== undefined) {
          baseSeen = true;
          if (URL.canParse(href, pageUrl?.href)) base = new URL(href, pageUrl);
        }
        return "";
      }
      case "pre": {
        const attrs = attributes(rawAttributes);
        const language = languageOf(attrs) ?? WRAPPER_LANGUAGE_CLASS.exec(parentClass(source, offset))?.[1];
        pre = { language: language && validLanguage(language) };
        return pre.language ? `<pre class="language-${pre.language}">` : "<pre>";
      }
      case "code": {
        if (!pre) return tag;
        const language = validLanguage(languageOf(attributes(rawAttributes)) ?? pre.language);
        return language ? `<code class="language-${language}">` : "<code>";
      }
      case "input": {
        const attrs = attributes(rawAttributes);
        if (attrs.get("type")?.trim().toLowerCase() !== "checkbox") return tag;
        return `${CHECKBOX_MARK.open}${attrs.has("checked") ? "x" : " "}${CHECKBOX_MARK.close} `;
      }
      case "title": {
        if (title === undefined && !inBody && svgDepth === 0) {
          TITLE_END.lastIndex = offset + tag.length;
          const end = TITLE_END.exec(source)?.index ?? source.length;
          title = decodeHTML(source.slice(offset + tag.length, end)).replace(/\s+/g, " ").trim();
        }
        return tag;
      }
      case "body":
        inBody = true;
        return tag;
      case "svg":
        if (!/\/\s*$/.test(rawAttributes)) svgDepth++;
        return tag;
      default:
        return tag;
    }
  });
  return { html: rewritten, title: title ?? "" };
}

/** The tag without `hidden` and without the inline style that could hide it (mdream reads no other style). */
function unhide(tag: string, name: string, raw: string): string {
  const attrs = attributes(raw);
  if (!attrs.has("hidden") && !attrs.has("style")) return tag;
  attrs.delete("hidden");
  attrs.delete("style");
  let out = `<${name}`;
  for (const [key, value] of attrs) out += value === "" ? ` ${key}` : ` ${key}="${escapeAttribute(value)}"`;
  return `${out}${/\/\s*$/.test(raw) ? " /" : ""}>`;
}

/** A tag's attributes by lower-case name, values decoded; the first of a repeated name counts. */
function attributes(raw: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of raw.matchAll(ATTRIBUTE)) {
    const name = m[1]!.toLowerCase();
    if (!found.has(name)) found.set(name, decodeHTMLAttribute(m[2] ?? m[3] ?? m[4] ?? ""));
  }
  return found;
}

function languageOf(attrs: Map<string, string>): string | undefined {
  return LANGUAGE_CLASS.exec(attrs.get("class") ?? "")?.[1] ?? (attrs.get("data-lang") || attrs.get("data-language") || undefined);
}

function validLanguage(language: string | undefined): string | undefined {
  return language && /^[\w+#.-]+$/.test(language) ? language.toLowerCase() : undefined;
}

/** The class of the element a `<pre>` at `offset` sits directly in (GitHub wraps highlighted code in a div). */
function parentClass(source: string, offset: number): string {
  const before = PARENT_TAG.exec(source.slice(Math.max(0, offset - 1024), offset));
  return before ? (attributes(before[1]!).get("class") ?? "") : "";
}

/** Absolute against the page's final URL, with parentheses and spaces escaped so the Markdown link holds. */
function absolute(href: string, base: URL | undefined): string {
  const trimmed = href.trim();
  try {
    return new URL(trimmed, base).href.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  } catch {
    return trimmed;
  }
}
