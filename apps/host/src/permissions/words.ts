import type { Node } from "web-tree-sitter";

/** One shell word: its value after quote removal, and whether that value is certain (no expansion or glob). */
export interface Word {
  value: string;
  literal: boolean;
}

/** The value of a word node (`word`, `string`, `raw_string`, `concatenation`, …) as bash would see it. */
export function wordOf(node: Node): Word {
  const parts: Word[] = [];
  collect(node, parts, false);
  let value = "";
  let literal = true;
  for (const p of parts) {
    value += p.value;
    literal &&= p.literal;
  }
  // A brace expansion spans several word nodes ({, a,b, }); it is only visible on the whole word.
  if (literal && node.type === "concatenation" && hasBraceExpansion(node)) literal = false;
  return { value: literal ? value : node.text, literal };
}

function collect(node: Node, out: Word[], quoted: boolean): void {
  switch (node.type) {
    case "word":
      out.push(quoted ? { value: node.text, literal: true } : unquotedWord(node.text));
      return;
    case "number":
    case "string_content":
      out.push({ value: quoted ? unescapeDouble(node.text) : node.text, literal: node.namedChildCount === 0 });
      return;
    case "raw_string":
      out.push({ value: node.text.slice(1, -1), literal: true });
      return;
    case "string":
    case "concatenation":
      for (const child of node.namedChildren) collect(child, out, quoted || node.type === "string");
      if (node.type === "string" && node.namedChildCount === 0) out.push({ value: "", literal: true });
      return;
    default:
      // Expansions, substitutions, $'…', arrays: the value is only known when the command runs.
      out.push({ value: node.text, literal: false });
  }
}

/** Unquoted word text: backslash escapes removed; globs and a leading tilde make it uncertain. */
export function unquotedWord(text: string): Word {
  let value = "";
  let literal = !text.startsWith("~");
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && i + 1 < text.length) {
      const next = text[++i]!;
      if (next !== "\n") value += next;
      continue;
    }
    if (c === "*" || c === "?" || c === "[") literal = false;
    value += c;
  }
  if (literal && /\{[^{}]*(,|\.\.)[^{}]*\}/.test(text)) literal = false;
  return { value, literal };
}

function hasBraceExpansion(node: Node): boolean {
  const unquoted = node.namedChildren.filter((c) => c.type === "word").map((c) => c.text).join("");
  return unquoted.includes("{") && unquoted.includes("}") && /\{[^{}]*(,|\.\.)[^{}]*\}/.test(unquoted);
}

function unescapeDouble(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === "\n" ? "" : c));
}

const PLAIN_WORD = /^[A-Za-z0-9_\-./:=@%+,^~]+$/;

/** A word written back so that `splitSpec` reads it unchanged; null if it cannot be written safely. */
export function quoteWord(word: string): string | null {
  if (word === "") return "''";
  if (PLAIN_WORD.test(word) && !word.startsWith("~")) return word;
  if (!word.includes("'")) return `'${word}'`;
  if (/[$`]/.test(word)) return null;
  return `"${word.replace(/(["\\])/g, "\\$1")}"`;
}

/**
 * The words of a bash rule's spec (`git commit -m 'a b'`): whitespace separates words, single quotes
 * are literal, double quotes allow `\"` and `\\`. Expansions and operators are refused: a rule names
 * one simple command with fixed words.
 */
export function splitSpec(spec: string): { ok: true; words: string[] } | { ok: false; message: string } {
  const words: string[] = [];
  let current: string | null = null;
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i]!;
    if (/\s/.test(c)) {
      if (current !== null) words.push(current);
      current = null;
      continue;
    }
    current ??= "";
    if (c === "'") {
      const end = spec.indexOf("'", i + 1);
      if (end < 0) return { ok: false, message: "A single quote is not closed." };
      current += spec.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < spec.length && spec[j] !== '"'; j++) {
        const d = spec[j]!;
        if (d === "$" || d === "`") return { ok: false, message: "Rules match fixed words: use single quotes for a literal $ or `." };
        if (d === "\\" && (spec[j + 1] === '"' || spec[j + 1] === "\\")) j++;
        current += spec[j];
      }
      if (j >= spec.length) return { ok: false, message: "A double quote is not closed." };
      i = j;
    } else if (c === "\\" && i + 1 < spec.length) {
      current += spec[++i];
    } else if ("$`".includes(c)) {
      return { ok: false, message: "Rules match fixed words: variables and command substitutions ($, `) cannot be matched; quote a literal $ with single quotes." };
    } else if (";&|<>()".includes(c)) {
      return { ok: false, message: `"${c}" joins or redirects commands; a bash rule names one simple command (write one rule per command).` };
    } else {
      current += c;
    }
  }
  if (current !== null) words.push(current);
  return { ok: true, words };
}
