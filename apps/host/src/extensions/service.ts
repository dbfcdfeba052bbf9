import {
  ExtensionSettings, type ApprovalAnswerInput, type BridgeMessage, type ExtensionPackageView, type ExtensionRefusal, type ExtensionRunView,
  type ExtensionSettingsInput, type ExtensionsSnapshot, type ExtensionVersionSource,
} from "@seam/shared";
import type { ToolRegistry } from "../agent/registry.js";
import { createChanges } from "../core/changes.js";
import { iterateEvents } from "../core/events.js";
import { HostError, messageOf } from "../core/errors.js";
import type { Scope } from "../core/scope.js";
import type { Store } from "../persistence/store.js";
import { createApprovalBroker } from "./approvals.js";
import { createRun, isLive, runView, type Run } from "./runs.js";
import { startHostHalf, type HostHalfLimits } from "./runner.js";
import type { ExtensionStore } from "./store.js";
import { checkSyntax, formatSyntaxProblem } from "./syntax.js";

const SETTINGS_KEY = "extensions";
/** Ended runs kept for the extensions page. */
const ENDED_RUNS_KEPT = 50;
/** Host → browser messages one bridge stream keeps for a slow reader. */
const BRIDGE_QUEUE_MAX = 1_000;

export type { BridgeMessage };

export interface DefineInput { name: string; purpose: string; host?: string; browser?: string }
export interface DefineResult { name: string; version: number; hash: string; created: boolean; halves: ("host" | "browser")[] }
export interface RunResult {
  name: string; version: number; runId: string; state: "running"; tools: string[];
  browser: "none" | "rendered" | "pending";
  approvedBy: "user" | "grant" | "setting" | "earlier";
}

export interface ServiceInfo { name: string; provider: "host" | string; methods: string[] }

export interface ExtensionsOptions {
  extStore: ExtensionStore;
  store: Pick<Store, "settings" | "sessions">;
  registry: ToolRegistry;
  limits?: Partial<HostHalfLimits>;
  /** How long `run` waits for an open page to render a browser half. Default 5 s. */
  browserWaitMs?: number;
}

export interface Extensions {
  define(sessionId: string, input: DefineInput): Promise<DefineResult>;
  /** Asks for approval unless a grant or setting allows it, then starts the halves; refuses with the EXT-1 codes. */
  run(sessionId: string, input: { name: string; version?: number }, signal: AbortSignal): Promise<RunResult>;
  stop(sessionId: string, name: string): Promise<{ name: string; version: number; stopped: true }>;
  undefine(sessionId: string, name: string): Promise<{ name: string; versions: number; stopped: boolean }>;
  /** This session's packages with their runs (another session's packages are absent). */
  packages(sessionId: string): Promise<{ pkg: ExtensionPackageView; run: ExtensionRunView | null }[]>;
  /** What `api.services.call` can reach in this session. */
  services(sessionId: string): ServiceInfo[];
  /** Stops a deleted session's runs and withdraws its run requests. */
  forgetSession(sessionId: string): Promise<void>;
  api: Api & {
    /** The snapshot now, then after each burst of changes (live topic `extensions`). */
    events(signal: AbortSignal): AsyncIterable<ExtensionsSnapshot>;
    /**
     * What host halves `api.send` to their browser halves, live from now on: of one run (ending when it
     * ends), or of every run when `runId` is omitted (live topic `bridge`: one stream per page serves all its frames).
     */
    bridge(signal: AbortSignal, runId?: string): AsyncIterable<BridgeMessage>;
  };
}

/** What the tRPC layer calls (`HostApi["extensions"]`): packages, runs, approvals, grants and the browser half's calls (EXT-4..6). */
export interface Api {
  snapshot(): Promise<ExtensionsSnapshot>;
  /** not_found:extensions when the package or version is unknown. */
  source(input: { packageId: string; version: number }): Promise<ExtensionVersionSource>;
  /** First answer wins; a later one gets conflict:extensions (`already_answered`), an unknown id not_found:extensions. */
  answer(input: ApprovalAnswerInput): Promise<void>;
  revokeGrant(input: { packageId: string }): Promise<void>;
  stop(input: { runId: string }): Promise<void>;
  /** A browser half's call to its host half's `api.handle(method, …)`. */
  call(input: { runId: string; method: string; params: unknown }): Promise<unknown>;
  /** A page reports rendering the run's browser half (EXT-4). */
  reportBrowser(input: { runId: string; ok: boolean; message?: string }): Promise<void>;
  setSettings(input: ExtensionSettingsInput): Promise<ExtensionSettings>;
}

