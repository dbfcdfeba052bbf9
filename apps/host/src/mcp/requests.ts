import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { HostError, isHostError, messageOf } from "../core/errors.js";
import type { LiveServer } from "./live-server.js";

/** The server must have said it offers `what` at initialize (MCP-9); otherwise a clear refusal naming the server. */
export function requireCapability(live: LiveServer, what: "resources" | "prompts"): void {
  if (live.capabilities[what]) return;
  throw new HostError("unavailable:mcp", `The MCP server "${live.name}" does not offer ${what}: its initialize capabilities do not include "${what}".`, {
    reason: what === "resources" ? "no_resources" : "no_prompts", name: live.name,
  });
}

/** What a failed resources/prompts request tells the user: the server's own words, by JSON-RPC code. */
export function requestFailure(live: LiveServer, doing: string, error: unknown): HostError {
  if (isHostError(error)) return error;
  const name = live.name;
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
    return new HostError("unavailable:mcp", `The connection to the MCP server "${name}" was lost while ${doing}. Try again once it is ready.`, { reason: "generation_unavailable" }, { cause: error });
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new HostError("timeout:mcp", `The MCP server "${name}" did not answer within ${live.timeoutMs / 1000} s while ${doing}.`, { reason: "timeout" }, { cause: error });
  }
  if (error instanceof ProtocolError) {
    const said = error.message.replace(/^(MCP error -?\d+: )+/, "");
    // -32002 is the spec's "resource not found"; -32602 is what many servers send for an unknown URI or prompt.
    if (error.code === -32002) return new HostError("not_found:mcp", `The MCP server "${name}" has no such resource (${doing}): ${said}`, { reason: "resource_not_found", rpcCode: error.code }, { cause: error });
    if (error.code === ProtocolErrorCode.InvalidParams) return new HostError("bad_input:mcp", `The MCP server "${name}" refused the request (${doing}): ${said}`, { reason: "mcp_invalid_params", rpcCode: error.code }, { cause: error });
    if (error.code === ProtocolErrorCode.MethodNotFound) return new HostError("unavailable:mcp", `The MCP server "${name}" does not support this (${doing}): ${said}`, { reason: "method_not_found", rpcCode: error.code }, { cause: error });
    return new HostError("unavailable:mcp", `The MCP server "${name}" failed while ${doing}: ${said}`, { reason: "mcp_request_failed", rpcCode: error.code }, { cause: error });
  }
  return new HostError("unavailable:mcp", `The request to the MCP server "${name}" failed while ${doing}: ${messageOf(error)}`, { reason: "mcp_request_failed" }, { cause: error });
}

/** What one request is sent with: its own signal (aborted with the connection) and the server's call timeout. */
export interface RequestOptions { signal: AbortSignal; timeout: number }

/**
 * Runs one request, mapping its failure. Each request gets its own signal, tied to the connection's abort for
 * its duration only: the SDK never removes the listener it adds to a request's signal, so handing it the
 * long-lived connection signal would keep a closure per request alive until the connection ends.
 */
export async function request<T>(live: LiveServer, doing: string, fn: (options: RequestOptions) => Promise<T>): Promise<T> {
  const own = new AbortController();
  const connection = live.connection.abort.signal;
  const onAbort = () => own.abort(connection.reason);
  if (connection.aborted) onAbort();
  else connection.addEventListener("abort", onAbort, { once: true });
  try {
    return await fn({ signal: own.signal, timeout: live.timeoutMs });
  } catch (error) {
    throw requestFailure(live, doing, error);
  } finally {
    connection.removeEventListener("abort", onAbort);
  }
}

export const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** Most pages a listing follows before it stops (a server that pages forever). */
export const MAX_PAGES = 50;
