import type { CapabilityRow } from "@seam/shared";
import { toolsOf, type ToolRegistry } from "../agent/registry.js";
import { toolsRow } from "../core/capability-row.js";
import type { Scope } from "../core/scope.js";
import type { ToolDef } from "../agent/tool.js";
import { grepTool } from "./grep.js";
import { listDirTool } from "./list-dir.js";
import { readFileTool } from "./read-file.js";

export interface WorkspaceLimits {
  /** read_file reads at most this many bytes of lines per call (default 256 KiB). */
  readMaxBytes?: number;
  /** read_file shows at most this many characters per call (default 90,000, under the runtime's cap). */
  readMaxChars?: number;
  /** list_dir entry cap (default 1000). */
  listMaxEntries?: number;
  /** grep skips larger files (default 1 MiB). */
  grepMaxFileBytes?: number;
  /** grep stops its search worker and asks the model to narrow the search after this long (default 20 s). */
  grepTimeoutMs?: number;
}

/** The read-only workspace tools (SEC-3): read_file, list_dir, grep. */
export function workspaceTools(limits: WorkspaceLimits = {}): ToolDef[] {
  return [
    grepTool({ maxFileBytes: limits.grepMaxFileBytes, deadlineMs: limits.grepTimeoutMs }),
    listDirTool({ maxEntries: limits.listMaxEntries }),
    readFileTool({ maxBytes: limits.readMaxBytes, maxChars: limits.readMaxChars }),
  ];
}

/** The workspace capability: its tools registered for the host's lifetime, and its overview row. */
export function create(scope: Scope, deps: { registry: ToolRegistry; limits?: WorkspaceLimits }): { status(): CapabilityRow } {
  for (const tool of workspaceTools(deps.limits)) scope.add(deps.registry.register(tool), `tool:${tool.name}`);
  return {
    status() {
      return toolsRow({
        id: "workspace",
        title: "Workspace files (read_file, list_dir, grep)",
        tools: toolsOf(deps.registry, "workspace"),
        ready: "Read-only, contained in each session's workspace.",
        missing: "Workspace tools are not registered.",
      });
    },
  };
}
