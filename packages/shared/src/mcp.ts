import { z } from "zod";
import { atMostEntries, envVarName, URL_MAX } from "./limits.js";
import { McpOAuthSettings } from "./mcp-oauth.js";

const envName = envVarName("GITHUB_TOKEN");
/** Most environment variables and headers in one server config. */
export const MCP_ENV_MAX = 200;
export const MCP_HEADERS_MAX = 100;

/** Looks like a credential: its value must come from the host environment, never be stored (SEC-2). */
export const CREDENTIAL_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|PRIVATE/i;

/** A value given inline (non-secret) or read from a host environment variable at connect time. */
export const McpValue = z.union([
  z.strictObject({ value: z.string().max(8192) }),
  z.strictObject({ fromEnv: envName }),
]);
export type McpValue = z.infer<typeof McpValue>;

/** Names and values that look like secrets must be env references (MCP-8, SEC-2). */
const secretsAsReferences = (what: string) => (map: Record<string, McpValue>, ctx: z.RefinementCtx) => {
  for (const [name, v] of Object.entries(map)) {
    if ("value" in v && CREDENTIAL_NAME.test(name)) {
      ctx.addIssue({ code: "custom", path: [name], message: `${what} ${name} looks like a secret: reference an environment variable instead of storing its value` });
    }
  }
};

export const McpServerName = z.string().trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/, "Use 1–48 letters, digits, '-' or '_', starting with a letter or digit");

export const McpStdioTransport = z.strictObject({
  type: z.literal("stdio"),
  command: z.string().trim().min(1, "Command is required").max(4096),
  args: z.array(z.string().max(8192)).max(200).default([]),
  env: z.record(envName, McpValue).superRefine(atMostEntries(MCP_ENV_MAX, "environment variables")).default({})
    .superRefine(secretsAsReferences("Environment variable")),
  cwd: z.string().trim().max(4096).optional(),
});

export const McpHttpTransport = z.strictObject({
  type: z.literal("http"),
  url: z.url({ protocol: /^https?$/, error: "Enter an http(s) URL, e.g. http://127.0.0.1:3001/mcp" }).max(URL_MAX),
  headers: z.record(z.string().regex(/^[A-Za-z0-9-]{1,100}$/, "Invalid header name"), McpValue)
    .superRefine(atMostEntries(MCP_HEADERS_MAX, "headers")).default({}).superRefine(secretsAsReferences("Header")),
  /** Sent as `Authorization: Bearer <value of this env var>`. */
  bearerTokenEnv: envName.optional(),
  /** OAuth client settings (MCP-11): pre-registered client, metadata document, fallback scope. */
  oauth: McpOAuthSettings.optional(),
});

export const McpTransport = z.discriminatedUnion("type", [McpStdioTransport, McpHttpTransport]);
export type McpTransport = z.infer<typeof McpTransport>;

/** Whether a call asks a person first (MCP-8): `auto` leaves it to the session's mode and rules, `ask` always asks (PERM-3). */
export const McpApproval = z.enum(["auto", "ask"]);
export type McpApproval = z.infer<typeof McpApproval>;

/** Raw tool names as the server lists them (policy lists keep names the server does not list, flagged in the UI). */
const RawToolName = z.string().min(1, "Tool names must not be empty").max(1_024);
const toolNames = (what: string) => z.array(RawToolName).max(2_000, `At most 2,000 ${what}`)
  .refine((names) => new Set(names).size === names.length, `Each tool may appear once in ${what}`);

