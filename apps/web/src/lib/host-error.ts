/** The host's error code on a tRPC error (`conflict:mcp`, `extension_conflict`…), when it sent one. */
export function hostCodeOf(error: unknown): string | null {
  const data = (error as { data?: { hostCode?: unknown } } | null)?.data;
  return typeof data?.hostCode === "string" ? data.hostCode : null;
}
