import {
  CREDENTIAL_NAME, issuesOf, McpServerConfig, type McpExport, type McpFieldIssue, type McpImportEntry, type McpImportPreview, type McpValue,
} from "@seam/shared";
import { HostError } from "../core/errors.js";

/*
 * Import and export of the `{"mcpServers": {...}}` document that Claude Desktop, Cursor, Cline and
 * Claude Code share (MCP-10). Secrets never pass through (SEC-2): a pasted value whose name or shape
 * looks like a credential becomes an env reference and the preview says which variable to set.
 *
 * Export writes, per server:
 *   stdio: {"command", "args", "env"?, "cwd"?}            http: {"type": "http", "url", "headers"?, "oauth"?}
 *   env refs as "${NAME}" (Claude Code and Cursor expand these; Claude Desktop passes them literally),
 *   bearerTokenEnv as "Authorization": "Bearer ${NAME}", "disabled": true for disabled servers, and
 *   Seam-only settings that differ from the defaults under "seam": {failOnStartupError,
 *   startupTimeoutMs, callTimeoutMs, enabledTools, toolApproval}. The tool policy (MCP-8) in Cline's keys:
 *   "disabledTools", and for a server whose tools ask, "alwaysAllow" = the tools that run without asking
 *   (importing Cline's "alwaysAllow"/"autoApprove" makes the server ask and those tools auto).
 *   Importing an export gives back the same configs.
 */

// ---------------------------------------------------------------------------------------------
// JSON with comments and trailing commas, with line/column errors.

export class JsonSyntaxError extends Error {
  constructor(readonly reason: string, readonly line: number, readonly column: number) {
    super(`${reason} at line ${line}, column ${column}`);
  }
}

const MAX_DEPTH = 64;

