import { formatIssues, WebProviderId, WebSettings, type WebKind, type WebSettingsInput } from "@seam/shared";
import { messageOf } from "../core/errors.js";
import type { Store } from "../persistence/store.js";
import { webError } from "./provider.js";
import { compileAllowlist } from "./ssrf.js";

export const WEB_SETTINGS_KEY = "web";
export const ENV_VARS: Record<WebKind, string> = { search: "SEAM_WEB_SEARCH_PROVIDER", fetch: "SEAM_WEB_FETCH_PROVIDER" };

/** The provider ids the env door holds (null = the env var is unset or empty). */
export type EnvDoors = Record<WebKind, string | null>;

/** Reads SEAM_WEB_SEARCH_PROVIDER / SEAM_WEB_FETCH_PROVIDER; a malformed id is refused at start. */
export function envDoors(env: NodeJS.ProcessEnv): EnvDoors {
  const read = (kind: WebKind): string | null => {
    const raw = env[ENV_VARS[kind]]?.trim();
    if (!raw) return null;
    const parsed = WebProviderId.safeParse(raw);
    if (!parsed.success) throw webError("invalid_settings", `${ENV_VARS[kind]}=${JSON.stringify(raw)} is not a provider id (use e.g. exa, perplexity, deepseek, http).`);
    return parsed.data;
  };
  return { search: read("search"), fetch: read("fetch") };
}

/** Validates a settings value (zod + strict allowlist entries); throws `invalid_settings` in words. */
export function parseWebSettings(input: unknown): WebSettings {
  const parsed = WebSettings.safeParse(input ?? {});
  if (!parsed.success) throw webError("invalid_settings", `Web settings are invalid: ${formatIssues(parsed.error, { root: "(settings)" })}`);
  compileAllowlist(parsed.data.fetchAllowlist);
  return parsed.data;
}

/**
 * The env var and the settings field are two doors to ONE setting (WEB-3), not a priority chain:
 * while the env var is set it holds the value, and saving a different value through the page is
 * refused (`provider_setting_conflict`) instead of being silently shadowed.
 */
export function withDoors(settings: WebSettings, doors: EnvDoors): WebSettings {
  return {
    ...settings,
    searchProvider: doors.search ?? settings.searchProvider,
    fetchProvider: doors.fetch ?? settings.fetchProvider,
  };
}

export function checkDoors(next: WebSettings, doors: EnvDoors): void {
  for (const kind of ["search", "fetch"] as const) {
    const door = doors[kind];
    const field = kind === "search" ? next.searchProvider : next.fetchProvider;
    if (door && field !== door) {
      throw webError("provider_setting_conflict", `The ${kind} provider is set to "${door}" by ${ENV_VARS[kind]} in the host's environment; it is one setting with this field, so the page cannot choose ${field ? `"${field}"` : "none"}. Unset ${ENV_VARS[kind]} and restart to choose here.`, {
        kind,
        data: { envVar: ENV_VARS[kind], envValue: door },
      });
    }
  }
}

/** Loads the stored value; an unreadable or invalid one falls back to defaults (reported via `warn`). */
export async function loadWebSettings(store: Pick<Store, "settings">, warn: (message: string) => void): Promise<WebSettings> {
  let stored: unknown;
  try {
    stored = await store.settings.get(WEB_SETTINGS_KEY);
  } catch (error) {
    warn(`[web] cannot read the web settings, using defaults: ${messageOf(error)}`);
    return WebSettings.parse({});
  }
  try {
    return parseWebSettings(stored ?? {});
  } catch (error) {
    warn(`[web] stored web settings are invalid, using defaults until they are saved again: ${messageOf(error)}`);
    return WebSettings.parse({});
  }
}

export type { WebSettingsInput };
