import { createRequire } from "node:module";
import { posix } from "node:path";
import type { Node, Parser, TreeCursor } from "web-tree-sitter";
import { HostError } from "../core/errors.js";
import { isSensitiveVariable, peel } from "./commands.js";
import { isInside } from "./paths.js";
import { unquotedWord, wordOf, type Word } from "./words.js";

/** One simple command of a shell command line (a pipeline stage, a list item, a substitution, …). */
export interface SimpleCommand {
  /** Its source text (without the redirections around it). */
  text: string;
  /** The command name after quote removal (its source text when not fixed). */
  name: string;
  /** The arguments after quote removal; an argument with expansions or globs keeps its source text. */
  args: string[];
  /** Leading assignments (`FOO=1 npm test`); those given to `env` stay words. */
  assignments: string[];
  /** Whether a word's value is only known at run time (expansions, substitutions, globs, `~`). */
  dynamic: boolean;
  /** Per word of [name, ...args]: its value is fixed. */
  literal: boolean[];
  /** Index in [name, ...args] of the command that really runs, after wrappers (`sudo`, `env X=1`, `timeout 10`, …). */
  start: number;
  /** Assigned variables that change what runs (PATH, LD_PRELOAD, …): an allow rule must then name them. */
  sensitive: string[];
  /** A shell running a fixed script (`bash -c 'npm test'`): its own commands are listed too and decide. */
  runsScript: boolean;
}

export interface Redirect {
  operator: string;
  /** The target as written (after quote removal). */
  target: string;
  /** The absolute target, or null when it is only known at run time. */
  path: string | null;
  write: boolean;
}

export interface ParsedCommand {
  commands: SimpleCommand[];
  redirects: Redirect[];
  /** Why the command cannot be fully checked; any problem means the call asks (unless a deny rule matched). */
  problems: string[];
}

export interface ParseOptions {
  /** Canonical absolute workspace directory. */
  workspace: string;
  /** Where the command starts (the workspace by default). */
  cwd?: string;
}

const MAX_COMMAND_CHARS = 100_000;
const MAX_SCRIPT_DEPTH = 3;
const DEVICES = /^\/dev\/(null|stdout|stderr|stdin|tty|fd\/\d+)$/;
/** Node types with nothing inside worth visiting (descending costs a round trip into WebAssembly). */
const LEAVES = new Set(["comment", "word", "raw_string", "string_content", "variable_name", "special_variable_name", "file_descriptor", "heredoc_start", "heredoc_end", "heredoc_content", "test_operator", "regex", "extglob_pattern", "ansi_c_string"]);
const WRITE_OPERATORS = new Set([">", ">>", "&>", "&>>", ">|", "<>", ">&"]);

let loading: Promise<Parser> | undefined;
let parser: Parser | undefined;

/** Loads web-tree-sitter and the bash grammar once; later calls return the same parser. */
export function loadShellParser(): Promise<Parser> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const { Language, Parser } = await import("web-tree-sitter");
    await Parser.init({ locateFile: () => require.resolve("web-tree-sitter/web-tree-sitter.wasm") });
    const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
    const p = new Parser();
    p.setLanguage(language);
    parser = p;
    return p;
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

export const shellParserLoaded = (): boolean => parser !== undefined;

interface State {
  workspace: string;
  /** The current directory as far as it can be followed; null after a `cd` whose target is unknown. */
  cwd: string | null;
  depth: number;
  out: ParsedCommand;
}

/** Splits a command line into its simple commands and redirections (synchronous; `loadShellParser` first). */
export function parseCommand(command: string, options: ParseOptions): ParsedCommand {
  if (!parser) throw new HostError("unavailable:permissions", "The shell parser is not loaded yet: await loadShellParser() before checking commands.", { reason: "parser_not_loaded" });
  if (!posix.isAbsolute(options.workspace)) throw new HostError("bad_input:permissions", `The workspace must be an absolute path, got ${options.workspace}.`, { reason: "invalid_arguments" });
  const state: State = { workspace: options.workspace, cwd: posix.resolve(options.workspace, options.cwd ?? "."), depth: 0, out: { commands: [], redirects: [], problems: [] } };
  parseInto(parser, command, state);
  return state.out;
}

function parseInto(p: Parser, command: string, state: State): void {
  if (command.length > MAX_COMMAND_CHARS) {
    state.out.problems.push(`the command is longer than ${MAX_COMMAND_CHARS} characters and is not checked`);
    return;
  }
  const tree = p.parse(command);
  if (!tree) {
    state.out.problems.push("the shell parser gave no result");
    return;
  }
  const cursor = tree.walk();
  try {
    walk(cursor, state, tree.rootNode.hasError);
  } finally {
    cursor.delete();
    tree.delete();
  }
}

/** Depth-first over every node; a Node object is only made for the few node types that matter. */
function walk(cursor: TreeCursor, state: State, hasError: boolean): void {
  for (;;) {
    const type = cursor.nodeType;
    if (hasError && (type === "ERROR" || cursor.nodeIsMissing)) onError(cursor.currentNode, state);
    if (type === "command") onCommand(cursor, state);
    else if (type === "file_redirect") onRedirect(cursor, state);
    else if (type === "variable_assignment") onAssignment(cursor.currentNode, state);
    if (cursor.nodeIsNamed && !LEAVES.has(type) && !cursor.nodeIsMissing && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return;
    }
  }
}

