import type { McpServerConfig, McpSetToolInput } from "@seam/shared";

/**
 * The config with one tool's policy changed (MCP-8). Disabling adds the raw name to `disabledTools` (and takes it
 * out of an `enabledTools` allowlist); enabling takes it out of `disabledTools` (and adds it to an allowlist).
 * `approval: "inherit"` drops the tool's override. Lists keep their order; names are appended.
 */
export function withToolPolicy(config: McpServerConfig, change: Pick<McpSetToolInput, "tool" | "enabled" | "approval">): McpServerConfig {
  const { tool } = change;
  let { enabledTools, disabledTools, toolApproval } = config;
  if (change.enabled === false) {
    disabledTools = disabledTools.includes(tool) ? disabledTools : [...disabledTools, tool];
    if (enabledTools) enabledTools = enabledTools.filter((n) => n !== tool);
  } else if (change.enabled === true) {
    disabledTools = disabledTools.filter((n) => n !== tool);
    if (enabledTools && !enabledTools.includes(tool)) enabledTools = [...enabledTools, tool];
  }
  if (change.approval === "inherit") {
    toolApproval = Object.fromEntries(Object.entries(toolApproval).filter(([n]) => n !== tool));
  } else if (change.approval) {
    toolApproval = { ...toolApproval, [tool]: change.approval };
  }
  return { ...config, ...(enabledTools ? { enabledTools } : {}), disabledTools, toolApproval };
}
