import type { McpServerState } from "@seam/shared";
import { ProtocolError, SdkError, SdkErrorCode, UrlElicitationRequiredError } from "@modelcontextprotocol/client";
import { HostError, messageOf } from "../core/errors.js";
import type { Connection } from "./connection.js";
import { requestToolCall, withRequestSignal } from "./client-surface.js";
import type { CallContext } from "./surface-types.js";
import { isAuthError } from "./oauth/provider.js";

/** The refusal while no generation can serve calls: the model reads it and may try later (MCP-5). */
export function notConnected(name: string, rawName: string, status: McpServerState): HostError {
  const why = status.state === "retrying" ? ` It is reconnecting (attempt ${status.attempt}/${status.maxAttempts}).` : "";
  return new HostError("unavailable:mcp", `The MCP server "${name}" is not connected right now, so ${rawName} cannot run.${why} Try again later or use another tool.`, {
    reason: "generation_unavailable",
  });
}

/**
 * tools/call on a live connection. Failures become HostErrors the model can act on; a failure that is
 * not a JSON-RPC answer on an HTTP connection is reported to `lost` as an outage.
 */
export async function callTool(
  conn: Connection, name: string, rawName: string, args: Record<string, unknown>, signal: AbortSignal, callTimeoutMs: number, lost: (reason: string) => void,
  call?: CallContext,
): Promise<unknown> {
  for (let round = 0; ; round++) {
    try {
      // The runtime's deadline (callTimeoutMs, restarted by progress) is authoritative; the SDK's own timer is only a backstop.
      // Every call carries a progress token; its reports reach the call's card (MCP-12).
      return await withRequestSignal(signal, (own) => requestToolCall(conn.client, rawName, args, own, callTimeoutMs, call));
    } catch (error) {
      // -32042: the server needs the person to finish a step in the browser first (URL elicitation, MCP-12). Each URL
      // is asked like any request for input; once all are accepted the call goes again, once.
      if (round === 0 && error instanceof UrlElicitationRequiredError && conn.surface && !signal.aborted) {
        const refused = await askUrls(conn, error, signal);
        if (!refused) continue;
        throw new HostError("denied:mcp", `The MCP server "${name}" needs the user to complete a step in the browser (${refused.url}) before ${rawName} can run, and it was ${refused.action === "decline" ? "declined" : "cancelled"}.`, {
          reason: "elicitation_refused",
        }, { cause: error });
      }
      throw callFailure(conn, name, rawName, error, signal, lost);
    }
  }
}

/** Asks each URL of a -32042 answer in turn; the first one not accepted, or undefined when all were. */
async function askUrls(conn: Connection, error: UrlElicitationRequiredError, signal: AbortSignal): Promise<{ url: string; action: string } | undefined> {
  for (const e of error.elicitations) {
    const reply = await conn.surface!.elicit({ mode: "url", message: e.message, url: e.url, elicitationId: e.elicitationId }, signal);
    if (reply.action !== "accept") return { url: e.url, action: reply.action };
  }
  return undefined;
}

function callFailure(conn: Connection, name: string, rawName: string, error: unknown, signal: AbortSignal, lost: (reason: string) => void): HostError {
  if (signal.aborted) return new HostError("closed:mcp", `The call to ${rawName} was cancelled.`, { reason: "cancelled" }, { cause: error });
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
    return new HostError("unavailable:mcp", `The connection to the MCP server "${name}" was lost during the call to ${rawName}.`, { reason: "generation_unavailable" }, { cause: error });
  }
  if (isAuthError(error) && conn.handle.stepUpPending) {
    // A step-up keeps the connection (other tools still work); otherwise the sign-in is gone: reconnect, which shows "needs authorization".
    if (conn.handle.stepUpPending()) {
      return new HostError("denied:mcp", `The MCP server "${name}" needs more permissions for ${rawName}. Ask the user to sign in again on the server's Authorization tab (MCP page), then retry.`, { reason: "needs_authorization" }, { cause: error });
    }
    lost("the server requires a new sign-in");
    return new HostError("denied:mcp", `The MCP server "${name}" requires a new sign-in, so ${rawName} did not run. Ask the user to press Authorize on the server's Authorization tab (MCP page).`, { reason: "needs_authorization" }, { cause: error });
  }
  if (error instanceof ProtocolError) {
    return new HostError("unavailable:mcp", `The MCP server "${name}" rejected the call to ${rawName}: ${error.message}`, { reason: "mcp_request_failed", rpcCode: error.code }, { cause: error });
  }
  // Not a JSON-RPC answer: the transport failed (HTTP error, dropped session). Treat it as an outage.
  if (conn.handle.kind === "http") lost(`request failed: ${messageOf(error)}`);
  return new HostError("unavailable:mcp", `The call to ${rawName} failed on the way to the MCP server "${name}": ${messageOf(error)}`, { reason: "generation_unavailable" }, { cause: error });
}
