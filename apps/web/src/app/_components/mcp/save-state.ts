import { MCP_PROBE_STEP_LABEL, type McpProbeFailure, type McpProbeStatus, type McpProbeStep, type McpSaveResult } from "@seam/shared";
import { hostProbeOf } from "@/lib/host-error";

/*
 * The add/edit form's save as the user sees it (MCP-10): "Trying the server…" with the step, then either
 * a confirmation naming what the try saw, or the failure in words with "Save anyway" as a second step.
 */

/** What the save button and the line beside it say while the host tries the server. */
export function tryingText(status: Pick<McpProbeStatus, "step" | "state"> | null | undefined): string {
  const step: McpProbeStep = status?.state === "running" ? status.step : "starting";
  return `Trying the server… ${MCP_PROBE_STEP_LABEL[step]}`;
}

const STEP_PHRASE: Record<McpProbeStep, string> = { starting: "while starting", initializing: "while initializing", listing_tools: "while listing its tools" };

/** The inline failure: what failed (the host's sentence), at which step, and the stderr tail if any. */
export interface FailureView {
  title: string;
  message: string;
  step: string;
  stderrTail: string;
}

/** The try's failure carried by a save error, or null when the save failed for another reason (a conflict, bad input). */
export function failureOf(error: unknown, editing = false): FailureView | null {
  const probe: McpProbeFailure | null = hostProbeOf(error);
  if (!probe) return null;
  const title = editing ? "The server did not start with these settings; the previous settings stay." : "The server did not start, so nothing was saved.";
  return { title, message: probe.message, step: `Failed ${STEP_PHRASE[probe.step]}.`, stderrTail: probe.stderrTail.trimEnd() };
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** The confirmation once saved: the tool count the try saw, or, when nothing was tried, what happens next. */
export function savedText(result: Pick<McpSaveResult, "config" | "probe">, verb: "Added" | "Saved"): string {
  const name = result.config.name;
  if (!result.config.enabled) return `${verb} "${name}" (disabled: it does not start until you enable it).`;
  const p = result.probe;
  if (!p) return `${verb} "${name}". Seam is starting it; its state is shown in the list.`;
  if (p.needsAuthorization) return `${verb} "${name}": it asks you to sign in — open its Authorization tab and press Authorize.`;
  const who = p.serverInfo ? ` (${p.serverInfo.name} ${p.serverInfo.version})` : "";
  return `${verb} "${name}"${who}: ${plural(p.toolCount, "tool")} available.`;
}

/** "Save anyway" saved a server that failed its try. */
export const forcedText = (name: string) => `Saved "${name}" without a successful try. Seam keeps retrying it; its state and stderr are in the list.`;
