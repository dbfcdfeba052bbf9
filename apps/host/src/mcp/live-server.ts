import type { ToolResult } from "../agent/tool.js";
import type { Connection } from "./connection.js";

/**
 * A server's live connection as the resources, prompts and "try a tool" surfaces use it (MCP-9): only while
 * the server is ready. Obtained from the hub per request (`hub.live(name)`), never kept: a reconnect replaces it.
 */
export interface LiveServer {
  name: string;
  connection: Connection;
  /** From the server's initialize capabilities. */
  capabilities: { resources: boolean; prompts: boolean };
  /** Per-request deadline for resources/prompts requests (the server's `callTimeoutMs`). */
  timeoutMs: number;
  /**
   * tools/call for a tool of the current listing, through the bridge's own path (argument check, call, canonical
   * result), whether or not the policy gives it to the model: the user tries it by hand.
   */
  tryTool(rawName: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult>;
}
