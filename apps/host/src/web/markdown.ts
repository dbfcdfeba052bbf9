import type { ElementNode, MdreamOptions, TextNode, TransformPlugin } from "@mdream/js";

/**
 * HTML → Markdown (WEB-7) with mdream's JavaScript engine: a streaming tokenizer that writes Markdown as it
 * walks the tags, with no DOM. It loads with the first page converted, not at host start.
 */
let engine: Promise<typeof import("@mdream/js")> | undefined;

/**
 * Elements whose text is not page content, dropped with everything inside them. The fetcher already strips scripts,
 * styles, noscript and templates (listed for HTML from elsewhere); `title` leads the page instead.
 */
const DROPPED = new Set(["script", "style", "noscript", "template", "iframe", "object", "embed", "canvas", "svg", "button", "select", "title"]);

/**
 * Tags mdream keeps as raw HTML (definition lists, disclosure widgets, addresses, sub/superscript, marks), which
 * the chat would show as literal tags: plain blocks and plain text instead, as the page reads. A figure caption
 * is a plain paragraph (mdream wraps it in `*…*`, which breaks on emphasis inside it).
 */
const AS_PLAIN = {
  dl: "div", dt: "p", dd: "p", details: "div", summary: "p", address: "p", figcaption: "p",
  sub: "span", sup: "span", ins: "span", mark: "span",
};

/** Link targets that run code or inline data rather than name a page: shown as their text alone. */
const UNSAFE_SCHEME = /^\s*(?:javascript|vbscript|data):/i;

/**
 * A link with no text (an icon, an empty anchor) says nothing: dropped. Every target went through `absolute()`,
 * so it has no spaces or parentheses; `![](…)` is an image without alt text and stays.
 */
const EMPTY_LINK = /(?<![!\\])\[\]\([^()\s]*\)/g;

/** `lang-x` on a code block (`language-x` mdream reads itself); GitHub's `highlight-source-x` on its wrapper. */
const LANGUAGE_CLASS = /(?:^|\s)lang(?:uage)?-([\w+#.-]+)/i;
const WRAPPER_LANGUAGE_CLASS = /(?:^|\s)highlight-(?:source|text)-([\w+#.-]+)/i;

/** HTML → Markdown with GFM tables: links and images absolute against `baseUrl`, the page title first. */
export async function htmlToMarkdown(html: string, baseUrl: string): Promise<string> {
  const { htmlToMarkdown: convert } = await (engine ??= import("@mdream/js"));
  const page = pageHooks(URL.canParse(baseUrl) ? new URL(baseUrl) : undefined);
  const options: MdreamOptions = {
    plugins: { tagOverrides: AS_PLAIN },
    hooks: [page.plugin],
  };
  const markdown = convert(html, options).replace(EMPTY_LINK, "").replace(/\n{3,}/g, "\n\n").trim();
  return page.title() ? `Title: ${page.title()}\n\n${markdown}` : markdown;
}

/**
 * One plugin for everything Seam adds: links and images resolved against the final URL (or the page's
 * `<base href>`), noise elements and
 * unusable images dropped, code blocks given their language, the title taken. An element marked
 * `excludedFromMarkdown` renders nothing, and mdream passes the mark on to everything inside it.
 */
function pageHooks(pageUrl: URL | undefined): { plugin: TransformPlugin; title: () => string } {
  let title: string | undefined;
  let base = pageUrl;
  let baseSeen = false;
  const plugin: TransformPlugin = {
    // mdream flattens elements nested past its depth limit; a dropped one stays dropped there too.
    excludesOverflowSubtree: (node) => DROPPED.has(node.name),
    processAttributes(node) {
      const name = node.name;
      const attrs = node.attributes;
      if (name === "a") {
        if (attrs.href === undefined) return;
        if (UNSAFE_SCHEME.test(attrs.href)) delete attrs.href;
        else attrs.href = absolute(attrs.href, base);
        // mdream names a link with no text after its title or aria-label ("Permalink: Install" on every GitHub
        // heading); a link that shows nothing is dropped instead, and link titles are not written.
        delete attrs.title;
        delete attrs["aria-label"];
      } else if (name === "img") {
        // An image with no address (or an inline data one) says nothing the model can use.
        if (!usableSrc(attrs.src)) node.excludedFromMarkdown = true;
        else {
          attrs.src = absolute(attrs.src, base);
          if (attrs.alt) attrs.alt = attrs.alt.replace(/\s+/g, " ").trim();
        }
      } else if (name === "pre" || (name === "code" && node.parent?.name === "pre")) {
        giveLanguage(node);
      } else if (name === "base" && !baseSeen && attrs.href !== undefined) {
        // A page may name another base for its relative links (<base href>); as in a browser, the first one counts.
        baseSeen = true;
        if (URL.canParse(attrs.href.trim(), pageUrl?.href)) base = new URL(attrs.href.trim(), pageUrl);
      } else if (DROPPED.has(name)) {
        node.excludedFromMarkdown = true;
      }
    },
    // GFM task lists: a checkbox (mdream drops inputs) shows as `[x]` / `[ ]`.
    onNodeEnter(node) {
      if (node.name === "input" && node.attributes.type?.toLowerCase() === "checkbox") return node.attributes.checked === undefined ? "[ ] " : "[x] ";
      return undefined;
    },
    beforeNodeProcess({ node }) {
      // The first <title> outside the body leads the page (the element itself is dropped).
      if (node.type === 2 && title === undefined && node.parent?.name === "title" && !insideBody(node.parent)) {
        title = (node as TextNode).value.replace(/\s+/g, " ").trim();
      }
      return undefined;
    },
  };
  return { plugin, title: () => title ?? "" };
}

function usableSrc(src: string | undefined): src is string {
  return !!src?.trim() && !UNSAFE_SCHEME.test(src);
}

function insideBody(node: ElementNode): boolean {
  for (let at: ElementNode | null | undefined = node; at; at = at.parent) if (at.name === "body" || at.name === "svg") return true;
  return false;
}

/**
 * mdream reads a code block's language from a `language-x` class on `<pre>` or its `<code>` (the code's wins).
 * Pages name it other ways too: `lang-x`, `data-lang`, GitHub's `highlight-source-x` on a wrapper.
 */
function giveLanguage(node: ElementNode): void {
  const own = node.attributes.class ?? "";
  if (/(?:^|\s)language-/.test(own)) return;
  const pre = node.name === "pre" ? node : node.parent;
  const language =
    [node, pre].map((at) => at && (LANGUAGE_CLASS.exec(at.attributes.class ?? "")?.[1] ?? at.attributes["data-lang"] ?? at.attributes["data-language"])).find(Boolean) ??
    WRAPPER_LANGUAGE_CLASS.exec(pre?.parent?.attributes.class ?? "")?.[1];
  // An element without attributes shares a frozen empty object: replace it, never write into it.
  if (language && /^[\w+#.-]+$/.test(language)) node.attributes = { ...node.attributes, class: `language-${language.toLowerCase()} ${own}`.trim() };
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

