import type { CapabilityRow, ShellSandboxAvailability, ShellSettings } from "@seam/shared";
import { capabilityRow } from "../core/capability-row.js";

/** The shell's overview row: ready while its tools are registered and the chosen sandbox can run. */
export function shellStatus(tools: string[], settings: ShellSettings, availability: ShellSandboxAvailability): CapabilityRow {
  const bwrap = availability.available
    ? `bwrap works (${availability.version ?? availability.path}).`
    : `Sandbox unavailable: ${availability.reason ?? "bwrap did not run."}`;
  const blocked = settings.sandbox !== "off" && !availability.available;
  const mode = settings.sandbox === "off"
    ? "Commands run unsandboxed, with the host user's access to every file and the network."
    : `Commands run in the ${settings.sandbox} sandbox, network ${settings.network ? "on" : "off"}.`;
  const note = tools.length === 0
    ? "The shell tools are not registered."
    : blocked
      ? `The sandbox is set to ${settings.sandbox} but cannot run, so bash refuses every command (no fallback to unsandboxed). ${bwrap} Fix bwrap or set the sandbox to off in Settings → Shell.`
      : `${mode} ${bwrap}`;
  return capabilityRow({
    id: "shell", title: "Shell (bash, job_output, job_kill)", configured: true, ready: tools.length > 0 && !blocked, note, tools,
  });
}
