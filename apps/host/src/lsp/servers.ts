import { existsSync } from "node:fs";
import { basename, isAbsolute } from "node:path";
import { formatIssues, issuesOf, LspServerConfig, type LspServerConfigInput } from "@seam/shared";
import { HostError } from "../core/errors.js";
import { resolveCommand } from "./command.js";
import { installHint } from "./presets.js";
import { conflictMessage, type RouteConflict } from "./registry.js";

/** Parses one config; issues become `bad_input:lsp` with their field paths first (`extensions.0: …`). */
export function parseConfig(input: LspServerConfigInput | unknown): LspServerConfig {
  const parsed = LspServerConfig.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = issuesOf(parsed.error);
  return fail(new HostError("bad_input:lsp", formatIssues(issues), { reason: "invalid_config", issues }));
}

const fail = (error: HostError): never => {
  throw error;
};

/** Every pair of enabled servers claiming one extension (LSP-2/LSP-5: the whole mapping). */
export function extensionConflicts(configs: readonly LspServerConfig[]): RouteConflict[] {
  const owner = new Map<string, string>();
  const out: RouteConflict[] = [];
  for (const c of configs) {
    if (!c.enabled) continue;
    for (const ext of new Set(c.extensions)) {
      const first = owner.get(ext);
      if (first === undefined) owner.set(ext, c.id);
      else if (first !== c.id) out.push({ extension: ext, providers: [first, c.id] });
    }
  }
  return out;
}

/** Throws on duplicate ids and extension conflicts; nothing may be saved then. */
export function validateMapping(configs: readonly LspServerConfig[]): void {
  const ids = new Set<string>();
  for (const c of configs) {
    if (ids.has(c.id)) throw new HostError("conflict:lsp", `id: a language server with the id "${c.id}" already exists.`, { reason: "duplicate_id", id: c.id });
    ids.add(c.id);
  }
  const conflicts = extensionConflicts(configs);
  if (conflicts.length > 0) {
    const first = conflicts[0]!;
    throw new HostError("conflict:lsp", conflicts.map(conflictMessage).join(" "), { reason: "extension_conflict", extension: first.extension, servers: first.providers });
  }
}

export type Resolution = { ok: true; command: string } | { ok: false; problem: string };

/**
 * The executable a config runs, or why it cannot run: the command resolves (PATH, then the host's
 * node_modules/.bin), and a script given to node as an absolute path exists.
 */
export function resolveServer(config: LspServerConfig, env: NodeJS.ProcessEnv = process.env, binDirs?: string[]): Resolution {
  const command = resolveCommand(config.command, env, binDirs);
  const hint = installHint(config.command, config.args);
  if (!command) {
    const where = isAbsolute(config.command) ? "is not an executable file" : "was not found on PATH or in the host's node_modules/.bin";
    return { ok: false, problem: `command: "${config.command}" ${where}. ${hint}` };
  }
  const script = config.args[0];
  if (/^node(js)?(\.exe)?$/i.test(basename(command)) && script !== undefined && isAbsolute(script) && !existsSync(script)) {
    return { ok: false, problem: `args.0: the script ${script} does not exist. ${hint}` };
  }
  return { ok: true, command };
}

/** `resolveServer` for a save: an enabled server must resolve (disabled ones may be saved unresolved). */
export function requireResolvable(config: LspServerConfig, env?: NodeJS.ProcessEnv, binDirs?: string[]): void {
  if (!config.enabled) return;
  const r = resolveServer(config, env, binDirs);
  if (!r.ok) throw new HostError("bad_input:lsp", r.problem, { reason: "command_not_found", id: config.id });
}
