import type {
  CapabilityRow, WebHealth, WebKind, WebProbeInput, WebKindHealth, WebProbeResult, WebProviderHealth, WebSettings, WebSettingsInput,
} from "@seam/shared";
import { toolsOf, type ToolRegistry } from "../agent/registry.js";
import type { ToolDef } from "../agent/tool.js";
import { messageOf } from "../core/errors.js";
import type { Disposer, Scope } from "../core/scope.js";
import type { SecretSource } from "../llm/secrets.js";
import type { Store } from "../persistence/store.js";
import { codeOf, type CallContext, type FetchProvider, type Provider, type SearchProvider } from "./provider.js";
import { createDeepSeekProvider, type AuxRecorder } from "./providers/deepseek.js";
import { createExaProvider } from "./providers/exa.js";
import { createHttpFetcher, type FetchLimits } from "./providers/http.js";
import { createPerplexityProvider } from "./providers/perplexity.js";
import { checkDoors, ENV_VARS, envDoors, loadWebSettings, parseWebSettings, WEB_SETTINGS_KEY, withDoors } from "./settings.js";
import { createWebService, type WebService } from "./service.js";
import { webStatus } from "./status.js";
import { compileAllowlist, type Allowlist, type Resolver } from "./ssrf.js";
import { webFetchTool } from "./web-fetch.js";
import { webSearchTool } from "./web-search.js";
import { createLog } from "../core/log.js";

/** The query a search probe sends: harmless, stable, cheap. */
export const PROBE_QUERY = "Seam web search connectivity check";

/** What the web seam needs from the host (passed by host.ts). */
export interface WebSeamDeps {
  store: { settings: Store["settings"]; items: Pick<Store["items"], "appendFact"> };
  secrets: SecretSource;
  registry: ToolRegistry;
  env: NodeJS.ProcessEnv;
  /** The running turn of a session, for the DeepSeek aux_request fact; without it the fact has turnId null. */
  turnOf?: (sessionId: string) => string | null;
  /** DNS for the SSRF guard (tests inject one). */
  resolve?: Resolver;
  fetchLimits?: Partial<FetchLimits>;
  warn?: (message: string) => void;
}

/** What the tRPC layer calls (`HostApi["web"]`): Settings → Web (WEB-3, WEB-11). */
export interface Api {
  settings(): Promise<WebSettings>;
  setSettings(settings: WebSettingsInput): Promise<WebSettings>;
  health(): Promise<WebHealth>;
  /** One real request to a provider, recorded in its health. */
  probe(input: WebProbeInput): Promise<WebProbeResult>;
}

/** The web capability (WEB-1..11): the seam its tools and extensions call, its settings page and overview row. */
export interface WebSeam {
  readonly api: Api;
  /** The capability overview's row: visible = a web tool registered, ready = selection succeeds for every enabled tool. */
  status(): CapabilityRow;
  service: WebService;
  settings: {
    /** The effective settings (env doors applied). */
    get(): WebSettings;
    /**
     * Replaces the whole value (omitted fields take their defaults; an omitted provider id keeps the env
     * door's value), validates, refuses env conflicts, stores, re-registers the tools if their shape changed.
     */
    set(input: WebSettingsInput): Promise<WebSettings>;
  };
  health(): WebHealth;
  /** One real request to one provider (search: a fixed query; fetch: `fetchProbeUrl`), recorded in health. */
  probe(kind: WebKind, id: string): Promise<WebProbeResult>;
}

const TOOL_NAME: Record<WebKind, string> = { search: "web_search", fetch: "web_fetch" };

