import type { CapabilityRow } from "@seam/shared";
import { toolsOf, type ToolRegistry } from "../agent/registry.js";
import { toolsRow } from "../core/capability-row.js";
import type { LiveSources } from "../core/live.js";
import type { Disposer, Scope } from "../core/scope.js";
import type { Database } from "../persistence/db.js";
import { createExtensions, type Api, type Extensions, type ExtensionsOptions } from "./service.js";
import { createExtensionStore } from "./store.js";
import { extensionTools } from "./tools.js";

export type { Api } from "./service.js";

/** The dynamic-extensions capability (EXT-1..6). */
export interface Interface {
  readonly api: Api;
  /** Live topics `extensions` (the page's snapshot) and `bridge` (host halves → browser halves). */
  readonly live: Pick<LiveSources, "extensions" | "bridge">;
  status(): CapabilityRow;
  /** The service behind the tools (tests, diagnostics). */
  readonly service: Extensions;
}

export interface Deps extends Pick<ExtensionsOptions, "limits" | "browserWaitMs" | "broker" | "audit"> {
  db: Database;
  registry: ToolRegistry;
  /** Lets the capability stop a deleted session's runs and withdraw its requests first (EXT-2). */
  sessions: { beforeRemove(fn: (sessionId: string) => Promise<void>): Disposer };
}

/** The extension service, its five model-facing tools and its hook into session deletion. */
export function create(scope: Scope, deps: Deps): Interface {
  const service = createExtensions(scope, {
    extStore: createExtensionStore(deps.db), store: deps.db.store, registry: deps.registry, limits: deps.limits, browserWaitMs: deps.browserWaitMs,
    broker: deps.broker, audit: deps.audit,
  });
  for (const tool of extensionTools(service, deps.registry)) scope.add(deps.registry.register(tool), `tool:${tool.name}`);
  scope.add(deps.sessions.beforeRemove((sessionId) => service.forgetSession(sessionId)), "sessions:before-remove");
  return {
    api: service.api,
    live: { extensions: (signal) => service.api.events(signal), bridge: (signal) => service.api.bridge(signal) },
    status: () => extensionsStatus(toolsOf(deps.registry, "extensions")),
    service,
  };
}

/** Extensions: the five extension_* tools plus whatever running extensions registered (EXT-1). */
function extensionsStatus(tools: string[]): CapabilityRow {
  return toolsRow({
    id: "extensions",
    title: "Dynamic extensions (extension_*)",
    tools,
    own: tools.filter((t) => t.startsWith("extension_")),
    ready: "The model can define extensions; each run needs your approval (see Extensions). Host halves run sandboxed in worker threads, browser halves in sandboxed frames.",
    missing: "The extension tools are not registered.",
  });
}