/** Parses JSON, also accepting `//` and `/* *\/` comments and trailing commas (JSONC, as in VS Code and Cursor configs). */
export function parseJsonc(text: string): { value: unknown; warnings: string[] } {
  const warnings: string[] = [];
  let i = 0;
  const position = (at: number) => {
    let line = 1;
    let start = 0;
    for (let k = 0; k < at && k < text.length; k++) if (text[k] === "\n") { line++; start = k + 1; }
    return { line, column: at - start + 1 };
  };
  const fail = (reason: string, at = i): never => {
    const p = position(at);
    throw new JsonSyntaxError(reason, p.line, p.column);
  };
  const skip = () => {
    for (;;) {
      const c = text[i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\uFEFF") i++;
      else if (c === "/" && text[i + 1] === "/") { while (i < text.length && text[i] !== "\n") i++; }
      else if (c === "/" && text[i + 1] === "*") {
        const end = text.indexOf("*/", i + 2);
        if (end < 0) fail("Unterminated /* comment");
        i = end + 2;
      } else return;
    }
  };
  const string = (): string => {
    const start = i++;
    let out = "";
    for (;;) {
      const c = text[i];
      if (c === undefined || c === "\n") fail("Unterminated string", start);
      if (c === '"') { i++; return out; }
      if (c! < " ") fail("Control character in a string: escape it");
      if (c !== "\\") { out += c; i++; continue; }
      const e = text[i + 1];
      const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
      if (e !== undefined && e in simple) { out += simple[e]; i += 2; continue; }
      if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) { out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)); i += 6; continue; }
      fail("Invalid escape in string");
    }
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (depth: number): unknown => {
    if (depth > MAX_DEPTH) fail("Nesting is too deep");
    skip();
    const c = text[i];
    if (c === "{") return object(depth);
    if (c === "[") return array(depth);
    if (c === '"') return string();
    for (const [word, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) { i += m[0].length; return Number(m[0]); }
    if (c === undefined) return fail("Unexpected end of input");
    if (c === "'") return fail("Strings must use double quotes");
    return fail(`Unexpected character ${JSON.stringify(c)}`);
  };
  const object = (depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    i++;
    for (;;) {
      skip();
      if (text[i] === "}") { i++; return out; }
      if (text[i] !== '"') fail(text[i] === undefined ? "Unexpected end of input: missing '}'" : "Expected a property name in double quotes");
      const at = position(i);
      const key = string();
      if (seen.has(key)) warnings.push(`Duplicate key "${key}" at line ${at.line}, column ${at.column}: the last one wins.`);
      seen.add(key);
      skip();
      if (text[i] !== ":") fail("Expected ':' after the property name");
      i++;
      // defineProperty: a "__proto__" key stays an ordinary property.
      Object.defineProperty(out, key, { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
      skip();
      if (text[i] === ",") { i++; continue; }
      if (text[i] === "}") { i++; return out; }
      fail(text[i] === undefined ? "Unexpected end of input: missing '}'" : "Expected ',' or '}'");
    }
  };
  const array = (depth: number): unknown[] => {
    const out: unknown[] = [];
    i++;
    for (;;) {
      skip();
      if (text[i] === "]") { i++; return out; }
      out.push(value(depth + 1));
      skip();
      if (text[i] === ",") { i++; continue; }
      if (text[i] === "]") { i++; return out; }
      fail(text[i] === undefined ? "Unexpected end of input: missing ']'" : "Expected ',' or ']'");
    }
  };
  const result = value(0);
  skip();
  if (i < text.length) fail("Unexpected text after the JSON value");
  return { value: result, warnings };
}

// ---------------------------------------------------------------------------------------------
// One pasted entry → McpServerConfig.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** `${NAME}`, `${env:NAME}` or `$NAME`: a reference to a host environment variable. */
const ENV_REF = /^\$(?:\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/;
const envRefOf = (v: string): string | undefined => {
  const m = ENV_REF.exec(v.trim());
  return m ? (m[1] ?? m[2]) : undefined;
};
/** Values that are credentials whatever their name says (common token prefixes). */
const SECRET_VALUE = /^(?:sk-|sk_|ghp_|gho_|ghs_|github_pat_|glpat-|xox[abprs]-|AKIA[0-9A-Z]{12}|AIza|eyJ[A-Za-z0-9_-]{10,}\.)/;
const looksSecret = (name: string, value: string) => CREDENTIAL_NAME.test(name) || SECRET_VALUE.test(value.trim());
/** An env var name derived from a header or server name: `X-Api-Key` → `X_API_KEY`. */
const envNameFor = (...parts: string[]) => {
  const s = parts.join("_").toUpperCase().replace(/[^A-Z0-9_]+/g, "_").replace(/_+/g, "_").replace(/^_|_$/g, "");
  return /^[A-Z_]/.test(s) ? s : `MCP_${s}`;
};

const KNOWN = new Set([
  "command", "args", "env", "cwd", "url", "serverUrl", "headers", "type", "transport", "disabled", "enabled", "timeout", "seam",
  "disabledTools", "alwaysAllow", "autoApprove", "oauth",
]);
const TRANSPORT_TYPES: Record<string, "stdio" | "http" | "sse"> = {
  stdio: "stdio", http: "http", "streamable-http": "http", streamablehttp: "http", streamable_http: "http", sse: "sse",
};

interface Mapped { config: unknown; warnings: string[]; errors: McpFieldIssue[] }

/** Maps one `{command,…}` / `{url,…}` entry to a candidate McpServerConfig (validated afterwards). */
export function mapEntry(name: string, raw: unknown): Mapped {
  const warnings: string[] = [];
  const errors: McpFieldIssue[] = [];
  const error = (path: string, message: string) => { errors.push({ path, message }); };
  if (!isObj(raw)) {
    error("", 'Expected an object like {"command": "…", "args": […]} or {"url": "…"}');
    return { config: null, warnings, errors };
  }
  const ignored = Object.keys(raw).filter((k) => !KNOWN.has(k));
  if (ignored.length) warnings.push(`Ignored (not used by Seam): ${ignored.join(", ")}.`);

  const str = (key: string): string | undefined => {
    const v = raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === "string") return v;
    error(key, `${key} must be a string`);
    return undefined;
  };
  const url = str("url") ?? str("serverUrl");
  const command = str("command");
  const typeRaw = raw.type ?? raw.transport;
  let type: "stdio" | "http" | "sse" | undefined;
  if (typeRaw !== undefined) {
    type = typeof typeRaw === "string" ? TRANSPORT_TYPES[typeRaw.toLowerCase()] : undefined;
    if (!type) error("type", `Unknown transport type ${JSON.stringify(typeRaw)}: use "stdio" or "http" (Streamable HTTP)`);
  }
  if (type === "sse") {
    error("type", "SSE-only servers are not supported: Seam speaks stdio and Streamable HTTP. If the server also serves Streamable HTTP (often at /mcp), use that URL with type \"http\".");
  }
  if (command !== undefined && url !== undefined) error("", "Give either command (stdio) or url (HTTP), not both");
  if (command === undefined && url === undefined && !errors.length) error("command", "Missing command (stdio) or url (HTTP)");
  if (type === "http" && url === undefined && !errors.length) error("url", "Missing url for an HTTP server");

  const values = (key: "env" | "headers", map: unknown): Record<string, McpValue> => {
    const out: Record<string, McpValue> = {};
    if (map === undefined || map === null) return out;
    if (!isObj(map)) {
      error(key, `${key} must be an object of name → value`);
      return out;
    }
    for (const [k, v] of Object.entries(map)) {
      if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") {
        error(`${key}.${k}`, "must be a string");
        continue;
      }
      const text = String(v);
      const ref = envRefOf(text);
      if (ref) {
        out[k] = { fromEnv: ref };
      } else if (looksSecret(k, text)) {
        const envName = key === "env" ? k : envNameFor(k);
        out[k] = { fromEnv: envName };
        warnings.push(key === "env"
          ? `${envName} will be read from the host environment; the pasted value is not stored.`
          : `Header ${k} will be read from the host environment variable ${envName}; the pasted value is not stored.`);
      } else {
        out[k] = { value: text };
        if (text.includes("${")) warnings.push(`${key === "env" ? "" : "Header "}${k} is passed literally: Seam expands only a whole "\${NAME}" value.`);
      }
    }
    return out;
  };

  let transport: unknown;
  if (url !== undefined && type !== "stdio") {
    const headersRaw = raw.headers;
    let bearerTokenEnv: string | undefined;
    const rest: Obj = {};
    if (isObj(headersRaw)) {
      for (const [k, v] of Object.entries(headersRaw)) {
        const bearer = k.toLowerCase() === "authorization" && typeof v === "string" ? /^Bearer\s+(.+)$/i.exec(v.trim()) : null;
        if (!bearer) { rest[k] = v; continue; }
        const ref = envRefOf(bearer[1]!);
        bearerTokenEnv = ref ?? envNameFor(name, "TOKEN");
        if (!ref) warnings.push(`The pasted bearer token is not stored: set ${bearerTokenEnv} in the host environment (Seam sends it as "Authorization: Bearer …").`);
      }
    }
    if (/\/sse\/?$/.test(url) && type === undefined) warnings.push("The URL ends in /sse, which usually means an SSE-only server; Seam will try Streamable HTTP.");
    transport = { type: "http", url, headers: values("headers", isObj(headersRaw) ? rest : headersRaw), ...(bearerTokenEnv && { bearerTokenEnv }), ...(raw.oauth !== undefined && { oauth: raw.oauth }) };
    if (raw.env !== undefined) warnings.push("Ignored env: it applies to stdio servers only.");
  } else {
    if (raw.oauth !== undefined) warnings.push("Ignored oauth: it applies to HTTP servers only.");
    const args = raw.args;
    let list: string[] = [];
    if (Array.isArray(args)) {
      args.forEach((a, n) => {
        if (typeof a === "string" || typeof a === "number" || typeof a === "boolean") list.push(String(a));
        else error(`args.${n}`, "must be a string");
      });
      if (list.some((a) => /\$\{[^}]+\}/.test(a))) warnings.push("Arguments are passed literally: Seam does not expand ${…} in args.");
    } else if (args !== undefined && args !== null) {
      error("args", "args must be an array of strings");
      list = [];
    }
    const cwd = str("cwd");
    transport = { type: "stdio", command, args: list, env: values("env", raw.env), ...(cwd !== undefined && { cwd }) };
    if (raw.headers !== undefined) warnings.push("Ignored headers: they apply to HTTP servers only.");
  }

  const seam = isObj(raw.seam) ? raw.seam : {};
  if (raw.seam !== undefined && !isObj(raw.seam)) error("seam", "seam must be an object");
  let enabled = true;
  if (typeof raw.disabled === "boolean") enabled = !raw.disabled;
  else if (raw.disabled !== undefined) error("disabled", "disabled must be true or false");
  if (typeof raw.enabled === "boolean") enabled = raw.enabled;
  const timeout = typeof raw.timeout === "number" ? raw.timeout * 1000 : undefined;
  // Cline's tool policy (MCP-8): disabledTools hides tools; alwaysAllow/autoApprove lists the tools that run without
  // asking, which means every other tool of that server asks.
  const names = (key: string, value: unknown): string[] | undefined => {
    if (value === undefined || value === null) return undefined;
    if (Array.isArray(value) && value.every((n) => typeof n === "string")) return value as string[];
    error(key, `${key} must be a list of tool names`);
    return undefined;
  };
  const disabledTools = names("disabledTools", raw.disabledTools);
  const allowed = [names("alwaysAllow", raw.alwaysAllow), names("autoApprove", raw.autoApprove)].filter((l): l is string[] => l !== undefined);
  const enabledTools = names("seam.enabledTools", seam.enabledTools);
  let toolApproval: Record<string, unknown> | undefined;
  if (allowed.length) toolApproval = Object.fromEntries([...new Set(allowed.flat())].map((n) => [n, "auto"]));
  if (isObj(seam.toolApproval)) toolApproval = { ...toolApproval, ...seam.toolApproval };
  else if (seam.toolApproval !== undefined) error("seam.toolApproval", "seam.toolApproval must be an object of tool name → \"auto\" or \"ask\"");
  const config = {
    name,
    transport,
    enabled,
    ...(seam.failOnStartupError !== undefined && { failOnStartupError: seam.failOnStartupError }),
    ...(seam.startupTimeoutMs !== undefined && { startupTimeoutMs: seam.startupTimeoutMs }),
    ...((seam.callTimeoutMs ?? timeout) !== undefined && { callTimeoutMs: seam.callTimeoutMs ?? timeout }),
    ...(disabledTools && { disabledTools: [...new Set(disabledTools)] }),
    ...(enabledTools && { enabledTools: [...new Set(enabledTools)] }),
    ...(allowed.length ? { approval: "ask" } : seam.approval !== undefined ? { approval: seam.approval } : {}),
    ...(toolApproval && { toolApproval }),
  };
  return { config, warnings, errors };
}