function onError(node: Node, state: State): void {
  const near = node.text.trim().slice(0, 40);
  state.out.problems.push(node.isMissing ? `the command is incomplete (a ${node.type} is missing)` : `the command cannot be parsed${near ? ` near \`${near}\`` : ""}`);
}

function onAssignment(node: Node, state: State): void {
  if (node.parent?.type === "command") return;
  const name = node.childForFieldName("name")?.text ?? "";
  if (isSensitiveVariable(name)) state.out.problems.push(`\`${name}=…\` changes what the commands after it run`);
}

function onCommand(cursor: TreeCursor, state: State): void {
  const text = cursor.nodeText;
  const assignments: string[] = [];
  const sensitive: string[] = [];
  const words: string[] = [];
  const literal: boolean[] = [];
  cursor.gotoFirstChild();
  do {
    const type = cursor.nodeType;
    if (type === "variable_assignment" && words.length === 0) {
      const node = cursor.currentNode;
      const name = node.childForFieldName("name")?.text ?? "";
      const value = node.childForFieldName("value");
      assignments.push(`${name}=${value ? wordOf(value).value : ""}`);
      if (isSensitiveVariable(name)) sensitive.push(name);
    } else if (type === "command_name" || (words.length > 0 && cursor.currentFieldName === "argument")) {
      const word = type === "command_name" ? nameAt(cursor) : wordAt(cursor);
      words.push(word.value);
      literal.push(word.literal);
    }
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  if (words.length === 0) return;
  const peeled = peel(words, literal);
  for (const a of peeled.assignments) {
    const name = a.slice(0, a.indexOf("="));
    if (isSensitiveVariable(name)) sensitive.push(name);
  }
  const problems = [...peeled.problems];
  if (!literal[peeled.start]) problems.push(`the command name \`${words[peeled.start]}\` is only known when it runs`);
  const simple: SimpleCommand = {
    text,
    name: words[0]!,
    args: words.slice(1),
    assignments,
    dynamic: literal.includes(false),
    literal,
    start: peeled.start,
    sensitive,
    runsScript: peeled.script !== undefined,
  };
  if (peeled.script !== undefined) {
    if (sensitive.length > 0) problems.push(`\`${sensitive.join(", ")}\` is set for a shell script`);
    else if (state.depth >= MAX_SCRIPT_DEPTH) problems.push("shell scripts are nested too deeply to check");
    else parseInto(parser!, peeled.script, { ...state, depth: state.depth + 1 });
  }
  if (changesDirectory(simple, state)) return;
  state.out.commands.push(simple);
  state.out.problems.push(...problems.map((p) => `${p} (\`${clip(simple.text)}\`)`));
}

/** The word inside the `command_name` under the cursor. */
function nameAt(cursor: TreeCursor): Word {
  if (!cursor.gotoFirstChild()) return { value: cursor.nodeText, literal: false };
  const word = wordAt(cursor);
  cursor.gotoParent();
  return word;
}

/** wordOf for the node under the cursor, without making a Node for the common plain words. */
function wordAt(cursor: TreeCursor): Word {
  switch (cursor.nodeType) {
    case "word":
      return unquotedWord(cursor.nodeText);
    case "raw_string":
      return { value: cursor.nodeText.slice(1, -1), literal: true };
    default:
      return wordOf(cursor.currentNode);
  }
}

/** `cd <dir>` inside the workspace only moves where later redirections land; it needs no approval. */
function changesDirectory(command: SimpleCommand, state: State): boolean {
  const name = command.name;
  if (name !== "cd" && name !== "pushd" && name !== "popd") return false;
  const operands = command.args.map((a, i) => ({ a, literal: command.literal[i + 1] })).filter((o) => !/^-[LPe@]*$/.test(o.a) || o.a === "-");
  const target = name === "cd" && operands.length === 1 && operands[0]!.literal && operands[0]!.a !== "-" && state.cwd ? posix.resolve(state.cwd, operands[0]!.a) : null;
  state.cwd = target;
  return target !== null && isInside(state.workspace, target) && command.assignments.length === 0;
}

function onRedirect(cursor: TreeCursor, state: State): void {
  const text = cursor.nodeText;
  let operator = "";
  let word: Word | undefined;
  cursor.gotoFirstChild();
  do {
    if (!operator && !cursor.nodeIsNamed) operator = cursor.nodeType;
    else if (cursor.currentFieldName === "destination") word ??= wordAt(cursor);
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  if (!word) return; // `2>&-`: closes a descriptor
  if ((operator === ">&" || operator === "<&") && (/^\d+$/.test(word.value) || word.value === "-")) return; // fd duplication
  const write = WRITE_OPERATORS.has(operator);
  if (!word.literal) {
    state.out.redirects.push({ operator, target: word.value, path: null, write });
    if (write) state.out.problems.push(`\`${clip(text)}\` writes to a path only known when it runs`);
    return;
  }
  const path = state.cwd ? posix.resolve(state.cwd, word.value) : posix.isAbsolute(word.value) ? posix.normalize(word.value) : null;
  state.out.redirects.push({ operator, target: word.value, path, write });
  if (!write || (path && DEVICES.test(path))) return;
  if (!path) state.out.problems.push(`\`${clip(text)}\` writes relative to a directory changed by \`cd\`, which cannot be followed`);
  else if (!isInside(state.workspace, path)) state.out.problems.push(`\`${clip(text)}\` writes outside the workspace (${path})`);
}

const clip = (text: string): string => (text.length > 80 ? `${text.slice(0, 77)}…` : text).replace(/\s*\n\s*/g, " ");
