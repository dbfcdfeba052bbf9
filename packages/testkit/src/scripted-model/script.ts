import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { z } from "zod";

const ToolCall = z.strictObject({
  /** Optional fixed id; default `call_<step>_<index>`. */
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  /** Sent as the arguments text instead of `args` as JSON: a model that writes broken JSON. */
  rawArgs: z.string().optional(),
});

const Usage = z.strictObject({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
});

/**
 * One model response. Either a streamed answer (text chunks and/or tool calls) or, when `status`
 * is set, an HTTP error reply with `body`.
 */
export const Step = z
  .strictObject({
    text: z.union([z.string(), z.array(z.string())]).optional(),
    delayMs: z.number().int().min(0).max(60_000).default(0),
    toolCalls: z.array(ToolCall).default([]),
    repeat: z.number().int().min(1).max(1_000_000).default(1),
    hang: z.boolean().default(false),
    usage: Usage.optional(),
    finishReason: z.enum(["stop", "length"]).optional(),
    status: z.number().int().min(400).max(599).optional(),
    body: z.unknown().optional(),
  })
  .superRefine((s, ctx) => {
    if (s.status === undefined) {
      if (s.body !== undefined) ctx.addIssue({ code: "custom", path: ["body"], message: "`body` needs `status` (error steps only)" });
      return;
    }
    for (const key of ["text", "usage", "finishReason"] as const) {
      if (s[key] !== undefined) ctx.addIssue({ code: "custom", path: [key], message: "an error step (`status`) cannot also stream" });
    }
    if (s.toolCalls.length > 0) ctx.addIssue({ code: "custom", path: ["toolCalls"], message: "an error step (`status`) cannot emit tool calls" });
    if (s.hang) ctx.addIssue({ code: "custom", path: ["hang"], message: "an error step (`status`) cannot hang" });
  });
export type Step = z.infer<typeof Step>;

export const Turn = z.strictObject({
  /** Regex (JavaScript syntax) tested against the text of the latest user message. */
  match: z.string(),
  /** RegExp flags for `match`, e.g. "i". */
  flags: z.string().regex(/^[dgimsuvy]*$/, "RegExp flags are letters from dgimsuvy").default(""),
  steps: z.array(Step).min(1),
}).superRefine((t, ctx) => {
  const problem = regexError(t.match, t.flags);
  if (problem) ctx.addIssue({ code: "custom", path: ["match"], message: `not a valid regular expression: ${problem}` });
});
export type Turn = z.infer<typeof Turn>;

export const Script = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  turns: z.array(Turn).min(1),
});
export type Script = z.infer<typeof Script>;
export type ScriptInput = z.input<typeof Script>;

export class ScriptError extends Error {
  override name = "ScriptError";
  constructor(readonly file: string, message: string) {
    super(message);
  }
}

function regexError(source: string, flags: string): string | undefined {
  try {
    new RegExp(source, flags);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Validates one script object; `origin` names it in errors (a file path or "inline script #n"). */
export function parseScript(value: unknown, origin: string): Script {
  const result = Script.safeParse(value);
  if (result.success) return result.data;
  throw new ScriptError(origin, `Invalid scripted-model script ${origin}:\n${z.prettifyError(result.error)}`);
}

export function loadScriptFile(file: string): Script {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new ScriptError(file, `Cannot read scripted-model script ${file}: ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ScriptError(file, `Scripted-model script ${file} is not valid JSON: ${(e as Error).message}`);
  }
  return parseScript(value, file);
}

/** Loads a script file, or every `*.json` in a directory (sorted by file name). */
export function loadScripts(path: string): Script[] {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new ScriptError(path, `Scripted-model scripts not found: ${path}`);
  }
  if (!isDir) return [loadScriptFile(path)];
  const files = readdirSync(path).filter((f) => f.endsWith(".json")).sort();
  if (files.length === 0) throw new ScriptError(path, `No *.json scripts in ${path}`);
  const scripts = files.map((f) => loadScriptFile(join(path, f)));
  const seen = new Map<string, string>();
  for (const [i, s] of scripts.entries()) {
    const file = join(path, files[i] ?? "");
    const other = seen.get(s.name);
    if (other) throw new ScriptError(file, `Duplicate script name "${s.name}" in ${basename(file)} and ${basename(other)}`);
    seen.set(s.name, file);
  }
  return scripts;
}

/** What the server decided to answer for one request. */
export type Selection =
  | { kind: "step"; script: string; turn: number; stepIndex: number; step: Step }
  | { kind: "finished"; script: string; turn: number; stepIndex: number }
  | { kind: "unmatched" };

/**
 * Picks the first turn whose `match` matches `userText` (only in the script named `model` when one
 * has that name) and serves the step numbered by how many assistant replies followed that message.
 */
export function select(scripts: Script[], model: string | undefined, userText: string, assistantsAfter: number): Selection {
  const named = scripts.filter((s) => s.name === model);
  for (const script of named.length > 0 ? named : scripts) {
    for (const [turnIndex, turn] of script.turns.entries()) {
      if (!new RegExp(turn.match, turn.flags).test(userText)) continue;
      const step = turn.steps[assistantsAfter];
      if (!step) return { kind: "finished", script: script.name, turn: turnIndex, stepIndex: assistantsAfter };
      return { kind: "step", script: script.name, turn: turnIndex, stepIndex: assistantsAfter, step };
    }
  }
  return { kind: "unmatched" };
}
