import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ModelSettings } from "@seam/shared";
import { HostError } from "../core/errors.js";
import { keyEnvFor } from "./presets.js";

export interface Secret {
  value: string;
  /** Where the value came from, safe to show: "env DEEPSEEK_API_KEY" or "secrets file key DEEPSEEK_API_KEY". */
  source: string;
}

/**
 * Where API keys and bearer tokens come from (SEC-2): the process env first, then the 0600 secrets
 * file. Values are never logged, stored or put into error messages.
 */
export interface SecretSource {
  /** Throws HostError when the secrets file is unsafe (not 0600) or malformed. */
  get(name: string): Secret | undefined;
  /** Path of the secrets file, for messages. */
  readonly file?: string;
}

export interface Secrets extends SecretSource {
  readonly file: string;
  keyStatus(settings: ModelSettings): KeyStatus;
}

export interface KeyStatus {
  /** The key name that will be looked up, or null when none is needed. */
  keyEnv: string | null;
  keySource: string | null;
  problem: string | null;
  /** One line for the settings page. */
  text: string;
}

export const SECRETS_FILE = "secrets.json";

export function readSecretsFile(file: string): Record<string, string> | undefined {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new HostError("unavailable:llm", `Cannot read the secrets file ${file}: ${(e as NodeJS.ErrnoException).code ?? "error"}.`, { reason: "secrets_file_unreadable" });
  }
  // Windows has no POSIX modes; everywhere else group/other bits must be clear.
  if (process.platform !== "win32" && (mode & 0o077) !== 0) {
    const octal = (mode & 0o777).toString(8).padStart(4, "0");
    throw new HostError("denied:llm", `The secrets file ${file} has mode ${octal}, so other users can read it. Run \`chmod 600 ${file}\` and try again.`, { reason: "secrets_file_mode" });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    // The parser's message can quote file content, i.e. a secret: say only where the problem is.
    throw new HostError("bad_input:llm", `The secrets file ${file} is not valid JSON. It must be one flat object, e.g. {"DEEPSEEK_API_KEY": "…"}.`, { reason: "secrets_file_invalid" });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new HostError("bad_input:llm", `The secrets file ${file} must hold one flat JSON object of NAME → value.`, { reason: "secrets_file_invalid" });
  }
  const entries = Object.entries(parsed);
  const bad = entries.find(([, v]) => typeof v !== "string");
  if (bad) throw new HostError("bad_input:llm", `The secrets file ${file}: the value of key ${bad[0]} must be a string.`, { reason: "secrets_file_invalid" });
  return Object.fromEntries(entries) as Record<string, string>;
}

/** Env first, then `<home>/secrets.json` (must be mode 0600). The file is re-read on each lookup, so edits apply without a restart. */
export function createSecretSource(opts: { home: string; env?: NodeJS.ProcessEnv }): Secrets {
  const env = opts.env ?? process.env;
  const file = join(opts.home, SECRETS_FILE);
  const source: Secrets = {
    file,
    get(name) {
      const fromEnv = env[name];
      if (fromEnv) return { value: fromEnv, source: `env ${name}` };
      const value = readSecretsFile(file)?.[name];
      return value ? { value, source: `secrets file key ${name}` } : undefined;
    },
    keyStatus: (settings) => keyStatus(settings, source),
  };
  return source;
}

/** Human-readable key state for the settings page; never contains the key. */
export function keyStatus(settings: ModelSettings, secrets: SecretSource): KeyStatus {
  if (settings.provider === "none") {
    return { keyEnv: null, keySource: null, problem: null, text: "No model configured: Seam runs in direct mode (you run tools yourself)." };
  }
  const keyEnv = keyEnvFor(settings);
  if (!keyEnv) {
    return { keyEnv: null, keySource: null, problem: null, text: `No API key needed: requests to ${settings.baseURL ?? "the endpoint"} are sent without one.` };
  }
  try {
    const found = secrets.get(keyEnv);
    if (found) return { keyEnv, keySource: found.source, problem: null, text: `Using the API key from ${found.source}.` };
    const problem = missingKeyMessage(keyEnv, secrets.file);
    return { keyEnv, keySource: null, problem, text: problem };
  } catch (e) {
    const problem = e instanceof HostError ? e.message : `Cannot look up ${keyEnv}.`;
    return { keyEnv, keySource: null, problem, text: problem };
  }
}

export function missingKeyMessage(keyEnv: string, file = `$SEAM_HOME/${SECRETS_FILE}`): string {
  return `No API key found: ${keyEnv} is not set. Export ${keyEnv} before starting Seam, or add "${keyEnv}" to ${file} (mode 0600).`;
}