/** Dotted issue path relative to the pasted entry: `transport.env.X` → `env.X`. */
const issuePath = (path: string) => path.replace(/^transport(\.|$)/, "");

/** A stable comparison key: the parsed config with object keys sorted. */
const canonical = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) =>
  isObj(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x);

/** The fields of `next` that differ from `saved`, named as in the pasted shape. */
function changedFields(saved: McpServerConfig, next: McpServerConfig): string[] {
  const out: string[] = [];
  if (saved.transport.type !== next.transport.type) out.push("transport");
  else {
    const a = saved.transport as Obj;
    const b = next.transport as Obj;
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (canonical(a[k]) !== canonical(b[k])) out.push(k);
  }
  for (const k of ["enabled", "failOnStartupError", "startupTimeoutMs", "callTimeoutMs"] as const) if (saved[k] !== next[k]) out.push(k);
  for (const k of ["enabledTools", "disabledTools", "approval", "toolApproval"] as const) if (canonical(saved[k]) !== canonical(next[k])) out.push(k);
  return out;
}

export const sameConfig = (a: McpServerConfig, b: McpServerConfig) => canonical(a) === canonical(b);
/** Whether Seam reaches both servers the same way (command, args, env, cwd / URL, headers, token): no new try needed (MCP-10). */
export const sameTransport = (a: McpServerConfig, b: McpServerConfig) => canonical(a.transport) === canonical(b.transport);

