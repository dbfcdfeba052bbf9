"use client";
import { useMemo, type ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { resolveLang, useHighlighter } from "./highlighter";

/**
 * A fenced code block. Renders the plain text in the same <pre><code> box until the highlighter is
 * ready, then swaps in coloured spans with identical text — so nothing moves.
 */
export function CodeBlock({ code, lang }: { code: string; lang?: string }) {
  const h = useHighlighter();
  const text = code.replace(/\n$/, "");
  const highlighted = useMemo<ReactNode[] | null>(() => {
    if (!h) return null;
    const l = resolveLang(h, lang);
    if (!l) return null;
    try {
      const { tokens } = h.codeToTokens(text, { lang: l, themes: { light: "github-light", dark: "github-dark" }, defaultColor: "light" });
      const out: ReactNode[] = [];
      tokens.forEach((line, i) => {
        if (i > 0) out.push("\n");
        line.forEach((t, j) => {
          out.push(
            <span key={`${i}:${j}`} style={(t.htmlStyle ?? (t.color ? { color: t.color } : undefined)) as React.CSSProperties | undefined}>
              {t.content}
            </span>,
          );
        });
      });
      return out;
    } catch {
      return null;
    }
  }, [h, lang, text]);

  return (
    <div className="not-prose group/code my-3 overflow-hidden rounded-lg border bg-code">
      <div className="flex h-8 items-center justify-between border-b pl-3 pr-1">
        <span className="font-mono text-[11.5px] text-muted-foreground">{lang || "text"}</span>
        <CopyButton text={text} />
      </div>
      <pre className="scroll-thin shiki-code overflow-x-auto px-3.5 py-3 font-mono text-[12.75px] leading-[1.6]">
        <code>{highlighted ?? text}</code>
      </pre>
    </div>
  );
}
