import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "../../src/web/markdown.js";

const BASE = "https://site.example/docs/guide/page.html?v=2";
const md = (body: string, head = "") => htmlToMarkdown(`<html><head>${head}</head><body>${body}</body></html>`, BASE);

describe("HTML → Markdown (WEB-7)", () => {
  it("leads with the page title, entities decoded, and shows the title element nowhere else", async () => {
    const out = await md("<h1>Guide</h1><p>Text</p>", "<title>\n  Caf&eacute; &amp; &lt;Guide&gt; &mdash; Docs\n</title><meta name=\"description\" content=\"meta text\">");
    expect(out).toBe("Title: Café & <Guide> — Docs\n\n# Guide\n\nText");
    // An SVG's <title> in the body is not the page title; a page without a title has no Title line.
    expect(await md("<svg><title>icon</title></svg><p>Body</p>")).toBe("Body");
    expect(await htmlToMarkdown("<title>No body tag</title><h2>Heading</h2>", BASE)).toBe("Title: No body tag\n\n## Heading");
  });

  it("resolves relative links and images against the final URL; code and data targets are not links", async () => {
    const out = await md(
      "<p><a href=\"next.html\">sibling</a> <a href=\"../up/\">parent</a> <a href=\"/root\">root</a> <a href=\"?page=3\">query</a> " +
        "<a href=\"#part\">fragment</a> <a href=\"//cdn.example/x\">protocol-relative</a> <a href=\"https://other.example/a b(c)\">spaces and parens</a> " +
        "<a href=\"javascript:alert(1)\">script</a> <a href=\"data:text/html,x\">data</a> <a href=\"/icon\"></a> " +
        "<a href=\"#anchor\" aria-label=\"Permalink: Install\"><svg><path d=\"M0\"/></svg></a><a href=\"/t\" title=\"Tip\">titled</a></p>" +
        "<p><img src=\"img/shot.png\" alt=\"A  [shot]\n of it\"> <img src=\"data:image/png;base64,AAAA\" alt=\"inline\"> <img alt=\"no source\"> <a href=\"/home\"><img src=\"/logo.svg\" alt=\"\"></a></p>",
    );
    expect(out).toContain("[sibling](https://site.example/docs/guide/next.html)");
    expect(out).toContain("[parent](https://site.example/docs/up/)");
    expect(out).toContain("[root](https://site.example/root)");
    expect(out).toContain("[query](https://site.example/docs/guide/page.html?page=3)");
    expect(out).toContain("[fragment](https://site.example/docs/guide/page.html?v=2#part)");
    expect(out).toContain("[protocol-relative](https://cdn.example/x)");
    expect(out).toContain("[spaces and parens](https://other.example/a%20b%28c%29)");
    expect(out).toContain(" script data");
    expect(out).not.toMatch(/javascript:|data:|(?<!!)\[\]\(|Permalink/);
    expect(out).toContain("[titled](https://site.example/t)");
    expect(out).toContain("![A \\[shot\\] of it](https://site.example/docs/guide/img/shot.png)");
    expect(out).not.toContain("inline");
    expect(out).not.toContain("no source");
    expect(out).toContain("[![](https://site.example/logo.svg)](https://site.example/home)");
  });

  it("resolves against the page's <base href> when it names one (the first one, itself relative to the URL)", async () => {
    const out = await md("<p><a href=\"intro\">intro</a> <img src=\"pic.png\" alt=\"pic\"></p>", "<base href=\"/v2/api/\"><base href=\"https://ignored.example/\">");
    expect(out).toBe("[intro](https://site.example/v2/api/intro) ![pic](https://site.example/v2/api/pic.png)");
  });

  it("writes GFM tables, with or without a header row, alignment kept and pipes escaped", async () => {
    const out = await md(
      "<table><thead><tr><th>Name</th><th align=\"right\">Count</th></tr></thead><tbody><tr><td>a | b</td><td>2</td></tr><tr><td><a href=\"/x\">x</a></td><td>10</td></tr></tbody></table>" +
        "<table><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table>",
    );
    expect(out).toContain("| Name | Count |\n| --- | ---: |\n| a \\| b | 2 |\n| [x](https://site.example/x) | 10 |");
    expect(out).toContain("| 1 | 2 |\n| --- | --- |\n| 3 | 4 |");
  });

  it("fences code blocks with their language however the page names it, and keeps their text verbatim", async () => {
    const out = await md(
      "<pre><code class=\"language-ts\">const a: number = 1;\nif (a &lt; 2) {}\n</code></pre>" +
        "<div class=\"highlight highlight-source-python\"><pre>print('hi')</pre></div>" +
        "<pre class=\"lang-go\"><code>fmt.Println()</code></pre>" +
        "<pre data-lang=\"Rust\"><code>fn main() {}</code></pre>" +
        "<pre>  indented\n    text</pre>" +
        "<pre><code class=\"language-md\">```\ninner fence\n```</code></pre>",
    );
    expect(out).toContain("```ts\nconst a: number = 1;\nif (a < 2) {}\n```");
    expect(out).toContain("```python\nprint('hi')\n```");
    expect(out).toContain("```go\nfmt.Println()\n```");
    expect(out).toContain("```rust\nfn main() {}\n```");
    expect(out).toContain("```\n  indented\n    text\n```");
    expect(out).toContain("````md\n```\ninner fence\n```\n````");
  });

  it("writes nested lists, ordered starts, emphasis, quotes, rules and breaks", async () => {
    const out = await md(
      "<ul><li>one<ul><li>nested <b>bold</b><ol><li>deep</li></ol></li></ul></li><li>two</li></ul><ol start=\"3\"><li>three</li><li>four</li></ol>" +
        "<p><em>em</em> <i>it</i> <strong>strong</strong> <del>gone</del> <code>a_b</code> snake_case 2*3</p><blockquote><p>quoted</p></blockquote><hr><p>a<br>b</p>",
    );
    expect(out).toContain("- one\n  - nested **bold**\n    1. deep\n- two\n\n3. three\n4. four");
    expect(out).toContain("*em* *it* **strong** ~~gone~~ `a_b` snake\\_case 2\\*3");
    expect(out).toContain("> quoted\n\n---\n\na  \nb");
  });

  it("keeps task-list checkboxes, and shows captions, sub/superscripts and marks as plain text, never as raw tags", async () => {
    const out = await md(
      "<ul><li><input type=\"checkbox\" checked disabled> done</li><li><input type=\"CHECKBOX\"> open</li></ul><input type=\"text\" value=\"typed\">" +
        "<figure><img src=\"/f.jpg\" alt=\"Flowers\"><figcaption>A <em>flower</em> picture</figcaption></figure><p>H<sub>2</sub>O, x<sup>2</sup>, <mark>marked</mark>, <ins>added</ins></p>",
    );
    expect(out).toContain("- [x] done\n- [ ] open");
    expect(out).not.toContain("typed");
    expect(out).toContain("![Flowers](https://site.example/f.jpg)\n\nA *flower* picture");
    expect(out).toContain("H2O, x2, marked, added");
    expect(out).not.toMatch(/<\/?(?:sub|sup|mark|ins|figcaption)\b/);
  });

  it("drops what is not content, keeps what the page shows, and never leaves raw HTML for definition lists or details", async () => {
    const out = await md(
      "<nav><a href=\"/\">Home</a></nav><main><h2>Main</h2><p>Body</p></main>" +
        "<button>Click me</button><select><option>Pick</option></select><iframe src=\"/frame\">frame text</iframe><svg><text>vector</text></svg>" +
        "<canvas>no canvas</canvas><object data=\"x\">object text</object><embed src=\"e\"><noscript>enable js</noscript><template><p>tpl</p></template>" +
        "<dl><dt>Term</dt><dd>Definition</dd></dl><details><summary>More</summary><p>Hidden detail</p></details><footer>Footer</footer>",
    );
    for (const gone of ["Click me", "Pick", "frame text", "vector", "no canvas", "object text", "enable js", "tpl"]) expect(out).not.toContain(gone);
    expect(out).toContain("[Home](https://site.example/)\n\n## Main\n\nBody");
    expect(out).toContain("Term\n\nDefinition");
    expect(out).toContain("More\n\nHidden detail");
    expect(out).toContain("Footer");
    expect(out).not.toMatch(/<\/?(?:dl|dt|dd|details|summary)\b/);
  });

  it("reads attributes however the page writes them: quoted `>`, entities, upper case, repeated names", async () => {
    const out = await md(
      "<p><A TITLE=\"a > b\" HREF='/q?a=1&amp;b=2'>upper</A> <a href=/bare data-x=\"'\">unquoted</a> <a href=\"/first\" href=\"/second\">repeated</a> " +
        "<a href=\"java&#x73;cript:alert(1)\">encoded script</a> <img alt=\"x &amp; y\" src=\"/i.png?a=1&amp;b=2\"></p>",
    );
    expect(out).toContain("[upper](https://site.example/q?a=1&b=2)");
    expect(out).toContain("[unquoted](https://site.example/bare)");
    expect(out).toContain("[repeated](https://site.example/first)");
    expect(out).toContain(" encoded script ");
    expect(out).toMatch(/!\[x \\?& y\]\(https:\/\/site\.example\/i\.png\?a=1&b=2\)/);
    expect(out).not.toMatch(/javascript|TITLE|a > b/i);
  });

  it("lets no unsafe target through a tag it cannot read, and no page text pass for a checkbox", async () => {
    // A quoted value past the pre-pass's limit: the tag reaches the converter as written, and its target is
    // removed from the Markdown after.
    const long = "y".repeat(9000);
    const unread = await md(`<p><a href="javascript:alert(1)" title="${long}">click</a> <img src="data:image/png;base64,AAAA" alt="${long}"> <a href="vbscript:x" title='${long}'>vb</a></p><p>after</p>`);
    expect(unread).toContain("click");
    expect(unread).toContain("after");
    expect(unread).not.toMatch(/javascript:|data:|vbscript:/i);
    // A quote that never closes swallows the rest, as in a browser; nothing unsafe comes out of it either.
    expect(await md(`<p>before</p><p><a href="javascript:alert(1)>click</a> ${"x".repeat(9000)}</p>`)).not.toMatch(/javascript:/i);
    // The private-use characters that stand for a checkbox are the page's own here, and are dropped.
    expect(await md("<p>\uE000x\uE001 not a box</p>")).toBe("x not a box");
    // Thousands of tags that never close are read in linear time (this would time out if not).
    const many = await md(`<div>${'<a href="/x'.repeat(20_000)}</div><p>end</p>`);
    expect(many).toContain("end");
  });

  it("keeps hidden elements (tab panels, collapsed parts), as a reader can open them", async () => {
    const out = await md(
      "<div role=\"tabpanel\">npm i x</div><div role=\"tabpanel\" hidden>pnpm add x</div><div style=\"color: red; DISPLAY : none\">yarn add x</div>" +
        "<p style=\"visibility:hidden\">bun add x</p><a hidden href=\"/more\">more</a><input type=\"hidden\" value=\"secret\">",
    );
    for (const shown of ["npm i x", "pnpm add x", "yarn add x", "bun add x", "[more](https://site.example/more)"]) expect(out).toContain(shown);
    expect(out).not.toContain("secret");
  });

  it("handles what is not a page: empty input, plain text, broken markup, a base that is not a URL", async () => {
    expect(await htmlToMarkdown("", BASE)).toBe("");
    expect(await htmlToMarkdown("just text & more", BASE)).toBe("just text & more");
    expect(await htmlToMarkdown("<p>unclosed <b>bold <a href=\"/x\">link", BASE)).toBe("unclosed **bold [link](https://site.example/x)**");
    expect(await htmlToMarkdown("<a href=\"/x\">kept as written</a>", "not a url")).toBe("[kept as written](/x)");
  });
});
