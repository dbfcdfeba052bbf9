import type { CapabilityRow, McpServerState, McpServerView } from "@seam/shared";
import { capabilityRow } from "../core/capability-row.js";

/** MCP's overview row: configured = any server saved, visible = any MCP tool registered, ready = every enabled server ready. */
export function mcpStatus(tools: string[], servers: McpServerView[]): CapabilityRow {
  const enabled = servers.filter((s) => s.config.enabled);
  const notReady = enabled.filter((s) => s.status.state !== "ready");
  const note = servers.length === 0
    ? "No MCP servers are configured. Add one on the MCP page."
    : enabled.length === 0
      ? "Every configured MCP server is disabled."
      : notReady.length > 0
        ? `Not ready: ${notReady.map((s) => `${s.config.name} (${problemOf(s.status)})`).join("; ")}.`
        : `${enabled.length} server(s) ready${servers.length > enabled.length ? `, ${servers.length - enabled.length} disabled` : ""}.`;
  return capabilityRow({ id: "mcp", title: "MCP servers", configured: servers.length > 0, ready: enabled.length > 0 && notReady.length === 0, note, tools });
}

/** Why a server is not ready, in a few words. */
function problemOf(s: McpServerState): string {
  switch (s.state) {
    case "connecting": return s.phase === "discovering" ? "discovering tools" : "connecting";
    case "retrying": return `retrying ${s.attempt}/${s.maxAttempts} (${s.lastError})`;
    case "failed": return `failed: ${s.error}`;
    case "stopped": return "stopped: restart it on the MCP page";
    case "needs_authorization": return "needs authorization: sign in on its Authorization tab";
    case "disabled":
    case "ready": return s.state;
  }
}
