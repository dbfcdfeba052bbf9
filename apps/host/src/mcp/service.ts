import {
  formatIssues, issuesOf, McpServerConfig, messageFor, type McpApproval, type McpSetToolInput, type McpExport, type McpImportPreview, type McpImportResult, type McpServerConfigInput, type McpServerState,
  type McpServerView, type McpProbeFailure, type McpProbeSeen, type McpProbeStatus, type McpSaveOptions, type McpSaveResult,
} from "@seam/shared";
import type { z } from "zod";
import { createChanges } from "../core/changes.js";
import { usesOAuth } from "./oauth/auth-status.js";
import { HostError, messageOf } from "../core/errors.js";
import type { Scope } from "../core/scope.js";
import type { Database } from "../persistence/db.js";
import { exportServers, previewImport, sameConfig, sameTransport } from "./import.js";
import { withToolPolicy } from "./policy.js";
import type { McpHub } from "./hub.js";
import { createMcpStore, type McpStore } from "./store.js";
import type { Prober } from "./probe.js";
import { createLog } from "../core/log.js";

/** MCP server management for the tRPC layer (MCP-10): saved configs joined with the hub's live state. */
export interface McpService {
  /** Every saved server, sorted by name, with its live state. */
  list(): McpServerView[];
  /**
   * Tries the server first (MCP-10: spawn or connect, initialize, list tools), then saves and starts it; a failed try
   * saves nothing (unless `force`), a failed activation rolls the save back. The answer says what the try saw.
   */
  add(config: McpServerConfigInput, options?: McpSaveOptions): Promise<McpSaveResult>;
  /**
   * Replaces server `name` (`config.name` may rename it), restarting it; on failure the old config stays. A change of
   * transport (command, args, env, cwd, URL, headers) is tried first, like `add`.
   */
  update(name: string, config: McpServerConfigInput, options?: McpSaveOptions): Promise<McpSaveResult>;
  remove(name: string): Promise<void>;
  setEnabled(name: string, enabled: boolean): Promise<McpServerView>;
  /** One tool's policy (MCP-8): enabled for the model or not, its approval (`inherit` drops the override). Applies without reconnecting. */
  setTool(input: McpSetToolInput): Promise<McpServerView>;
  /** The server's default approval (MCP-8). Applies without reconnecting. */
  setApproval(name: string, approval: McpApproval): Promise<McpServerView>;
  restart(name: string): Promise<McpServerView>;
  importPreview(json: string): Promise<McpImportPreview>;
  /** Applies the selected entries; each is tried first like `add`/`update`, except those named in `force`. */
  importApply(json: string, names?: string[], force?: string[]): Promise<McpImportResult>;
  /** The progress of the try named `probeId` (MCP-10), kept a while after it ended. not_found:mcp when unknown. */
  probeStatus(probeId: string): McpProbeStatus;
  exportJson(): Promise<McpExport>;
  /** A snapshot now, then one after every burst of changes (at most one per `throttleMs`). */
  events(signal: AbortSignal): AsyncIterable<McpServerView[]>;
  /** Resolves when the start-up activations launched at creation have settled (tests, diagnostics). */
  settled(): Promise<void>;
}

export interface McpServiceDeps {
  hub: McpHub;
  db: Pick<Database, "exclusive">;
  /** Tries a config before it is saved (MCP-10). Without it nothing is tried (unit tests of the save path alone). */
  probe?: Prober;
  /** Coalescing window for `events` (default 100 ms). */
  throttleMs?: number;
  log?: (message: string) => void;
}

const invalid = (error: z.ZodError) => {
  const issues = issuesOf(error);
  return new HostError("bad_input:mcp", `Invalid MCP server config: ${formatIssues(issues)}`, { issues });
};
const policyOf = (c: McpServerConfig) => ({ enabledTools: c.enabledTools, disabledTools: c.disabledTools, approval: c.approval, toolApproval: c.toolApproval });
/** The try's failure carried by a HostError from the prober (`data.probe`), if it is one. */
const probeFailureOf = (error: unknown): McpProbeFailure | undefined =>
  error instanceof HostError && typeof error.data?.probe === "object" && error.data.probe !== null ? (error.data.probe as McpProbeFailure) : undefined;
