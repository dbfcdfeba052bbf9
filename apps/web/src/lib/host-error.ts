import { FieldIssue, McpProbeFailure } from "@seam/shared";

/**
 * Reads what the host puts in a tRPC error's `data` (apps/host/src/trpc/trpc.ts): the open host code,
 * the validation issues field by field, and the log ref of a failure whose details stay in the host log.
 */
interface HostErrorData { hostCode?: unknown; issues?: unknown; ref?: unknown; mcpProbe?: unknown }

const dataOf = (error: unknown): HostErrorData | null => {
  const data = (error as { data?: unknown } | null)?.data;
  return typeof data === "object" && data !== null ? (data as HostErrorData) : null;
};

/** The host code (`conflict:mcp`, `provider_setting_conflict`…), when the host sent one. */
export function hostCodeOf(error: unknown): string | null {
  const code = dataOf(error)?.hostCode;
  return typeof code === "string" ? code : null;
}

/** The validation issues (`{path: "config.command", message}`), empty when there are none. */
export function hostIssuesOf(error: unknown): FieldIssue[] {
  const parsed = FieldIssue.array().safeParse(dataOf(error)?.issues);
  return parsed.success ? parsed.data : [];
}

/** The ref of the host log line with the details of a concealed failure. */
export function hostRefOf(error: unknown): string | null {
  const ref = dataOf(error)?.ref;
  return typeof ref === "string" ? ref : null;
}

/** The failed try of an MCP server before saving it (MCP-10): step, reason, message and stderr tail. */
export function hostProbeOf(error: unknown): McpProbeFailure | null {
  const parsed = McpProbeFailure.safeParse(dataOf(error)?.mcpProbe);
  return parsed.success ? parsed.data : null;
}
