import type { CapabilityRow, LspServerView } from "@seam/shared";
import { capabilityRow } from "../core/capability-row.js";

/** LSP's overview row: configured = any server saved, visible = the lsp tool registered, ready = every enabled server active (LSP-7). */
export function lspStatus(tools: string[], servers: LspServerView[]): CapabilityRow {
  const enabled = servers.filter((s) => s.config.enabled);
  const inactive = enabled.filter((s) => !s.active);
  const failing = enabled.flatMap((s) => s.processes.filter((p) => p.state === "failed").map((p) => `${s.config.id} in ${p.workspace}: ${p.lastError ?? "failed"}`));
  const routed = enabled.filter((s) => s.active).map((s) => `${s.config.id} (${s.config.extensions.join(" ")})`);
  const note = servers.length === 0
    ? "No language servers are configured. Add one in Settings → Language servers."
    : enabled.length === 0
      ? "Every configured language server is disabled."
      : [
        inactive.length > 0 ? `Inactive: ${inactive.map((s) => `${s.config.id} (${s.problem ?? "not active"})`).join("; ")}.` : "",
        routed.length > 0 ? `Routing ${routed.join(", ")}; servers start on the first query in each workspace.` : "",
        failing.length > 0 ? `Failed processes: ${failing.join("; ")}.` : "",
      ].filter(Boolean).join(" ");
  return capabilityRow({ id: "lsp", title: "Language servers (lsp)", configured: servers.length > 0, ready: enabled.length > 0 && inactive.length === 0, note, tools });
}
