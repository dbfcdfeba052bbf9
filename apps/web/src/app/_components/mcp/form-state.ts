import { CREDENTIAL_NAME, McpServerConfig, type McpValue } from "@seam/shared";

/** One env / header row: a plain value, or the name of a host environment variable. */
export interface KvRow {
  id: string;
  key: string;
  mode: "value" | "env";
  value: string;
}

export interface ServerDraft {
  name: string;
  transport: "stdio" | "http";
  command: string;
  /** One argument per line. */
  args: string;
  cwd: string;
  env: KvRow[];
  url: string;
  headers: KvRow[];
  bearerTokenEnv: string;
  enabled: boolean;
  failOnStartupError: boolean;
  /** Seconds, as typed. */
  startupTimeout: string;
  callTimeout: string;
  /** The tool policy (MCP-8), edited in the server's tool table, not in the form: carried through an edit unchanged. */
  policy: Pick<McpServerConfig, "enabledTools" | "disabledTools" | "approval" | "toolApproval"> | null;
  /**
   * An HTTP server's OAuth client (MCP-11): the fields below are edited here; the rest of `oauth` (grant, private key,
   * identity provider, issuer leniency — set through Import JSON) is carried through an edit unchanged.
   */
  oauth?: Extract<McpServerConfig["transport"], { type: "http" }>["oauth"];
  oauthClientId: string;
  oauthClientSecretEnv: string;
  oauthClientMetadataUrl: string;
  oauthScope: string;
}

/** The OAuth fields of the form and the settings key each one edits. */
const OAUTH_FIELDS = {
  oauthClientId: "clientId",
  oauthClientSecretEnv: "clientSecretEnv",
  oauthClientMetadataUrl: "clientMetadataUrl",
  oauthScope: "scope",
} as const;
type OAuthField = keyof typeof OAUTH_FIELDS;

/** Field → message. Rows use `env:<id>` / `headers:<id>`. */
export type DraftErrors = Record<string, string>;

let rowIds = 0;
export const newRow = (key = "", mode: KvRow["mode"] = "value", value = ""): KvRow => ({ id: `r${++rowIds}`, key, mode, value });

const rowsFrom = (m: Record<string, McpValue>): KvRow[] =>
  Object.entries(m).map(([k, v]) => ("fromEnv" in v ? newRow(k, "env", v.fromEnv) : newRow(k, "value", v.value)));

export function emptyDraft(): ServerDraft {
  return {
    name: "", transport: "stdio", command: "", args: "", cwd: "", env: [], url: "", headers: [], bearerTokenEnv: "",
    oauthClientId: "", oauthClientSecretEnv: "", oauthClientMetadataUrl: "", oauthScope: "",
    enabled: true, failOnStartupError: false, startupTimeout: "30", callTimeout: "120", policy: null,
  };
}

export function draftFrom(c: McpServerConfig): ServerDraft {
  const policy = { ...(c.enabledTools ? { enabledTools: c.enabledTools } : {}), disabledTools: c.disabledTools, approval: c.approval, toolApproval: c.toolApproval };
  const d = { ...emptyDraft(), name: c.name, enabled: c.enabled, failOnStartupError: c.failOnStartupError, policy };
  d.startupTimeout = String(c.startupTimeoutMs / 1000);
  d.callTimeout = String(c.callTimeoutMs / 1000);
  if (c.transport.type === "stdio") {
    return { ...d, transport: "stdio", command: c.transport.command, args: c.transport.args.join("\n"), cwd: c.transport.cwd ?? "", env: rowsFrom(c.transport.env) };
  }
  const o = c.transport.oauth;
  return {
    ...d, transport: "http", url: c.transport.url, headers: rowsFrom(c.transport.headers), bearerTokenEnv: c.transport.bearerTokenEnv ?? "", oauth: o,
    oauthClientId: o?.clientId ?? "", oauthClientSecretEnv: o?.clientSecretEnv ?? "", oauthClientMetadataUrl: o?.clientMetadataUrl ?? "", oauthScope: o?.scope ?? "",
  };
}

