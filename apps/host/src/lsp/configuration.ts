/** One item of a `workspace/configuration` request (LSP `ConfigurationItem`). */
export interface ConfigurationItem {
  section?: string;
  scopeUri?: string;
}

/** A server's configured settings (LSP-8): a JSON object, or none. */
export type ServerSettings = Readonly<Record<string, unknown>> | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * The value at a dotted section path: `"python.analysis"` → `settings.python.analysis`. A key that
 * itself holds dots (`{"python.analysis": {…}}`, as VS Code's settings.json writes them) matches too;
 * the longest such key wins. `undefined` when the path is absent.
 */
export function valueAt(settings: unknown, section: string): unknown {
  const parts = section.split(".").filter((p) => p !== "");
  const walk = (node: unknown, from: number): unknown => {
    if (from === parts.length) return node;
    if (!isObject(node)) return undefined;
    for (let to = parts.length; to > from; to--) {
      const key = parts.slice(from, to).join(".");
      if (!Object.hasOwn(node, key)) continue;
      const found = walk(node[key], to);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(settings, 0);
}

/**
 * The answer to `workspace/configuration`: per item, the value at its section, the whole settings object
 * without one, and `null` when absent (or when the server has no settings). `scopeUri` is not consulted:
 * each process serves one workspace, and settings are per server.
 */
export function answerConfiguration(settings: ServerSettings, params: unknown): unknown[] {
  const items: unknown[] = isObject(params) && Array.isArray(params.items) ? params.items : [];
  return items.map((item) => {
    if (settings === undefined) return null;
    const section = isObject(item) && typeof item.section === "string" ? item.section : "";
    const value = section.trim() === "" ? settings : valueAt(settings, section);
    return value === undefined ? null : value;
  });
}
