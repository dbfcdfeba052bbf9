import { HostError } from "../core/errors.js";
import type { ExtensionsContext } from "./context.js";
import type { HostHalfServices } from "./host-half-types.js";
import type { Run } from "./runs.js";

export interface ServiceInfo { name: string; provider: "host" | string; methods: string[] }

/** What a run's host half may call: the session's web tools and the services other running extensions provide. */
export function servicesFor(ctx: ExtensionsContext, run: Run): HostHalfServices {
  return { web: webService(ctx, run), call: (name, method, args, signal) => callProvided(ctx.runs, run.sessionId, name, method, args, signal) };
}

/** `api.web.*`: the session's own web tools, so the SSRF guard, limits and provider choice all apply. */
function webService({ registry }: ExtensionsContext, run: Run) {
  let calls = 0;
  const through = (toolName: string) => async (args: Record<string, unknown>, signal: AbortSignal) => {
    const tool = registry.get(toolName, run.sessionId);
    if (!tool) throw new HostError("unavailable:extensions", `${toolName} is not available; a web provider must be configured in Settings → Web.`);
    const parsed = tool.parse(args);
    if (!parsed.ok) throw new HostError("bad_input:extensions", parsed.message);
    const result = await tool.run(parsed.value, { signal, sessionId: run.sessionId, workspace: "", callId: `ext:${run.id}:${++calls}` });
    if (result.error) throw new HostError("unavailable:extensions", result.error.message, { reason: result.error.code });
    return result.canonical;
  };
  return { fetch: through("web_fetch"), search: through("web_search") };
}

/** Services of the session: the host's web service and those its running extensions provide (first started wins). */
export function servicesOf(runs: readonly Run[], sessionId: string): ServiceInfo[] {
  const out: ServiceInfo[] = [{ name: "web", provider: "host", methods: ["fetch", "search"] }];
  for (const r of runs) {
    if (r.sessionId !== sessionId || r.state !== "running" || !r.half) continue;
    for (const s of r.half.services()) if (!out.some((o) => o.name === s.name)) out.push({ name: s.name, provider: r.packageName, methods: s.methods });
  }
  return out;
}

async function callProvided(runs: readonly Run[], sessionId: string, name: string, method: string, args: unknown, signal: AbortSignal) {
  const provider = runs.find((r) => r.sessionId === sessionId && r.state === "running" && r.half?.services().some((s) => s.name === name));
  if (!provider?.half) throw new HostError("not_found:extensions", `No extension running in this session provides "${name}"; extension_inspect lists the services.`, { reason: "not_found" });
  const methods = provider.half.services().find((s) => s.name === name)!.methods;
  if (!methods.includes(method)) throw new HostError("not_found:extensions", `Service "${name}" (from ${provider.packageName}) has no method "${method}"; it has ${methods.join(", ")}.`, { reason: "not_found" });
  return provider.half.callService(name, method, args, signal);
}
