import vm from "node:vm";
import { EXTENSION_CODE_MAX } from "@seam/shared";

export type ExtensionHalf = "host" | "browser";

/** Why a half does not parse. `line`/`column` are 1-based; 0 = unknown. */
export interface SyntaxProblem {
  half: ExtensionHalf;
  line: number;
  column: number;
  message: string;
  /** The offending source line (at most 200 characters) and a caret line when the column is known. */
  excerpt: string;
}

const EXCERPT_MAX = 200;
// JavaScript's line terminators, so our line numbers match V8's.
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/;
const GLOBAL_OF: Record<ExtensionHalf, string> = { host: "api", browser: "seam" };

/**
 * Parses one half as the classic script it runs as (EXT-1: checked before anything is recorded).
 * `new vm.Script` compiles without running, so nothing in `code` executes here.
 */
export function checkSyntax(code: string, half: ExtensionHalf): SyntaxProblem | null {
  if (code.length > EXTENSION_CODE_MAX) {
    const message = `the ${half} half has ${code.length.toLocaleString("en-US")} characters; the limit is ${EXTENSION_CODE_MAX.toLocaleString("en-US")}`;
    return { half, line: 0, column: 0, message, excerpt: "" };
  }
  // No digits or colons, so the `filename:line` header in the stack is unambiguous.
  const filename = `${half}-half.js`;
  try {
    new vm.Script(code, { filename });
    return null;
  } catch (error) {
    const { line, column } = locate(error, filename);
    const message = explain(error, half);
    return { half, line, column, message, excerpt: line > 0 ? excerpt(code.split(LINE_BREAK)[line - 1] ?? "", line, column) : "" };
  }
}

/** One paragraph for the model: `host half, line 3, column 9: Unexpected token '}'` + the excerpt. */
export function formatSyntaxProblem(p: SyntaxProblem): string {
  const where = [`${p.half} half`, p.line > 0 ? `line ${p.line}` : "", p.line > 0 && p.column > 0 ? `column ${p.column}` : ""];
  const head = `${where.filter(Boolean).join(", ")}: ${p.message}`;
  return p.excerpt ? `${head}\n${p.excerpt}` : head;
}

/**
 * Node decorates a compile error's stack with `filename:line`, the source line and a caret line
 * under the offending token. Anything else (a RangeError from deep nesting, a changed format)
 * yields 0 = unknown rather than a guess.
 */
function locate(error: unknown, filename: string): { line: number; column: number } {
  const stack = error instanceof Error && typeof error.stack === "string" ? error.stack.split("\n") : [];
  const at = stack.findIndex((l) => l.startsWith(`${filename}:`) && /^\d+$/.test(l.slice(filename.length + 1)));
  if (at < 0) return { line: 0, column: 0 };
  const line = Number(stack[at]!.slice(filename.length + 1));
  const caret = stack[at + 2] ?? "";
  const column = /^[ \t]*\^/.test(caret) ? caret.indexOf("^") + 1 : 0;
  return { line, column };
}

function explain(error: unknown, half: ExtensionHalf): string {
  if (!(error instanceof Error)) return String(error);
  if (error instanceof RangeError) return `the code is too deeply nested to parse (${error.message})`;
  const message = error.message;
  if (/\b(import|export)\b|\bmodules?\b/.test(message)) {
    return `${message} (the ${half} half is a classic script, not a module: no import, export, import.meta or top-level await; it reaches the host only through the global \`${GLOBAL_OF[half]}\`)`;
  }
  if (message === "Unexpected end of input") return `${message} (an unclosed string, template, comment, bracket or brace?)`;
  return message;
}

/** `  3 | foo(}` and a caret under the column; long lines are cut to a window around it. */
function excerpt(text: string, line: number, column: number): string {
  let start = 0;
  if (text.length > EXCERPT_MAX && column > 0) start = Math.max(0, Math.min(column - 1 - EXCERPT_MAX / 2, text.length - EXCERPT_MAX));
  const end = Math.min(text.length, start + EXCERPT_MAX);
  const before = start > 0 ? "…" : "";
  const shown = `${before}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
  const gutter = `  ${line} | `;
  if (column <= 0 || column - 1 > end) return `${gutter}${shown}`;
  // Keep tabs in the padding so the caret lines up however the reader renders them.
  const pad = (before + text.slice(start, column - 1)).replace(/[^\t]/g, " ");
  return `${gutter}${shown}\n${" ".repeat(gutter.length)}${pad}^`;
}