export const refusal = (reason: ExtensionRefusal, message: string, data: Record<string, unknown> = {}) => {
  const kind = reason === "definition_missing" ? "not_found" : reason === "rejected" ? "denied" : reason === "cancelled" || reason === "not_running" ? "closed" : "unavailable";
  return new HostError(`${kind}:extensions`, message, { reason, ...data });
};

/** Dynamic extensions (EXT-1..6): definitions in SQLite, runs in memory, approvals, the browser bridge. */
export function createExtensions(scope: Scope, opts: ExtensionsOptions): Extensions {
  const { extStore, store, registry } = opts;
  const browserWaitMs = opts.browserWaitMs ?? 5_000;
  const runs: Run[] = [];
  const allBridges = new Set<(runId: string, message: unknown) => void>();
  let settings: ExtensionSettings | null = null;
  let packagesCache: ExtensionPackageView[] | null = null;
  let watchers = 0;

  const snapshot = async (): Promise<ExtensionsSnapshot> => {
    packagesCache ??= await extStore.listAll();
    return { packages: packagesCache, runs: [...runs].reverse().map(runView), approvals: broker.pending(), settings: await getSettings() };
  };
  const changes = createChanges(snapshot, { throttleMs: 50 });
  const changed = (packagesToo = false) => {
    if (packagesToo) packagesCache = null;
    changes.changed();
  };
  const broker = createApprovalBroker({ onChange: () => changed() });
  scope.add(registry.onChange(() => changed()), "registry-listener");
  scope.add(() => changes.close(), "changes");
  // Logs are not announced line by line: once a second, the page's view refreshes if any log grew.
  let loggedBefore = 0;
  const ticker = setInterval(() => {
    if (watchers === 0) return;
    const logged = runs.reduce((sum, r) => sum + (r.half?.logCount() ?? 0), 0);
    if (logged !== loggedBefore) changed();
    loggedBefore = logged;
  }, 1_000);
  ticker.unref?.();
  scope.add(() => clearInterval(ticker), "ticker");

  async function getSettings(): Promise<ExtensionSettings> {
    if (settings) return settings;
    const parsed = ExtensionSettings.safeParse((await store.settings.get(SETTINGS_KEY)) ?? {});
    settings = parsed.success ? parsed.data : ExtensionSettings.parse({});
    return settings;
  }

  const liveRun = (sessionId: string, packageId: string) =>
    runs.find((r) => r.sessionId === sessionId && r.packageId === packageId && isLive(r) && r.state !== "waiting_approval");

  const findPackage = async (sessionId: string, name: string) => {
    const pkg = await extStore.find(sessionId, name);
    if (!pkg) throw refusal("definition_missing", `No extension named "${name}" is defined in this session. Define it with extension_define first.`, { name });
    return pkg;
  };

  /** Leaves a live state once: disposes the host half and everything it registered. */
  async function endRun(run: Run, state: Run["state"], failure: string | null) {
    if (!isLive(run)) return;
    run.state = state;
    run.failure = failure ?? run.failure;
    run.endedAt = new Date();
    run.settleBrowser();
    for (const other of runs) {
      if (other !== run && other.sessionId === run.sessionId && other.state === "running") {
        other.half?.emit("extension.stopped", { name: run.packageName, version: run.version, state });
      }
    }
    changed();
    await run.scope.dispose().catch((error: unknown) => console.error(`[extensions] disposing ${run.packageName}@${run.version}: ${messageOf(error)}`));
    // Keep the ended runs the page shows bounded.
    const ended = runs.filter((r) => !isLive(r));
    for (const old of ended.slice(0, Math.max(0, ended.length - ENDED_RUNS_KEPT))) runs.splice(runs.indexOf(old), 1);
    changed();
  }

  /** Decides whether this version may run now; resolves with who allowed it, or throws rejected / cancelled. */
  async function approve(run: Run, src: ExtensionVersionSource, signal: AbortSignal): Promise<RunResult["approvedBy"]> {
    if (await extStore.activeGrant(src.packageId)) {
      await extStore.decide(src.packageId, src.version, "allow", "grant", false);
      changed(true);
      return "grant";
    }
    if (!src.browserCode && (await getSettings()).autoApproveHostOnly) {
      await extStore.decide(src.packageId, src.version, "allow", "setting", false);
      changed(true);
      return "setting";
    }
    if (src.decision?.decision === "allow" && src.decision.by === "user") return "earlier";
    const previous = await extStore.lastAllowed(src.packageId);
    const session = await store.sessions.get(run.sessionId);
    const answer = await broker.ask({
      sessionId: run.sessionId,
      sessionTitle: session?.title ?? run.sessionId,
      packageId: src.packageId,
      packageName: src.packageName,
      version: src.version,
      purpose: src.purpose,
      hostCode: src.hostCode,
      browserCode: src.browserCode,
      previous: previous && previous.version !== src.version
        ? { version: previous.version, hostCode: previous.hostCode, browserCode: previous.browserCode }
        : null,
    }, signal);
    await extStore.decide(src.packageId, src.version, answer.decision, "user", answer.decision === "allow" && answer.allowFuture);
    changed(true);
    if (answer.decision === "deny") {
      throw refusal("rejected", `The user declined to run ${src.packageName} v${src.version}. Do not run it again unless they ask; consider changing it.`);
    }
    if (answer.allowFuture) await extStore.grant(src.packageId, src.version);
    changed(true);
    return "user";
  }

  async function startHost(run: Run, code: string) {
    try {
      run.half = await startHostHalf(run.scope, {
        sessionId: run.sessionId, packageName: run.packageName, version: String(run.version), code, registry, limits: opts.limits,
        services: { web: webService(run), call: (name, method, args, signal) => callProvided(run.sessionId, name, method, args, signal) },
      });
    } catch (error) {
      const state = error instanceof HostError && error.data?.state === "limit_exceeded" ? "limit_exceeded" : "crashed";
      await endRun(run, state, messageOf(error));
      throw refusal("host_half_failed", `${messageOf(error)}. Fix the host half and define a new version.`, { state });
    }
    const half = run.half;
    void half.exited.then((state) => endRun(run, state, half.lastFailure()));
    half.onOutbound((m) => {
      if (m.kind === "send") {
        for (const deliver of [...run.bridges]) deliver(m.message);
        for (const deliver of [...allBridges]) deliver(run.id, m.message);
        return;
      }
      // Events reach the other extensions running in the same session.
      for (const other of runs) {
        if (other !== run && other.sessionId === run.sessionId && other.state === "running") other.half?.emit(m.name, m.payload);
      }
    });
  }

  /** `api.web.*`: the session's own web tools, so the SSRF guard, limits and provider choice all apply. */
  function webService(run: Run) {
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
  function servicesOf(sessionId: string): ServiceInfo[] {
    const out: ServiceInfo[] = [{ name: "web", provider: "host", methods: ["fetch", "search"] }];
    for (const r of runs) {
      if (r.sessionId !== sessionId || r.state !== "running" || !r.half) continue;
      for (const s of r.half.services()) if (!out.some((o) => o.name === s.name)) out.push({ name: s.name, provider: r.packageName, methods: s.methods });
    }
    return out;
  }

  async function callProvided(sessionId: string, name: string, method: string, args: unknown, signal: AbortSignal) {
    const provider = runs.find((r) => r.sessionId === sessionId && r.state === "running" && r.half?.services().some((s) => s.name === name));
    if (!provider?.half) throw new HostError("not_found:extensions", `No extension running in this session provides "${name}"; extension_inspect lists the services.`, { reason: "not_found" });
    const methods = provider.half.services().find((s) => s.name === name)!.methods;
    if (!methods.includes(method)) throw new HostError("not_found:extensions", `Service "${name}" (from ${provider.packageName}) has no method "${method}"; it has ${methods.join(", ")}.`, { reason: "not_found" });
    return provider.half.callService(name, method, args, signal);
  }

  async function waitForBrowser(run: Run, signal: AbortSignal): Promise<RunResult["browser"]> {
    // Without an open page nobody can render it now; it renders when the user opens one.
    if (watchers === 0) return "pending";
    const gaveUp = new AbortController();
    const timer = setTimeout(() => gaveUp.abort(), browserWaitMs);
    const stop = AbortSignal.any([signal, gaveUp.signal]);
    await Promise.race([run.browserSettled, new Promise<void>((resolve) => stop.addEventListener("abort", () => resolve(), { once: true }))]);
    clearTimeout(timer);
    if (run.browser === "failed") {
      await endRun(run, "crashed", `browser half: ${run.browserFailure}`);
      throw refusal("browser_half_failed", `The browser half failed to render: ${run.browserFailure}. Fix it and define a new version.`);
    }
    return run.browser === "rendered" ? "rendered" : "pending";
  }

  const runOf = (runId: string) => {
    const run = runs.find((r) => r.id === runId);
    if (!run) throw new HostError("not_found:extensions", "No such extension run; it may have ended long ago.", { reason: "not_found" });
    return run;
  };

  const extensions: Extensions = {
    async define(sessionId, input) {
      const halves = ([["host", input.host], ["browser", input.browser]] as const).filter(([, code]) => code !== undefined && code.trim() !== "");
      if (halves.length === 0) throw new HostError("bad_input:extensions", "Give at least one half: `host` (logic, tools) and/or `browser` (UI in the page).");
      for (const [half, code] of halves) {
        const problem = checkSyntax(code as string, half);
        if (problem) throw new HostError("bad_input:extensions", `Nothing was recorded: the ${formatSyntaxProblem(problem)}`, { reason: "syntax_error", half, line: problem.line });
      }
      const out = await extStore.define(sessionId, input.name, {
        purpose: input.purpose,
        hostCode: input.host?.trim() ? input.host : null,
        browserCode: input.browser?.trim() ? input.browser : null,
      });
      changed(true);
      return { name: input.name, version: out.version, hash: out.hash, created: out.created, halves: halves.map(([h]) => h) };
    },

    async run(sessionId, input, signal) {
      const pkg = await findPackage(sessionId, input.name);
      const latest = pkg.versions.at(-1)?.version ?? 0;
      const version = input.version ?? latest;
      if (!pkg.versions.some((v) => v.version === version)) {
        throw refusal("definition_missing", `${input.name} has no version ${version}; its versions are 1–${latest}.`, { name: input.name });
      }
      const src = await extStore.source(pkg.id, version);
      const run = createRun(scope, {
        sessionId, packageId: pkg.id, packageName: pkg.name, version, hasHost: src.hostCode !== null, hasBrowser: src.browserCode !== null,
      });
      runs.push(run);
      changed();
      let approvedBy: RunResult["approvedBy"];
      try {
        approvedBy = await approve(run, src, signal);
      } catch (error) {
        const reason = error instanceof HostError ? error.data?.reason : undefined;
        await endRun(run, reason === "rejected" ? "rejected" : "cancelled", messageOf(error));
        throw error instanceof HostError ? error : refusal("cancelled", messageOf(error));
      }
      if (signal.aborted) {
        await endRun(run, "cancelled", "the turn ended");
        throw refusal("cancelled", "The turn ended before the extension started.");
      }
      // A package runs once per session: a new run replaces the current one (e.g. a newer version).
      const current = liveRun(sessionId, pkg.id);
      if (current && current !== run) await endRun(current, "stopped", null);
      run.state = "starting";
      changed();
      if (src.hostCode) await startHost(run, src.hostCode);
      if (!isLive(run)) throw refusal("host_half_failed", run.failure ?? "The host half stopped right after it started.");
      run.state = "running";
      for (const other of runs) {
        if (other !== run && other.sessionId === sessionId && other.state === "running") other.half?.emit("extension.started", { name: pkg.name, version });
      }
      changed();
      const browser = src.browserCode ? await waitForBrowser(run, signal) : "none";
      return { name: pkg.name, version, runId: run.id, state: "running", tools: run.half?.tools() ?? [], browser, approvedBy };
    },

    async stop(sessionId, name) {
      const pkg = await findPackage(sessionId, name);
      const run = liveRun(sessionId, pkg.id);
      if (!run) throw refusal("not_running", `${name} is not running. Start it with extension_run.`);
      await endRun(run, "stopped", null);
      return { name, version: run.version, stopped: true };
    },

    async undefine(sessionId, name) {
      const pkg = await findPackage(sessionId, name);
      const run = liveRun(sessionId, pkg.id);
      if (run) await endRun(run, "stopped", null);
      await extStore.remove(pkg.id);
      changed(true);
      return { name, versions: pkg.versions.length, stopped: Boolean(run) };
    },

    async packages(sessionId) {
      const list = await extStore.listForSession(sessionId);
      return list.map((pkg) => {
        const run = [...runs].reverse().find((r) => r.sessionId === sessionId && r.packageId === pkg.id);
        return { pkg, run: run ? runView(run) : null };
      });
    },

    services: (sessionId) => servicesOf(sessionId),

    async forgetSession(sessionId) {
      broker.withdrawSession(sessionId);
      await Promise.all(runs.filter((r) => r.sessionId === sessionId && isLive(r)).map((r) => endRun(r, "stopped", "the session was deleted")));
      changed(true);
    },

    api: {
      snapshot,
      events: (signal) => {
        const source = changes.snapshots(signal);
        return (async function* () {
          watchers++;
          try {
            yield* source;
          } finally {
            watchers--;
          }
        })();
      },
      source: (input) => extStore.source(input.packageId, input.version),
      answer: async (input) => broker.answer(input.id, { decision: input.decision, allowFuture: input.allowFuture ?? false }),
      async revokeGrant(input) {
        if (!(await extStore.revoke(input.packageId))) {
          throw new HostError("not_found:extensions", "This package has no active grant.", { reason: "no_grant" });
        }
        changed(true);
      },
      async stop(input) {
        const run = runOf(input.runId);
        if (!isLive(run)) throw refusal("not_running", `${run.packageName} v${run.version} is not running.`);
        await endRun(run, "stopped", null);
      },
      async call(input) {
        const run = runOf(input.runId);
        if (run.state !== "running") throw refusal("not_running", `${run.packageName} v${run.version} is not running.`);
        if (!run.half) throw new HostError("not_found:extensions", `${run.packageName} v${run.version} has no host half to call.`, { reason: "not_found" });
        return run.half.request(input.method, input.params);
      },
      bridge: (signal, runId) => bridgeMessages(signal, runId === undefined ? undefined : runOf(runId)),
      async reportBrowser(input) {
        const run = runOf(input.runId);
        if (!run.hasBrowser || !isLive(run)) return;
        if (input.ok) {
          if (run.browser !== "failed") run.browser = "rendered";
        } else {
          run.browser = "failed";
          run.browserFailure = (input.message ?? "the browser half failed to render").slice(0, 2_000);
        }
        run.settleBrowser();
        changed();
      },
      async setSettings(input) {
        const next = ExtensionSettings.parse(input);
        await store.settings.set(SETTINGS_KEY, next);
        settings = next;
        changed();
        return next;
      },
    },
  };

  /**
   * Host → browser messages as `{ runId, message }`: of one run (ending with it), or of every run (one
   * stream per page, so frames don't each hold a connection). A slow reader loses the oldest first.
   */
  function bridgeMessages(signal: AbortSignal, run?: Run): AsyncIterable<BridgeMessage> {
    const until = AbortSignal.any([signal, run ? run.scope.signal : scope.signal]);
    return iterateEvents<BridgeMessage>((fn) => {
      if (!run) {
        const all = (runId: string, message: unknown) => void fn({ runId, message });
        allBridges.add(all);
        return () => void allBridges.delete(all);
      }
      const one = (message: unknown) => void fn({ runId: run.id, message });
      run.bridges.add(one);
      return () => void run.bridges.delete(one);
    }, until, BRIDGE_QUEUE_MAX);
  }

  scope.add(async () => {
    await Promise.all(runs.filter(isLive).map((r) => endRun(r, "stopped", "the host is shutting down")));
  }, "runs");

  return extensions;
}