const notFound = (name: string) => new HostError("not_found:mcp", `No MCP server named "${name}" is configured.`, { name });

/**
 * Loads the saved configs and starts the enabled ones in the background: the host does not wait
 * for a slow or dead server, and the state of each is visible meanwhile.
 */
export async function createMcpService(scope: Scope, deps: McpServiceDeps): Promise<McpService> {
  const { hub } = deps;
  const log = deps.log ?? ((m: string) => createLog("mcp").warn(m));
  const throttleMs = deps.throttleMs ?? 100;
  const store: McpStore = createMcpStore(deps.db, { onCorrupt: (n, p) => log(`saved config "${n}" is unreadable and was skipped: ${p}`) });
  const configs = new Map<string, McpServerConfig>();
  for (const c of await store.list()) configs.set(c.name, c);
  /** Start-up activations still running, and those that failed (the hub forgot them). */
  const booting = new Set<string>();
  const bootErrors = new Map<string, string>();
  let closed = false;

  const changes = createChanges(() => list(), { throttleMs });
  const changed = () => changes.changed();
  scope.add(hub.onChange(changed), "mcp:hub-listener");
  scope.add(() => {
    closed = true;
    // Ends any open `events` stream.
    changes.close();
  }, "mcp:service");

  // One mutation at a time per server name; a rename holds both names (taken in sorted order).
  const locks = new Map<string, Promise<void>>();
  const withNames = async <T>(names: string[], fn: () => Promise<T>): Promise<T> => {
    const releases: (() => void)[] = [];
    for (const name of [...new Set(names)].sort()) {
      const prev = locks.get(name) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((r) => { release = r; });
      const tail = prev.then(() => mine);
      locks.set(name, tail);
      releases.push(() => { release(); if (locks.get(name) === tail) locks.delete(name); });
      await prev;
    }
    try {
      if (closed) throw new HostError("closed:mcp", messageFor("closed:host"));
      return await fn();
    } finally {
      for (const r of releases.reverse()) r();
      changed();
    }
  };

  const fallbackState = (c: McpServerConfig): McpServerState => {
    if (!c.enabled) return { state: "disabled" };
    if (booting.has(c.name)) return { state: "connecting", phase: "connecting" };
    const error = bootErrors.get(c.name);
    return error ? { state: "failed", error } : { state: "stopped" };
  };
  const viewOf = (c: McpServerConfig): McpServerView => {
    const live = hub.get(c.name);
    if (live) return { ...live, config: c };
    return { config: c, status: fallbackState(c), generation: 0, tools: [], toolsRegistered: false, instructions: null, stderrTail: "", serverInfo: null };
  };
  const list = () => [...configs.values()].sort((a, b) => (a.name < b.name ? -1 : 1)).map(viewOf);

  const parse = (input: McpServerConfigInput): McpServerConfig => {
    const r = McpServerConfig.safeParse(input);
    if (!r.success) throw invalid(r.error);
    return r.data;
  };

  /** Saves `config` (new), then activates it; any activation failure deletes the row again. */
  const addLocked = async (config: McpServerConfig) => {
    if (configs.has(config.name)) throw new HostError("conflict:mcp", `An MCP server named "${config.name}" already exists.`, { name: config.name });
    await store.create(config);
    configs.set(config.name, config);
    bootErrors.delete(config.name);
    try {
      await hub.start(config);
    } catch (error) {
      configs.delete(config.name);
      // A conflict means someone else's live server holds the name: not ours to stop.
      if (!(error instanceof HostError && error.kind === "conflict")) {
        await hub.stop(config.name).catch((e: unknown) => log(`cleanup of "${config.name}" after a failed start: ${messageOf(e)}`));
      }
      await store.remove(config.name).catch((e: unknown) => log(`rollback of "${config.name}" failed: ${messageOf(e)}`));
      throw error;
    }
    return viewOf(config);
  };

  /** Stops `old`, saves `next` in its place and activates it; on failure restores and restarts `old`. */
  const replaceLocked = async (old: McpServerConfig, next: McpServerConfig) => {
    if (next.name !== old.name && configs.has(next.name)) {
      throw new HostError("conflict:mcp", `Cannot rename "${old.name}" to "${next.name}": a server with that name already exists.`, { name: next.name });
    }
    if (sameConfig(old, next)) return viewOf(old);
    // Only enabledTools/disabledTools/approval changed: saved, then applied to the live server without reconnecting (MCP-8).
    if (sameConfig({ ...old, ...policyOf(next) }, next)) {
      await store.update(old.name, next);
      configs.set(next.name, next);
      if (hub.get(next.name)) await hub.setPolicy(next);
      return viewOf(next);
    }
    await hub.stop(old.name);
    try {
      await store.update(old.name, next);
    } catch (error) {
      await hub.start(old).catch((e: unknown) => bootErrors.set(old.name, messageOf(e)));
      throw error;
    }
    configs.delete(old.name);
    configs.set(next.name, next);
    bootErrors.delete(old.name);
    try {
      await hub.start(next);
    } catch (error) {
      await hub.stop(next.name).catch(() => {});
      await store.update(next.name, old);
      configs.delete(next.name);
      configs.set(old.name, old);
      await hub.start(old).catch((e: unknown) => {
        bootErrors.set(old.name, messageOf(e));
        log(`restarting "${old.name}" with its previous config failed: ${messageOf(e)}`);
      });
      throw error;
    }
    return viewOf(next);
  };

  // The try before a save (MCP-10), its progress kept by the client's probe id for polling.
  const probes = new Map<string, McpProbeStatus>();
  const PROBES_KEPT = 50;
  const track = (id: string | undefined, server: string, patch: Partial<McpProbeStatus>) => {
    if (!id) return;
    const prev = probes.get(id) ?? { id, server, state: "running", step: "starting", seen: null, failure: null };
    probes.delete(id);
    probes.set(id, { ...prev, ...patch });
    for (const old of probes.keys()) {
      if (probes.size <= PROBES_KEPT) break;
      probes.delete(old);
    }
  };
  /** Tries `config` unless there is nothing to try (no prober, disabled, `force`, an unchanged transport). */
  const tryFirst = async (config: McpServerConfig, options: McpSaveOptions, old?: McpServerConfig): Promise<McpProbeSeen | null> => {
    const probe = deps.probe;
    if (!probe || !config.enabled || options.force || (old && old.enabled && sameTransport(old, config))) return null;
    const id = options.probeId;
    track(id, config.name, { state: "running", step: "starting", seen: null, failure: null });
    try {
      const seen = await probe(config, (step) => track(id, config.name, { step }));
      track(id, config.name, { state: "succeeded", seen });
      return seen;
    } catch (error) {
      const failure = probeFailureOf(error);
      // A server that asks for OAuth answers 401 until someone signs in (MCP-11): it is saved and shows
      // "needs authorization", with Authorize on its page — the try cannot sign in by itself.
      if (failure?.reason === "unauthorized" && usesOAuth(config)) {
        const seen: McpProbeSeen = { serverInfo: null, protocolVersion: null, toolCount: 0, needsAuthorization: true };
        track(id, config.name, { state: "succeeded", seen });
        return seen;
      }
      track(id, config.name, { state: "failed", failure: failure ?? { step: "starting", reason: "failed", message: messageOf(error), stderrTail: "" } });
      throw error;
    }
  };
  const nameFree = (name: string) => {
    if (configs.has(name)) throw new HostError("conflict:mcp", `An MCP server named "${name}" already exists.`, { name });
  };

  const existing = (name: string) => {
    const c = configs.get(name);
    if (!c) throw notFound(name);
    return c;
  };

  const service: McpService = {
    list,
    add: async (input, options = {}) => {
      const config = parse(input);
      return withNames([config.name], async () => {
        nameFree(config.name);
        const probe = await tryFirst(config, options);
        return { ...(await addLocked(config)), probe };
      });
    },
    update: async (name, input, options = {}) => {
      const next = parse(input);
      return withNames([name, next.name], async () => {
        const old = existing(name);
        if (next.name !== old.name) nameFree(next.name);
        const probe = sameConfig(old, next) ? null : await tryFirst(next, options, old);
        return { ...(await replaceLocked(old, next)), probe };
      });
    },
    remove: (name) => withNames([name], async () => {
      existing(name);
      await store.remove(name);
      configs.delete(name);
      bootErrors.delete(name);
      await hub.stop(name);
    }),
    setEnabled: (name, enabled) => withNames([name], () => {
      const c = existing(name);
      return replaceLocked(c, { ...c, enabled });
    }),
    setTool: (input) => withNames([input.name], () => {
      const c = existing(input.name);
      return replaceLocked(c, parse(withToolPolicy(c, input)));
    }),
    setApproval: (name, approval) => withNames([name], () => {
      const c = existing(name);
      return replaceLocked(c, { ...c, approval });
    }),
    restart: (name) => withNames([name], async () => {
      const c = existing(name);
      if (!c.enabled) throw new HostError("bad_input:mcp", `"${name}" is disabled: enable it to start it.`, { name });
      bootErrors.delete(name);
      try {
        if (hub.get(name)) await hub.restart(name);
        else await hub.start(c);
      } catch (error) {
        if (!hub.get(name)) bootErrors.set(name, messageOf(error));
        throw error;
      }
      return viewOf(c);
    }),
    importPreview: async (json) => previewImport(json, configs),
    importApply: async (json, names, force) => {
      const forced = new Set(force ?? []);
      const preview = previewImport(json, configs);
      const wanted = names ? new Set(names) : null;
      const result: McpImportResult = { applied: [], skipped: [], failed: [] };
      for (const name of wanted ?? []) {
        if (!preview.entries.some((e) => e.name === name)) result.skipped.push({ name, reason: "not in the pasted document" });
      }
      for (const entry of preview.entries) {
        if (wanted && !wanted.has(entry.name)) continue;
        if (entry.action === "invalid" || entry.action === "unchanged" || !entry.config) {
          result.skipped.push({ name: entry.name, reason: entry.action === "invalid" ? "invalid" : "unchanged" });
          continue;
        }
        const config = entry.config;
        try {
          // Re-checked under the lock: the saved set may have changed since the preview.
          await withNames([config.name], async () => {
            const saved = configs.get(config.name);
            await tryFirst(config, { force: forced.has(config.name) }, saved);
            if (saved) await replaceLocked(saved, config);
            else await addLocked(config);
          });
          result.applied.push({ name: entry.name, action: entry.action });
        } catch (error) {
          const probe = probeFailureOf(error);
          result.failed.push({ name: entry.name, message: messageOf(error), ...(probe && { probe }) });
        }
      }
      return result;
    },
    exportJson: async () => exportServers(list().map((v) => v.config)),
    probeStatus: (probeId) => {
      const status = probes.get(probeId);
      if (!status) throw new HostError("not_found:mcp", "No try of an MCP server with this id is running or recently ended.", { probeId });
      return status;
    },
    events: (signal) => changes.snapshots(signal),
    settled: () => boot,
  };

  // Start-up activation in the background (MCP-3): failures are shown as the server's state.
  const boot = Promise.all([...configs.values()].map(async (c) => {
    booting.add(c.name);
    changed();
    try {
      await withNames([c.name], () => hub.start(c));
    } catch (error) {
      if (!closed) {
        bootErrors.set(c.name, messageOf(error));
        log(`"${c.name}" did not start: ${messageOf(error)}`);
      }
    } finally {
      booting.delete(c.name);
      changed();
    }
  })).then(() => undefined);

  return service;
}
