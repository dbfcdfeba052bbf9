import { SHELLS } from "./commands.js";
import { hostOf, stringArg } from "./match.js";
import { workspaceRelative } from "./paths.js";
import { validatePattern } from "./patterns.js";
import { parseCommand, type SimpleCommand } from "./shell.js";
import type { CallFacts } from "./types.js";
import { quoteWord } from "./words.js";

/** Tools whose first argument is a subcommand: `git diff HEAD` → bash(git diff:*). */
const SUBCOMMAND_TOOLS = new Set([
  "git", "npm", "pnpm", "yarn", "bun", "cargo", "go", "docker", "podman", "kubectl", "helm", "gh", "pip", "pip3", "uv",
  "poetry", "dotnet", "mvn", "gradle", "make", "terraform", "systemctl", "brew", "apt", "apt-get", "rustup", "deno",
  "conda", "composer", "bundle", "rake", "mix", "swift", "flutter", "aws", "gcloud", "az", "turbo", "nx", "just",
]);

/**
 * Commands for which a prefix rule would allow nearly anything (interpreters, package runners, deleting,
 * network copies): only the exact command is suggested.
 */
const EXACT_ONLY = new Set([
  ...SHELLS, "python", "python3", "node", "perl", "ruby", "php", "lua", "npx", "pnpx", "bunx", "uvx", "tsx", "ts-node",
  "rm", "rmdir", "dd", "shred", "chmod", "chown", "chgrp", "mkfs", "kill", "pkill", "killall", "curl", "wget", "ssh",
  "scp", "rsync", "nc", "source", ".", "git-shell", "osascript", "powershell", "pwsh",
]);

/**
 * The rule(s) "Always allow" proposes for a call (PERM-3), never wider than needed: for bash one pattern
 * per distinct simple command (`bash(git diff:*)`), for file tools the file's folder (`src/**`) or the file,
 * for web_fetch the URL's host, otherwise the tool's name. Null when nothing safe can be proposed (the
 * command cannot be fully checked, a path outside the workspace, a URL without a host).
 */
export function suggestRule(call: CallFacts): string[] | null {
  switch (call.tool) {
    case "bash":
      return suggestCommands(call);
    case "edit_file":
    case "write_file": {
      const path = stringArg(call.args, "path");
      const rel = path === null ? null : workspaceRelative(call.workspace, path);
      if (rel === null || rel === "." || /[*?[\]{}\\]/.test(rel)) return null;
      const folder = rel.includes("/") ? `${rel.slice(0, rel.lastIndexOf("/"))}/**` : rel;
      return checked(`${call.tool}(${folder})`);
    }
    case "web_fetch": {
      const host = hostOf(stringArg(call.args, "url"));
      return host === null ? null : checked(`web_fetch(domain:${host})`);
    }
    default:
      return checked(call.tool);
  }
}

function suggestCommands(call: CallFacts): string[] | null {
  const command = stringArg(call.args, "command");
  if (command === null) return null;
  const parsed = parseCommand(command, { workspace: call.workspace });
  if (parsed.problems.length > 0 || parsed.commands.length === 0) return null;
  const out = new Set<string>();
  for (const c of parsed.commands) {
    if (c.runsScript) continue;
    const pattern = suggestCommand(c);
    if (pattern === null) return null;
    out.add(pattern);
  }
  return out.size > 0 ? [...out] : null;
}

function suggestCommand(c: SimpleCommand): string | null {
  // An assignment that changes what runs must be part of the rule; that is only safe as the exact command.
  if (c.sensitive.length > 0) return exact([...c.assignments, c.name, ...c.args], [...c.assignments.map(() => true), ...c.literal]);
  const words = [c.name, ...c.args].slice(c.start);
  const literal = c.literal.slice(c.start);
  const name = words[0]!;
  const base = name.slice(name.lastIndexOf("/") + 1);
  if (EXACT_ONLY.has(base)) return exact(words, literal);
  if (SUBCOMMAND_TOOLS.has(base) && words.length > 1) {
    const sub = words[1]!;
    if (!literal[1] || sub.startsWith("-")) return exact(words, literal);
    return prefix([name, sub]);
  }
  return prefix([name]);
}

function exact(words: string[], literal: boolean[]): string | null {
  if (literal.includes(false)) return null;
  const quoted = words.map(quoteWord);
  return quoted.includes(null) ? null : (checked(`bash(${quoted.join(" ")})`)?.[0] ?? null);
}

function prefix(words: string[]): string | null {
  const quoted = words.map(quoteWord);
  return quoted.includes(null) ? null : (checked(`bash(${quoted.join(" ")}:*)`)?.[0] ?? null);
}

/** Only patterns that validate (and read back the same) are proposed. */
function checked(pattern: string): string[] | null {
  const result = validatePattern(pattern);
  return result.ok ? [result.rule.pattern] : null;
}