const MAX_ENTRIES = 200;

/**
 * What importing `text` would do against the `saved` configs. Malformed JSON or an unrecognised
 * document throws bad_input:mcp with the position; problems of single entries are per entry.
 */
export function previewImport(text: string, saved: ReadonlyMap<string, McpServerConfig>): McpImportPreview {
  let doc: { value: unknown; warnings: string[] };
  try {
    doc = parseJsonc(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      throw new HostError("bad_input:mcp", `Not valid JSON: ${error.message}.`, { line: error.line, column: error.column });
    }
    throw error;
  }
  const root = doc.value;
  const warnings = [...doc.warnings];
  if (!isObj(root)) throw new HostError("bad_input:mcp", 'Expected a JSON object like {"mcpServers": {"name": {"command": "…"}}}.');

  let format: McpImportPreview["format"];
  let servers: Obj;
  const key = isObj(root.mcpServers) ? "mcpServers" : isObj(root.servers) ? "servers" : null;
  if (key) {
    format = key;
    servers = root[key] as Obj;
    const other = Object.keys(root).filter((k) => k !== key);
    if (other.length) warnings.push(`Ignored top-level keys: ${other.join(", ")}.`);
  } else if ("mcpServers" in root) {
    throw new HostError("bad_input:mcp", '"mcpServers" must be an object of server name → server config.');
  } else if ("command" in root || "url" in root) {
    throw new HostError("bad_input:mcp", 'This looks like a single server: wrap it as {"mcpServers": {"<name>": …}}.');
  } else if (Object.keys(root).length > 0 && Object.values(root).every(isObj)) {
    format = "bare";
    servers = root;
  } else {
    throw new HostError("bad_input:mcp", 'Expected {"mcpServers": {"name": {"command": "…"}}}: no "mcpServers" object found.');
  }
  const names = Object.keys(servers);
  if (names.length === 0) warnings.push("The document lists no servers.");
  if (names.length > MAX_ENTRIES) throw new HostError("bad_input:mcp", `Too many servers (${names.length}); import at most ${MAX_ENTRIES} at a time.`);

  const entries = names.map((name): McpImportEntry => {
    const mapped = mapEntry(name, servers[name]);
    const invalid = (errors: McpFieldIssue[]): McpImportEntry => ({ name, action: "invalid", config: null, changes: [], warnings: mapped.warnings, errors });
    if (mapped.errors.length) return invalid(mapped.errors);
    const parsed = McpServerConfig.safeParse(mapped.config);
    if (!parsed.success) return invalid(issuesOf(parsed.error).map((i) => ({ path: issuePath(i.path), message: i.message })));
    const config = parsed.data;
    const before = saved.get(config.name);
    if (!before) return { name, action: "add", config, changes: [], warnings: mapped.warnings, errors: [] };
    const changes = changedFields(before, config);
    return { name, action: changes.length ? "update" : "unchanged", config, changes, warnings: mapped.warnings, errors: [] };
  });
  return { format, entries, warnings };
}

