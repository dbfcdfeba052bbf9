"use client";
import { useEffect, useState } from "react";
import type { HighlighterCore } from "shiki/core";

/** One shiki highlighter for the whole app: a few grammars, JS regex engine (no WASM), loaded lazily. */
let loading: Promise<HighlighterCore> | null = null;
let ready: HighlighterCore | null = null;

function load(): Promise<HighlighterCore> {
  loading ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([
      import("shiki/core"),
      import("shiki/engine/javascript"),
    ]);
    const h = await createHighlighterCore({
      themes: [import("shiki/themes/github-light.mjs"), import("shiki/themes/github-dark.mjs")],
      langs: [
        import("shiki/langs/typescript.mjs"),
        import("shiki/langs/tsx.mjs"),
        import("shiki/langs/javascript.mjs"),
        import("shiki/langs/json.mjs"),
        import("shiki/langs/shellscript.mjs"),
        import("shiki/langs/python.mjs"),
        import("shiki/langs/diff.mjs"),
        import("shiki/langs/yaml.mjs"),
        import("shiki/langs/css.mjs"),
        import("shiki/langs/html.mjs"),
        import("shiki/langs/markdown.mjs"),
        import("shiki/langs/rust.mjs"),
        import("shiki/langs/go.mjs"),
        import("shiki/langs/sql.mjs"),
      ],
      engine: createJavaScriptRegexEngine(),
    });
    ready = h;
    return h;
  })();
  return loading;
}

export function useHighlighter(): HighlighterCore | null {
  const [h, setH] = useState<HighlighterCore | null>(ready);
  useEffect(() => {
    if (h) return;
    let alive = true;
    load().then(
      (x) => alive && setH(x),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [h]);
  return h;
}

const ALIASES: Record<string, string> = { ts: "typescript", js: "javascript", sh: "shellscript", bash: "shellscript", zsh: "shellscript", shell: "shellscript", console: "shellscript", py: "python", yml: "yaml", md: "markdown", rs: "rust", jsonc: "json" };

export function resolveLang(h: HighlighterCore, lang: string | undefined): string | null {
  if (!lang) return null;
  const l = ALIASES[lang.toLowerCase()] ?? lang.toLowerCase();
  return h.getLoadedLanguages().includes(l) ? l : null;
}
