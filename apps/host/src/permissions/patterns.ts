import { globProblem, globToRegExp } from "./glob.js";
import { quoteWord, splitSpec } from "./words.js";

/** A rule pattern, parsed (PERM-2). `pattern` is its normalised text. */
export type ParsedPattern =
  /** `web_search`, `mcp__github__*`, `bash`: every call of the tool(s), whatever the arguments. */
  | { kind: "tool"; pattern: string; tool: string; wildcard: boolean }
  /** `bash(npm test)` (exact) or `bash(git diff:*)` (prefix): one simple command's words. */
  | { kind: "command"; pattern: string; tool: "bash"; words: string[]; prefix: boolean }
  /** `edit_file(src/**)`: a glob on the workspace-relative path. */
  | { kind: "path"; pattern: string; tool: "edit_file" | "write_file"; glob: string; regex: RegExp }
  /** `web_fetch(domain:python.org)`: the URL's host is the domain or below it. */
  | { kind: "domain"; pattern: string; tool: "web_fetch"; domain: string };

export type PatternResult = { ok: true; rule: ParsedPattern } | { ok: false; message: string };

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const SPEC_TOOLS = "bash, edit_file, write_file and web_fetch";

/** Parses and checks a rule pattern; the message says how to fix it (shown under the rule form). */
export function validatePattern(input: string): PatternResult {
  const text = input.trim();
  if (text === "") return fail("Enter a pattern: a tool name such as web_fetch, or a tool with a specifier such as bash(npm test).");
  const open = text.indexOf("(");
  const head = open < 0 ? text : text.slice(0, open).trimEnd();
  const toolError = checkTool(head);
  if (toolError) return fail(toolError);
  const wildcard = head.endsWith("*");
  if (open < 0) return { ok: true, rule: { kind: "tool", pattern: head, tool: wildcard ? head.slice(0, -1) : head, wildcard } };
  if (!text.endsWith(")")) return fail(`The specifier of ${head} is not closed: the pattern must end with ")".`);
  const spec = text.slice(open + 1, -1).trim();
  if (wildcard) return fail(`A wildcard pattern (${head}) matches tools by name only: remove "(${spec})".`);
  if (spec === "") return fail(`The parentheses are empty: write ${head} alone to match every call, or put a specifier inside.`);
  switch (head) {
    case "bash":
      return commandPattern(spec);
    case "edit_file":
    case "write_file": {
      const problem = globProblem(spec);
      if (problem) return fail(problem);
      return { ok: true, rule: { kind: "path", pattern: `${head}(${spec})`, tool: head, glob: spec, regex: globToRegExp(spec) } };
    }
    case "web_fetch":
      return domainPattern(spec);
    default:
      return fail(`${head} takes no specifier: write ${head} alone. Only ${SPEC_TOOLS} take one, e.g. bash(npm test).`);
  }
}

function checkTool(head: string): string | null {
  if (head === "*") return "* alone would match every tool: choose a permission mode for that, or name a tool or a prefix such as mcp__github__*.";
  const name = head.endsWith("*") ? head.slice(0, -1) : head;
  if (name.includes("*")) return `Only a trailing * is supported in a tool name (mcp__github__*), not "${head}".`;
  if (!TOOL_NAME.test(name)) return `"${head}" is not a tool name: use letters, digits, _ and - (at most 64), optionally ending in *.`;
  return null;
}

function commandPattern(spec: string): PatternResult {
  const prefix = spec.endsWith(":*");
  const body = prefix ? spec.slice(0, -2).trim() : spec;
  if (body === "*" || (prefix && body === "")) {
    return fail("That would allow every command: write bash alone if you mean it, or name the command's first words, e.g. bash(npm run:*).");
  }
  if (body.includes(":*")) return fail(":* marks a prefix and must end the rule, e.g. bash(git diff:*).");
  const split = splitSpec(body);
  if (!split.ok) return fail(split.message);
  if (split.words.length === 0) return fail("Put a command inside the parentheses, e.g. bash(npm test).");
  const normalised = split.words.map((w) => quoteWord(w) ?? w).join(" ");
  return { ok: true, rule: { kind: "command", pattern: `bash(${normalised}${prefix ? ":*" : ""})`, tool: "bash", words: split.words, prefix } };
}

function domainPattern(spec: string): PatternResult {
  if (!spec.startsWith("domain:")) return fail(`web_fetch takes a domain: write web_fetch(domain:${spec.replace(/^\w+:\/\//, "").split("/")[0]}).`);
  const domain = spec.slice("domain:".length).trim().toLowerCase().replace(/\.$/, "");
  if (domain.startsWith("*.")) return fail(`Write the domain without "*.": domain:${domain.slice(2)} also matches its subdomains.`);
  if (domain.includes("/") || domain.includes(":")) return fail(`Write only the host name after domain:, without scheme, port or path (domain:docs.python.org).`);
  if (!HOST.test(domain)) return fail(`"${domain}" is not a host name: use letters, digits, - and dots, e.g. domain:docs.python.org.`);
  return { ok: true, rule: { kind: "domain", pattern: `web_fetch(domain:${domain})`, tool: "web_fetch", domain } };
}

const fail = (message: string): PatternResult => ({ ok: false, message });

const cache = new Map<string, PatternResult>();

/** validatePattern, memoized: evaluate() sees the same stored patterns on every call. */
export function compilePattern(pattern: string): PatternResult {
  let result = cache.get(pattern);
  if (!result) {
    if (cache.size >= 1_000) cache.clear();
    result = validatePattern(pattern);
    cache.set(pattern, result);
  }
  return result;
}
