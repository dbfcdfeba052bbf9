import { z } from "zod";
import { boundedJsonObject } from "./limits.js";

/** Characters of a server's `initializationOptions` as JSON. */
export const LSP_INIT_OPTIONS_MAX = 100_000;
/** Characters of a server's `settings` as JSON. */
export const LSP_SETTINGS_MAX = 100_000;

/** The closed operation set of the `lsp` tool (LSP-1). */
export const LspOperation = z.enum(["goToDefinition", "findReferences", "goToImplementation", "hover"]);
export type LspOperation = z.infer<typeof LspOperation>;

/** A normalized file extension: lowercase with a leading dot (LSP-2). */
export const LspExtension = z.string().max(32).trim().transform((e) => (e.startsWith(".") ? e : `.${e}`).toLowerCase())
  .pipe(z.string().regex(/^\.[a-z0-9_+-]{1,16}$/, "Use an extension like .ts or py"));

/** One configured language server (LSP-7). The command is resolved at activation (LSP-5). */
export const LspServerConfig = z.strictObject({
  id: z.string().trim().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "Use 1–40 lowercase letters, digits or '-'"),
  label: z.string().trim().max(80).optional(),
  command: z.string().trim().min(1, "Command is required").max(4096),
  args: z.array(z.string().max(4096)).max(100).default([]),
  extensions: z.array(LspExtension).min(1, "Add at least one file extension").max(50),
  /** Sent as `initializationOptions` in `initialize`. */
  initializationOptions: boundedJsonObject({ maxChars: LSP_INIT_OPTIONS_MAX }, '{"tsserver": {…}}').optional(),
  /**
   * The server's settings (LSP-8): `workspace/configuration` is answered by dotted section from it
   * (`"python.analysis"` → `settings.python.analysis`), and it is pushed with `workspace/didChangeConfiguration`.
   */
  settings: boundedJsonObject({ maxChars: LSP_SETTINGS_MAX }, '{"python": {"analysis": {…}}}').optional(),
  enabled: z.boolean().default(true),
  /** A workspace's server shuts down after this long without queries. */
  idleTimeoutMs: z.number().int().min(10_000).max(86_400_000).default(600_000),
});
export type LspServerConfig = z.infer<typeof LspServerConfig>;
export type LspServerConfigInput = z.input<typeof LspServerConfig>;

export const LspSettings = z.strictObject({ servers: z.array(LspServerConfig).max(50) });
export type LspSettings = z.infer<typeof LspSettings>;

/** One pooled server process for (server, canonical workspace) (LSP-4). */
export const LspProcessView = z.object({
  serverId: z.string(),
  workspace: z.string(),
  state: z.enum(["starting", "ready", "stopping", "stopped", "failed"]),
  pid: z.number().int().nullable(),
  /** Replacements after transport failures since this workspace's first start. */
  restarts: z.number().int(),
  startedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastError: z.string().nullable(),
  stderrTail: z.string(),
});
export type LspProcessView = z.infer<typeof LspProcessView>;

export const LspServerView = z.object({
  config: LspServerConfig,
  /** The command resolved to an executable and the routes are registered. */
  active: z.boolean(),
  /** Why not, in words (command not found, extension conflict…). */
  problem: z.string().nullable(),
  processes: z.array(LspProcessView),
});
export type LspServerView = z.infer<typeof LspServerView>;

/** A ready-made configuration the settings page offers (TypeScript/JavaScript, Python, Bash). */
export const LspPreset = z.object({
  id: z.string(),
  label: z.string(),
  config: LspServerConfig,
  /** Whether its command resolves on this machine now. */
  available: z.boolean(),
  /** How to install it when it does not. */
  hint: z.string().nullable(),
});
export type LspPreset = z.infer<typeof LspPreset>;

export const LspServerRef = z.object({ id: z.string().min(1).max(40) });
export const LspRestartInput = z.object({ id: z.string().min(1).max(40), workspace: z.string().min(1).max(4096).optional() });
export const LspUpdateInput = z.object({ id: z.string().min(1).max(40), config: LspServerConfig });