export const McpServerConfig = z.strictObject({
  name: McpServerName,
  transport: McpTransport,
  enabled: z.boolean().default(true),
  /** Activation fails (and rolls back) when the first connection or discovery fails (MCP-3). */
  failOnStartupError: z.boolean().default(false),
  /** How long activation waits for the first connection and full discovery. */
  startupTimeoutMs: z.number().int().min(1_000).max(600_000).default(30_000),
  callTimeoutMs: z.number().int().min(1_000).max(3_600_000).default(120_000),
  /** Allowlist of raw tool names (MCP-8): when set, only these are given to the model. */
  enabledTools: toolNames("enabledTools").optional(),
  /** Denylist of raw tool names: never given to the model (invisible, not in tool_search). */
  disabledTools: toolNames("disabledTools").default([]),
  /** The server's default approval for its tools. */
  approval: McpApproval.default("auto"),
  /** Per-tool overrides of `approval`, by raw tool name. */
  toolApproval: z.record(RawToolName, McpApproval).superRefine(atMostEntries(2_000, "tool approvals")).default({}),
});
export type McpServerConfig = z.infer<typeof McpServerConfig>;
export type McpServerConfigInput = z.input<typeof McpServerConfig>;

/** Live state of one server (MCP-5, MCP-10). Times are ISO strings. */
export const McpServerState = z.discriminatedUnion("state", [
  z.object({ state: z.literal("disabled") }),
  z.object({ state: z.literal("connecting"), phase: z.enum(["connecting", "discovering"]) }),
  z.object({ state: z.literal("ready"), since: z.string() }),
  z.object({ state: z.literal("retrying"), attempt: z.number().int(), maxAttempts: z.number().int(), nextRetryAt: z.string(), lastError: z.string() }),
  z.object({ state: z.literal("failed"), error: z.string() }),
  z.object({ state: z.literal("stopped") }),
  /** The server answered 401 (MCP-11): no retries until someone signs in on the Authorization tab. */
  z.object({ state: z.literal("needs_authorization"), reason: z.string() }),
]);
export type McpServerState = z.infer<typeof McpServerState>;

export const McpToolInfo = z.object({
  publicName: z.string(),
  rawName: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).nullable(),
  /** Given to the model (the server's enabledTools/disabledTools allow it). */
  enabled: z.boolean(),
  /** The effective approval (the tool's override, else the server's default). */
  approval: McpApproval,
  /** `annotations.readOnlyHint: true`: the tool's effect is `read` (PERM-1). */
  readOnly: z.boolean(),
});
export type McpToolInfo = z.infer<typeof McpToolInfo>;

export const McpServerView = z.object({
  config: McpServerConfig,
  status: McpServerState,
  /** Increments on every successful tool-list swap; 0 before the first. */
  generation: z.number().int(),
  tools: z.array(McpToolInfo),
  /** Tools are registered for the model right now. */
  toolsRegistered: z.boolean(),
  instructions: z.string().nullable(),
  stderrTail: z.string(),
  /** Server name/version as reported at initialize. */
  /** What the server says it is, and the protocol version negotiated with it (MCP-14). */
  serverInfo: z.object({ name: z.string(), version: z.string(), protocolVersion: z.string().optional() }).nullable(),
  /**
   * What the live connection offers besides tools (MCP-9): `resources`/`prompts` from the server's initialize
   * capabilities; `revision` grows on every resources or prompts list_changed, so a page refetches. Absent when not connected.
   */
  features: z.object({ resources: z.boolean(), prompts: z.boolean(), revision: z.number().int() }).optional(),
});
export type McpServerView = z.infer<typeof McpServerView>;

/** The policy part of a config (MCP-8): what changes without reconnecting. */
export const MCP_POLICY_FIELDS = ["enabledTools", "disabledTools", "approval", "toolApproval"] as const;

/** Whether the server's enabledTools/disabledTools give the raw tool `name` to the model. */
export const mcpToolEnabled = (config: Pick<McpServerConfig, "enabledTools" | "disabledTools">, name: string): boolean =>
  !config.disabledTools.includes(name) && (config.enabledTools === undefined || config.enabledTools.includes(name));

/** The approval that applies to the raw tool `name`: its override, else the server's default. */
export const mcpToolApproval = (config: Pick<McpServerConfig, "approval" | "toolApproval">, name: string): McpApproval =>
  Object.hasOwn(config.toolApproval, name) ? config.toolApproval[name]! : config.approval;
