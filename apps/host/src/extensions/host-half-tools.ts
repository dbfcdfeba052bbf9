import { HostError, messageOf } from "../core/errors.js";
import type { Disposer } from "../core/scope.js";
import type { ToolRegistry } from "../agent/registry.js";
import type { JsonSchema, ToolDef, ToolResult } from "../agent/tool.js";
import type { HalfContext } from "./host-half-context.js";

export interface HalfToolsOptions {
  sessionId: string;
  packageName: string;
  registry: ToolRegistry;
  /** Runs one of the half's tools in its worker. */
  call(tool: string, args: unknown, signal?: AbortSignal): Promise<unknown>;
}

/**
 * The tools a host half registers (EXT-3): visible to its session only, owned by the half's scope so
 * that stopping or crashing removes them. A refused name is logged and shown as the last failure.
 */
export function halfTools(ctx: HalfContext, opts: HalfToolsOptions) {
  const disposers = new Map<string, Disposer>();

  const register = (name: string, description: string, inputSchema: JsonSchema) => {
    const tool: ToolDef = {
      name,
      description: description || `Tool of extension ${opts.packageName}.`,
      capability: "extensions",
      inputSchema,
      // The runner's own per-call timeout decides; the runtime's is a backstop.
      timeoutMs: ctx.limits.callTimeoutMs + 5_000,
      effect: "extension",
      parse: (args) => ({ ok: true, value: args ?? {} }),
      run: async (args, runCtx): Promise<ToolResult> => {
        const value = await opts.call(name, args, runCtx.signal);
        return { canonical: value ?? null, rendered: typeof value === "string" ? value : JSON.stringify(value ?? null) };
      },
    };
    try {
      const dispose = opts.registry.register(tool, { sessionId: opts.sessionId });
      disposers.set(name, ctx.own.add(dispose, `tool:${name}`));
    } catch (error) {
      const conflict = error instanceof HostError && error.kind === "conflict";
      const refusal = conflict
        ? new HostError("conflict:extensions", `Tool "${name}" is already registered in this session; pick another name.`, { reason: "duplicate_tool", name })
        : new HostError("bad_input:extensions", `Tool "${name}" was refused: ${messageOf(error)}`, { reason: "invalid_tool_name", name });
      ctx.log(`refused tool ${name}: [${refusal.publicCode}] ${refusal.message}`);
      ctx.life.failure = refusal.message;
    }
  };

  return {
    register,
    unregister(name: string) {
      const dispose = disposers.get(name);
      disposers.delete(name);
      void dispose?.();
    },
    names: () => [...disposers.keys()].sort(),
  };
}