export async function create(scope: Scope, deps: WebSeamDeps): Promise<WebSeam> {
  const warn = deps.warn ?? ((m: string) => createLog("web").warn(m.replace(/^\[web\] /, "")));
  const doors = envDoors(deps.env);
  let stored = await loadWebSettings(deps.store, warn);
  let current = withDoors(stored, doors);
  let allowlist: Allowlist = compileAllowlist(current.fetchAllowlist);
  const settings = () => current;

  const service = createWebService({
    configured: () => ({ search: current.searchProvider, fetch: current.fetchProvider }),
    envVar: (kind) => ENV_VARS[kind],
  });

  const recordAux: AuxRecorder = async (ctx, fact) => {
    if (!ctx.sessionId) return; // probes run outside any session
    await deps.store.items.appendFact(ctx.sessionId, { turnId: deps.turnOf?.(ctx.sessionId) ?? null, factKind: "aux_request", text: fact.text, payload: fact.payload });
  };

  const providerDeps = { settings, secrets: deps.secrets };
  const searchProviders: SearchProvider[] = [
    createExaProvider(providerDeps),
    createPerplexityProvider(providerDeps),
    createDeepSeekProvider({ ...providerDeps, recordAux }),
  ];
  const fetchProviders: FetchProvider[] = [createHttpFetcher({ allowlist: () => allowlist, resolve: deps.resolve, limits: deps.fetchLimits })];
  for (const p of searchProviders) scope.add(service.registerSearch(p), `provider:search:${p.id}`);
  for (const p of fetchProviders) scope.add(service.registerFetch(p), `provider:fetch:${p.id}`);

  // Tools follow enablement only, never provider health; re-registered when their model-facing shape changes.
  const tools: Record<WebKind, { key: string; dispose: Disposer } | null> = { search: null, fetch: null };
  const syncTool = async (kind: WebKind) => {
    const enabled = kind === "search" ? current.searchEnabled : current.fetchEnabled;
    const key = enabled ? JSON.stringify(kind === "search" ? [current.searchTimeoutMs, current.searchMaxQueries] : [current.fetchTimeoutMs]) : "";
    if ((tools[kind]?.key ?? "") === key) return;
    const old = tools[kind];
    tools[kind] = null;
    await old?.dispose();
    if (!enabled) return;
    const def: ToolDef = kind === "search" ? webSearchTool({ service, settings }) : webFetchTool({ service, settings });
    tools[kind] = { key, dispose: scope.add(deps.registry.register(def), `tool:${def.name}`) };
  };
  await syncTool("search");
  await syncTool("fetch");

  const row = (kind: WebKind, p: Provider, selectedId: string | null, configuredId: string | null): WebProviderHealth => {
    let available = false;
    try {
      available = p.available() === true;
    } catch {
      available = false;
    }
    let described: { problem: string | null; keySource: string | null; endpoint: string | null } = { problem: null, keySource: null, endpoint: null };
    try {
      described = p.describe?.() ?? described;
    } catch (error) {
      described = { ...described, problem: messageOf(error) };
    }
    return {
      kind, id: p.id, label: p.label, registered: true, configured: configuredId === p.id, available, selected: selectedId === p.id,
      problem: available ? null : described.problem ?? "Not available.", keySource: described.keySource, endpoint: described.endpoint,
      lastCall: service.lastCall(kind, p.id),
    };
  };

  const kindHealth = (kind: WebKind): WebKindHealth => {
    const configuredId = kind === "search" ? current.searchProvider : current.fetchProvider;
    const selection = service.selection(kind);
    const selectedId = selection.ok ? selection.id : null;
    const providers = service.providers(kind).map((p) => row(kind, p, selectedId, configuredId));
    if (configuredId && !service.get(kind, configuredId)) {
      providers.push({
        kind, id: configuredId, label: configuredId, registered: false, configured: true, available: false, selected: false,
        problem: `No ${kind} provider with id "${configuredId}" is registered.`, keySource: null, endpoint: null, lastCall: null,
      });
    }
    return {
      kind,
      tool: TOOL_NAME[kind],
      enabled: tools[kind] !== null,
      configuredId,
      configuredBy: doors[kind] ? "env" : configuredId ? "settings" : null,
      envVar: ENV_VARS[kind],
      lockedByEnv: doors[kind] !== null,
      selection,
      providers,
    };
  };

  let saving = Promise.resolve();
  const seam: Omit<WebSeam, "api" | "status"> = {
    service,
    settings: {
      get: settings,
      set(input) {
        const run = saving.then(async () => {
          // An omitted provider field keeps the env door's value instead of colliding with it.
          const filled = { ...input };
          if (filled.searchProvider === undefined && doors.search) filled.searchProvider = doors.search;
          if (filled.fetchProvider === undefined && doors.fetch) filled.fetchProvider = doors.fetch;
          const next = parseWebSettings(filled);
          checkDoors(next, doors);
          await deps.store.settings.set(WEB_SETTINGS_KEY, next);
          stored = next;
          current = withDoors(stored, doors);
          allowlist = compileAllowlist(current.fetchAllowlist);
          await syncTool("search");
          await syncTool("fetch");
          return current;
        });
        saving = run.then(() => undefined, () => undefined);
        return run;
      },
    },
    health: () => ({ search: kindHealth("search"), fetch: kindHealth("fetch") }),
    async probe(kind, id) {
      const s = current;
      // The providers' own deadlines bound a probe (reported as `timeout`); disposing the seam cancels it.
      const ctx: CallContext = { signal: scope.signal };
      const started = performance.now();
      const finish = (ok: boolean, code: string | null, message: string): WebProbeResult => ({
        kind, id, ok, code, message, latencyMs: Math.round((performance.now() - started) * 10) / 10, at: new Date().toISOString(),
      });
      try {
        if (kind === "search") {
          const result = await service.callProvider("search", id, (p) => (p as SearchProvider).search({ query: PROBE_QUERY, maxResults: s.searchMaxResults }, ctx), true);
          return finish(true, null, `Search answered with ${result.sources.length} source(s)${result.content ? " and an answer" : ""}.`);
        }
        const result = await service.callProvider("fetch", id, (p) => (p as FetchProvider).fetch({ url: s.fetchProbeUrl }, ctx), true);
        return finish(true, null, `Fetched ${result.url}: HTTP ${result.statusCode}, ${result.body.content.length} characters of ${result.body.kind}.`);
      } catch (error) {
        return finish(false, codeOf(error), messageOf(error));
      }
    },
  };
  return {
    ...seam,
    api: {
      settings: async () => seam.settings.get(),
      setSettings: (input) => seam.settings.set(input),
      health: async () => seam.health(),
      probe: (input) => seam.probe(input.kind, input.id),
    },
    status: () => webStatus(toolsOf(deps.registry, "web"), seam.health()),
  };
}

export { WEB_SETTINGS_KEY, ENV_VARS };

/** The brief's name for `create`. */
export const createWebSeam = create;
