import type { CapabilitiesApi } from "./capabilities.js";
import type { TurnsApi as CheckpointsApi } from "./checkpoints/turns.js";
import type { Api as SessionsApi } from "./agent/session.js";
import type { ToolsApi } from "./agent/registry.js";
import type { HostInfo } from "./core/info.js";
import type { LiveSources } from "./core/live.js";
import type { ProcessesApi } from "./core/process.js";
import type { Api as ExtensionsApi } from "./extensions/extensions.js";
import type { Api as LspApi } from "./lsp/lsp.js";
import type { Api as McpApi, OAuthApi as McpOAuthApi } from "./mcp/mcp.js";
import type { Api as PermissionsApi } from "./permissions/permissions.js";
import type { Api as ModelApi } from "./settings/model.js";
import type { Api as ShellApi } from "./shell/shell.js";
import type { Api as SkillsApi } from "./skills/skills.js";
import type { Api as WebApi } from "./web/web.js";
import type { Readiness } from "./persistence/readiness.js";

/**
 * What the tRPC layer may call (STYLE §5): each capability's own `Api`, composed. Types flow one way:
 * capabilities never import this file. Adding a capability = its folder, one line here and in host.ts, its router.
 */
export interface HostApi {
  sessions: SessionsApi;
  tools: ToolsApi;
  settings: ModelApi;
  capabilities: CapabilitiesApi;
  processes: ProcessesApi;
  mcp: McpApi;
  web: WebApi;
  skills: SkillsApi;
  lsp: LspApi;
  extensions: ExtensionsApi;
  permissions: PermissionsApi;
  shell: ShellApi;
  checkpoints: CheckpointsApi;
  /** OAuth of Streamable HTTP MCP servers (MCP-11): the Authorization tab and the loopback callback. */
  mcpOAuth: McpOAuthApi;
  /** Every live topic's source (`live.stream`). */
  live: LiveSources;
  info(): HostInfo;
  /** Readiness for `GET /readyz` (SCALE-4): the database answers and its migrations are applied; not while shutting down. */
  ready(): Promise<Readiness>;
}
