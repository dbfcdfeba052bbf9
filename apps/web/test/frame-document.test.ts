import { describe, expect, it } from "vitest";
import { buildFrameDocument as build, FRAME_CSP, scriptStringLiteral } from "@/app/_components/extensions/frame-document";

const NONCE = "0123456789abcdef0123456789abcdef";
const buildFrameDocument = (code: string) => build(code, NONCE);

const cspOf = (html: string) => /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? null;
/** The text of every <script> element, as an HTML parser would split them. */
const scripts = (html: string) => [...html.matchAll(/<script>([\s\S]*?)<\/script>/gi)].map((m) => m[1] ?? "");

describe("buildFrameDocument", () => {
  it("declares a CSP that forbids network access and eval", () => {
    const html = buildFrameDocument("seam.root.textContent = 'hi';");
    const csp = cspOf(html);
    expect(csp).toBe(FRAME_CSP);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("script-src 'unsafe-inline'");
    expect(csp).toContain("form-action 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('<div id="seam-root"></div>');
  });

  it("keeps `</script>`, `<!--` and U+2028/2029 in the code from breaking out of the bootstrap script", () => {
    const code = `const a = "</script><img src=x onerror=alert(1)>";\n<!-- comment\nconst b = "\u2028\u2029"; // </SCRIPT >`;
    const html = buildFrameDocument(code);
    // Exactly one script element: the bootstrap. The code never closes it early.
    expect(scripts(html)).toHaveLength(1);
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<!--");
    expect(html).not.toMatch(/<\/script><img/i);
    expect(html).not.toContain("\u2028");
    expect(html).not.toContain("\u2029");
    expect(html).not.toContain(code);
  });

  it("embeds the code as a string literal that decodes to exactly the original", () => {
    const code = `// é ✓ 😀\nconsole.log("</script>", '<!--', "\u2028", \`\${1}\`, "\\\\");\n`;
    const literal = scriptStringLiteral(code);
    expect(literal).not.toMatch(/[<>\u2028\u2029]/);
    expect(JSON.parse(literal)).toBe(code);
    expect(scripts(buildFrameDocument(code))[0]).toContain(`var CODE = ${literal};`);
  });

  it("never puts the code raw into the HTML", () => {
    const code = "seam.root.innerHTML = '<b>bold</b>';\nseam.onMessage((m) => console.log(m));";
    const html = buildFrameDocument(code);
    expect(html).not.toContain(code);
    expect(html).not.toContain("<b>bold</b>");
  });

  it("embeds the frame's nonce once, inside the bootstrap, and refuses anything that is not a nonce", () => {
    const html = buildFrameDocument("seam.root.textContent = 'hi';");
    expect(html.split(NONCE)).toHaveLength(2);
    expect(scripts(html)[0]).toContain(`var NONCE = "${NONCE}";`);
    for (const bad of ["", "abc", `${NONCE}0`, NONCE.toUpperCase(), `"; alert(1); "${NONCE.slice(12)}`]) {
      expect(() => build("", bad), bad).toThrow("buildFrameDocument: nonce must be 32 hex digits");
    }
  });
});
