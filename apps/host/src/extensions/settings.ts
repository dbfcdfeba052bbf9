import { ExtensionSettings } from "@seam/shared";
import type { Store } from "../persistence/store.js";

const SETTINGS_KEY = "extensions";

/** The extension settings, read once (invalid stored values fall back to the defaults) and cached. */
export function settingsCache(store: Pick<Store, "settings">) {
  let settings: ExtensionSettings | null = null;
  return {
    async get(): Promise<ExtensionSettings> {
      if (settings) return settings;
      const parsed = ExtensionSettings.safeParse((await store.settings.get(SETTINGS_KEY)) ?? {});
      settings = parsed.success ? parsed.data : ExtensionSettings.parse({});
      return settings;
    },
    async set(next: ExtensionSettings): Promise<void> {
      await store.settings.set(SETTINGS_KEY, next);
      settings = next;
    },
  };
}
