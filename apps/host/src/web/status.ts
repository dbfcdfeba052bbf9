import type { CapabilityRow, WebHealth, WebKindHealth } from "@seam/shared";
import { capabilityRow } from "../core/capability-row.js";

/** Web's overview row: visible = a web tool registered (by enablement), ready = selection succeeds now for every enabled tool (WEB-11). */
export function webStatus(tools: string[], web: WebHealth): CapabilityRow {
  const kinds = [web.search, web.fetch].filter((k) => k.enabled);
  const failing = kinds.filter((k): k is WebKindHealth & { selection: { ok: false; code: string; message: string } } => !k.selection.ok);
  const configured = kinds.some((k) => k.providers.some((p) => p.available));
  const note = kinds.length === 0
    ? "Both web tools are disabled in Settings → Web."
    : failing.length > 0
      ? failing.map((k) => `${k.tool}: ${selectionProblem(k, k.selection)}`).join(" ")
      : kinds.map((k) => `${k.tool} uses ${k.selection.ok ? k.selection.id : "?"}`).join("; ") + ".";
  return capabilityRow({ id: "web", title: "Web (web_search, web_fetch)", configured, ready: kinds.length > 0 && failing.length === 0, note, tools });
}

/** The selection failure in a few words; the full message is on Settings → Web. */
function selectionProblem(k: WebKindHealth, failure: { code: string; message: string }): string {
  const ids = k.providers.map((p) => p.id).join(", ");
  if (failure.code === "no_provider_available") return `no provider is available; give one of ${ids} its key and choose it in Settings → Web.`;
  if (failure.code === "ambiguous_provider") return "several providers are available; choose one in Settings → Web.";
  return failure.message;
}
