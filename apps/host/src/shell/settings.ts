import { formatIssues, ShellSettings, type ShellSandboxAvailability } from "@seam/shared";
import { messageOf } from "../core/errors.js";
import type { Log } from "../core/log.js";
import { shellError } from "./errors.js";

/** The setting key holding `ShellSettings`. */
export const SETTINGS_KEY = "shell";

/** The host's Setting table (`Store["settings"]`). */
export interface SettingsStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

/** Sandboxed with the network on where bwrap works, else off (see README: why, and why it is stored). */
export function defaultSettings(availability: Pick<ShellSandboxAvailability, "available">): ShellSettings {
  return { sandbox: availability.available ? "workspace-write" : "off", network: true };
}

/** Validates settings from the UI; `bad_input` names the field. */
export function parseSettings(input: unknown): ShellSettings {
  const r = ShellSettings.safeParse(input);
  if (!r.success) throw shellError("bad_input", "invalid_settings", `Invalid shell settings: ${formatIssues(r.error)}`);
  return r.data;
}

/**
 * The stored settings. On the first start (nothing stored) the default is stored at once, so a sandbox
 * chosen while bwrap worked stays chosen if bwrap later breaks: bash then refuses instead of quietly
 * running unsandboxed. A stored value that does not parse is reported and replaced by the default in memory.
 */
export async function loadSettings(store: SettingsStore, availability: ShellSandboxAvailability, log: Log): Promise<{ settings: ShellSettings; source: "saved" | "default" }> {
  const raw = await store.get(SETTINGS_KEY);
  const fallback = defaultSettings(availability);
  if (raw === undefined || raw === null) {
    try {
      await store.set(SETTINGS_KEY, fallback);
      return { settings: fallback, source: "saved" };
    } catch (error) {
      log.warn("could not store the default shell settings", { error: messageOf(error) });
      return { settings: fallback, source: "default" };
    }
  }
  const parsed = ShellSettings.safeParse(raw);
  if (parsed.success) return { settings: parsed.data, source: "saved" };
  log.warn(`the stored shell settings are invalid (${formatIssues(parsed.error)}); using sandbox "${fallback.sandbox}" until they are saved again`);
  return { settings: fallback, source: "default" };
}
