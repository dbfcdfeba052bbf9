import type { ToolInfo } from "@seam/shared";
import { HostError } from "../core/errors.js";
import type { Disposer } from "../core/scope.js";
import type { ToolDef } from "./tool.js";

export interface ToolOwner { sessionId: string }

export interface ToolChange {
  type: "registered" | "unregistered";
  name: string;
  /** Absent for global tools. */
  sessionId?: string;
}

/** Model-facing tools by name: global ones plus each session's own (CORE-11). */
export interface ToolRegistry {
  /** Throws HostError bad_input:agent (bad name) or conflict:agent (`duplicate_tool`); nothing is registered then. */
  register(tool: ToolDef, owner?: ToolOwner): Disposer;
  /** Global ∪ the session's tools, sorted by name (code-point order); the same content while nothing changes. */
  visible(sessionId?: string): ToolDef[];
  get(name: string, sessionId?: string): ToolDef | undefined;
  /** Fires after every register and unregister. */
  onChange(fn: (change: ToolChange) => void): Disposer;
}

export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const byName = (a: ToolDef, b: ToolDef) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function createToolRegistry(options: { onListenerError?: (error: unknown) => void } = {}): ToolRegistry {
  const global = new Map<string, ToolDef>();
  const sessions = new Map<string, Map<string, ToolDef>>();
  const listeners = new Set<{ fn: (change: ToolChange) => void }>();

  const notify = (change: ToolChange) => {
    for (const { fn } of [...listeners]) {
      try {
        fn(change);
      } catch (error) {
        options.onListenerError?.(error);
      }
    }
  };

  const conflictOf = (name: string, owner?: ToolOwner): string | undefined => {
    if (global.has(name)) return "a global tool";
    if (owner) return sessions.get(owner.sessionId)?.has(name) ? `a tool of session ${owner.sessionId}` : undefined;
    for (const [sessionId, tools] of sessions) if (tools.has(name)) return `a tool of session ${sessionId}`;
    return undefined;
  };

  const tableFor = (owner?: ToolOwner): Map<string, ToolDef> => {
    if (!owner) return global;
    let table = sessions.get(owner.sessionId);
    if (!table) sessions.set(owner.sessionId, (table = new Map()));
    return table;
  };

  return {
    register(tool, owner) {
      const name = tool.name;
      if (typeof name !== "string" || !TOOL_NAME.test(name)) {
        throw new HostError("bad_input:agent", `Invalid tool name ${JSON.stringify(name)}: use 1-64 letters, digits, "_" or "-".`, { reason: "invalid_tool_name" });
      }
      if (owner && !owner.sessionId) throw new HostError("bad_input:agent", `Tool "${name}" has an owner without a sessionId.`);
      const existing = conflictOf(name, owner);
      if (existing) {
        throw new HostError("conflict:agent", `Tool "${name}" is already registered as ${existing}; pick another name or unregister that tool first.`, {
          reason: "duplicate_tool",
          name,
          sessionId: owner?.sessionId,
        });
      }
      tableFor(owner).set(name, tool);
      notify({ type: "registered", name, sessionId: owner?.sessionId });

      let registered = true;
      return () => {
        if (!registered) return;
        registered = false;
        const current = owner ? sessions.get(owner.sessionId) : global;
        if (current?.get(name) !== tool) return;
        current.delete(name);
        if (owner && current.size === 0) sessions.delete(owner.sessionId);
        notify({ type: "unregistered", name, sessionId: owner?.sessionId });
      };
    },
    visible(sessionId) {
      const own = sessionId === undefined ? undefined : sessions.get(sessionId);
      return [...global.values(), ...(own?.values() ?? [])].sort(byName);
    },
    get(name, sessionId) {
      return global.get(name) ?? (sessionId === undefined ? undefined : sessions.get(sessionId)?.get(name));
    },
    onChange(fn) {
      const listener = { fn };
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** The names of the tools one capability has registered now (the capability overview's `tools`). */
export function toolsOf(registry: Pick<ToolRegistry, "visible">, capability: string): string[] {
  return registry.visible().filter((t) => t.capability === capability).map((t) => t.name);
}

/** What the tRPC layer calls (`HostApi["tools"]`): the tools a session sees, as the palette and cards show them. */
export interface ToolsApi { list(sessionId?: string): Promise<ToolInfo[]> }

export function toolsApi(registry: Pick<ToolRegistry, "visible">): ToolsApi {
  return {
    list: async (sessionId) => registry.visible(sessionId).map((t) => ({
      name: t.name, description: t.description, capability: t.capability, inputSchema: t.inputSchema, effect: t.effect,
    })),
  };
}
