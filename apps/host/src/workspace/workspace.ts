import type { CapabilityRow } from "@seam/shared";
import { toolsOf, type ToolRegistry } from "../agent/registry.js";
import { toolsRow } from "../core/capability-row.js";
import { createLog, type Log } from "../core/log.js";
import type { Scope } from "../core/scope.js";
import type { ToolDef } from "../agent/tool.js";
import type { AfterWrite } from "./change.js";
import { editFileTool } from "./edit-file.js";
import { globTool } from "./glob-tool.js";
import { grepTool } from "./grep.js";
import { createLedger, type Ledger } from "./ledger.js";
import { listDirTool } from "./list-dir.js";
import { readFileTool } from "./read-file.js";
import { writeFileTool } from "./write-file.js";

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
  /** write_file and edit_file refuse larger files and content (default 5 MiB). */
  writeMaxBytes?: number;
  /** The canonical diff of a write or edit is cut here (default 200,000 characters). */
  diffMaxChars?: number;
  /** glob result cap (default 1000). */
  globMaxResults?: number;
}

export interface WorkspaceHooks {
  /** Awaited after every successful write_file/edit_file; its errors are logged, never fail the tool. */
  afterWrite?: AfterWrite;
  log?: Log;
}

/**
 * The workspace tools (SEC-3, CODE-1, CODE-2): read_file, list_dir, grep, glob (read) and write_file,
 * edit_file (write). read_file records what each session saw in `ledger`; the write tools check it.
 */
export function workspaceTools(limits: WorkspaceLimits = {}, ledger: Ledger = createLedger(), hooks: WorkspaceHooks = {}): ToolDef[] {
  const changeLimits = { maxBytes: limits.writeMaxBytes, diffMaxChars: limits.diffMaxChars };
  const fileDeps = { ledger, limits: changeLimits, afterWrite: hooks.afterWrite, log: hooks.log };
  return [
    editFileTool(fileDeps),
    globTool({ maxResults: limits.globMaxResults }),
    grepTool({ maxFileBytes: limits.grepMaxFileBytes, deadlineMs: limits.grepTimeoutMs }),
    listDirTool({ maxEntries: limits.listMaxEntries }),
    readFileTool({ maxBytes: limits.readMaxBytes, maxChars: limits.readMaxChars, ledger }),
    writeFileTool(fileDeps),
  ];
}

export interface Workspace {
  status(): CapabilityRow;
  /** What each session has read or written; `forget(sessionId)` on session deletion. */
  ledger: Ledger;
}

/** The workspace capability: its tools registered for the host's lifetime, the read ledger, and its overview row. */
export function create(scope: Scope, deps: { registry: ToolRegistry; limits?: WorkspaceLimits; afterWrite?: AfterWrite; log?: Log }): Workspace {
  const ledger = createLedger();
  const log = deps.log ?? createLog("workspace");
  for (const tool of workspaceTools(deps.limits, ledger, { afterWrite: deps.afterWrite, log })) scope.add(deps.registry.register(tool), `tool:${tool.name}`);
  return {
    ledger,
    status() {
      return toolsRow({
        id: "workspace",
        title: "Workspace files (read_file, list_dir, grep, glob, write_file, edit_file)",
        tools: toolsOf(deps.registry, "workspace"),
        ready: "Contained in each session's workspace; writes need a prior read and are atomic.",
        missing: "Workspace tools are not registered.",
      });
    },
  };
}