/** The form's OAuth fields over the carried settings; empty fields drop their key, and no keys at all drop `oauth`. */
function oauthOf(d: ServerDraft): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = { ...d.oauth };
  for (const [field, key] of Object.entries(OAUTH_FIELDS) as [OAuthField, string][]) {
    const v = d[field].trim();
    if (v) out[key] = v;
    else delete out[key];
  }
  return Object.keys(out).length ? out : undefined;
}

/** A header name as an env var name: `X-Api-Key` → `X_API_KEY`. */
export const envNameFor = (key: string) => key.toUpperCase().replace(/[^A-Z0-9_]+/g, "_").replace(/^_+|_+$/g, "") || "SECRET";

/** The row looks like a secret but holds a plain value: the schema will refuse it. */
export const needsEnvRef = (row: KvRow) => row.mode === "value" && row.key.trim() !== "" && CREDENTIAL_NAME.test(row.key.trim());

const seconds = (text: string) => (text.trim() === "" ? undefined : Math.round(Number(text) * 1000));

/**
 * Validates the draft with the shared schema (the one the host applies) and returns the config
 * to send, or an error per field. `taken` lists the names already configured.
 */
export function parseDraft(d: ServerDraft, taken: readonly string[]): { ok: true; value: McpServerConfig } | { ok: false; errors: DraftErrors } {
  const errors: DraftErrors = {};
  const rows = (field: "env" | "headers", list: KvRow[]) => {
    const out: Record<string, McpValue> = {};
    const seen = new Set<string>();
    for (const r of list) {
      const key = r.key.trim();
      if (!key && !r.value.trim()) continue;
      if (!key) { errors[`${field}:${r.id}`] = "Enter a name"; continue; }
      if (seen.has(key)) { errors[`${field}:${r.id}`] = `${key} is listed twice`; continue; }
      seen.add(key);
      if (r.mode === "env" && !r.value.trim()) { errors[`${field}:${r.id}`] = "Enter the environment variable to read"; continue; }
      out[key] = r.mode === "env" ? { fromEnv: r.value.trim() } : { value: r.value };
    }
    return out;
  };
  const transport = d.transport === "stdio"
    ? {
      type: "stdio" as const,
      command: d.command,
      args: d.args.split("\n").map((a) => a.trim()).filter(Boolean),
      env: rows("env", d.env),
      ...(d.cwd.trim() && { cwd: d.cwd.trim() }),
    }
    : {
      type: "http" as const,
      url: d.url.trim(),
      headers: rows("headers", d.headers),
      ...(d.bearerTokenEnv.trim() && { bearerTokenEnv: d.bearerTokenEnv.trim() }),
      ...(oauthOf(d) && { oauth: oauthOf(d) }),
    };
  const candidate = {
    name: d.name,
    transport,
    enabled: d.enabled,
    failOnStartupError: d.failOnStartupError,
    startupTimeoutMs: seconds(d.startupTimeout),
    callTimeoutMs: seconds(d.callTimeout),
    ...d.policy,
  };
  if (d.name.trim() && taken.includes(d.name.trim())) errors.name = `A server named "${d.name.trim()}" already exists`;
  const parsed = McpServerConfig.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [head, field, key] = issue.path.map(String);
      let at = head ?? "form";
      let message = issue.message;
      if (head === "transport") at = field === "env" || field === "headers" ? rowKey(field, key, field === "env" ? d.env : d.headers) : field ?? "form";
      if (head === "transport" && field === "oauth") at = oauthSlot(key);
      if (head === "startupTimeoutMs") { at = "startupTimeout"; message = "Startup timeout must be 1–600 seconds"; }
      if (head === "callTimeoutMs") { at = "callTimeout"; message = "Call timeout must be 1–3600 seconds"; }
      errors[at] ??= message;
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value: parsed.data! };
}

/** The error slot of the row whose key is `key`. */
function rowKey(field: "env" | "headers", key: string | undefined, list: KvRow[]): string {
  const row = list.find((r) => r.key.trim() === key);
  return row ? `${field}:${row.id}` : field;
}

/** The form field of an OAuth settings key; settings without a field of their own (set through Import JSON) show on the client id. */
function oauthSlot(key: string | undefined): string {
  const hit = (Object.entries(OAUTH_FIELDS) as [OAuthField, string][]).find(([, k]) => k === key);
  return hit ? hit[0] : "oauthClientId";
}