// ---------------------------------------------------------------------------------------------
// Export.

const DEFAULTS = McpServerConfig.parse({ name: "x", transport: { type: "stdio", command: "x" } });
const refText = (name: string) => `\${${name}}`;
const valueText = (v: McpValue) => ("fromEnv" in v ? refText(v.fromEnv) : v.value);

/** The configs as a `{"mcpServers": …}` document (see the header of this file for the shape). */
export function exportServers(configs: readonly McpServerConfig[]): McpExport {
  const env = new Set<string>();
  const servers: Obj = {};
  const notes: string[] = [];
  for (const c of configs) {
    const t = c.transport;
    const entry: Obj = {};
    const map = (m: Record<string, McpValue>) => {
      for (const v of Object.values(m)) if ("fromEnv" in v) env.add(v.fromEnv);
      return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, valueText(v)]));
    };
    if (t.type === "stdio") {
      entry.command = t.command;
      entry.args = t.args;
      if (Object.keys(t.env).length) entry.env = map(t.env);
      if (t.cwd !== undefined) entry.cwd = t.cwd;
    } else {
      entry.type = "http";
      entry.url = t.url;
      const headers = map(t.headers);
      if (t.bearerTokenEnv) {
        const clash = Object.keys(headers).find((h) => h.toLowerCase() === "authorization");
        if (clash) {
          delete headers[clash];
          notes.push(`${c.name}: its ${clash} header was replaced by the bearer token header.`);
        }
        headers.Authorization = `Bearer ${refText(t.bearerTokenEnv)}`;
        env.add(t.bearerTokenEnv);
      }
      if (Object.keys(headers).length) entry.headers = headers;
      // OAuth client settings (MCP-11): a client secret is only ever an env reference, so this holds no secret.
      if (t.oauth) entry.oauth = t.oauth;
    }
    if (!c.enabled) entry.disabled = true;
    const seam: Obj = {};
    for (const k of ["failOnStartupError", "startupTimeoutMs", "callTimeoutMs"] as const) if (c[k] !== DEFAULTS[k]) seam[k] = c[k];
    // Tool policy in Cline's words where they reach (disabledTools, alwaysAllow = the tools that do not ask under an
    // asking server); the rest under "seam".
    if (c.disabledTools.length) entry.disabledTools = c.disabledTools;
    if (c.enabledTools) seam.enabledTools = c.enabledTools;
    const overrides = Object.entries(c.toolApproval);
    if (c.approval === "ask") {
      entry.alwaysAllow = overrides.filter(([, a]) => a === "auto").map(([n]) => n);
      const asks = overrides.filter(([, a]) => a === "ask");
      if (asks.length) seam.toolApproval = Object.fromEntries(asks);
    } else if (overrides.length) {
      seam.toolApproval = c.toolApproval;
    }
    if (Object.keys(seam).length) entry.seam = seam;
    servers[c.name] = entry;
  }
  if (env.size) {
    notes.unshift(
      `Secrets are references: set ${[...env].sort().join(", ")} in the environment. Claude Code and Cursor expand "\${NAME}"; ` +
        "for Claude Desktop replace each placeholder with the value in your local copy.",
    );
  }
  if (configs.some((c) => Object.keys(servers[c.name] as Obj).includes("seam"))) {
    notes.push('Seam-only settings are under "seam"; other clients ignore the key (remove it if one complains).');
  }
  return { json: `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`, notes };
}
