import { SKILL_NAME, SKILL_NAME_MAX } from "@seam/shared";
import { createBus } from "../core/events.js";
import { HostError, messageOf } from "../core/errors.js";
import type { Log } from "../core/log.js";
import type { Disposer } from "../core/scope.js";

export const GLOBAL_LAYER = "global";
export const RUNTIME_RANK = 250;
export const SKILLS_CHANGE = "skills/change";

/** Where a skill's referenced files live: a directory, a URL, or an honest "ask the provider" note. */
export type ResourceBase = { kind: "directory"; path: string } | { kind: "url"; url: string } | { kind: "opaque"; text: string };

/** Frontmatter fields seen in the wild, preserved for display (SKL-3). */
export interface SkillMeta {
  license?: string;
  compatibility?: string;
  metadata?: Record<string, unknown>;
  allowedTools?: string[];
  /** Keys Seam does not interpret, with their values. */
  extra?: Record<string, unknown>;
}

/** The invocation-neutral catalog row. */
export interface SkillSummary {
  name: string;
  description: string;
  whenToUse?: string;
  modelInvocable: boolean;
  userInvocable: boolean;
}

/** What a provider hands the registry: a summary plus precedence and a provider-private locator. */
export interface SkillCandidate extends SkillSummary {
  rank: number;
  /** Human-facing origin ("project-dsh", "custom", …). Precedence comes from layer and rank only. */
  source: string;
  path?: string;
  meta?: SkillMeta;
  locator?: unknown;
}

/** A fully loaded skill (SKL-5): never cached by the registry. */
export interface SkillDefinition extends SkillSummary {
  body: string;
  resourceBase: ResourceBase | null;
  path?: string;
  meta?: SkillMeta;
}

export interface SkillDiagnostic {
  path: string;
  reason: string;
  severity: "error" | "warning";
  name?: string;
  root?: string;
}

export interface ProviderObservation { candidates: SkillCandidate[]; complete: boolean; diagnostics?: SkillDiagnostic[] }

export interface SkillQuery { cwd?: string; signal?: AbortSignal }

export interface SkillProvider {
  readonly id: string;
  list(query: SkillQuery): Promise<SkillCandidate[] | ProviderObservation>;
  get(candidate: SkillCandidate, query: SkillQuery): Promise<SkillDefinition | null>;
  /** Drops anything the provider memoizes (a loaded definition no longer matched its candidate). */
  invalidate?(): void;
}

/** A read: the workspace and the observing scope chain, outermost first (e.g. ["session:abc"]). */
export interface ViewOptions extends SkillQuery { scopes?: readonly string[] }

/** A candidate as placed by the registry. */
export interface Entry extends SkillCandidate {
  layer: string;
  provider: string;
  providerOrder: number;
  localOrder: number;
}

export interface Observation {
  /** Winners only, sorted by name. */
  candidates: Entry[];
  complete: boolean;
  diagnostics: SkillDiagnostic[];
  revision: number;
}

export interface FullObservation extends Observation {
  /** Every candidate, each name's winner first; shadowed ones name their winner. */
  entries: (Entry & { shadowedBy: Entry | null })[];
}

export interface LoadedSkill extends SkillDefinition { layer: string; source: string; rank: number; provider: string }

/** A skill given in code (rank 250 in its layer). */
export interface RuntimeSkill {
  name: string;
  description: string;
  whenToUse?: string;
  body: string;
  modelInvocable?: boolean;
  userInvocable?: boolean;
  resourceBase?: ResourceBase | null;
}

export interface SkillRegistry {
  readonly revision: number;
  /** Adds a provider to a layer (default global); bumps the revision. */
  addProvider(provider: SkillProvider, opts?: { layer?: string }): Disposer;
  /** First registration of a name in a layer wins; a later one is warned about and gets a no-op disposer. */
  register(skill: RuntimeSkill, opts?: { layer?: string }): Disposer;
  /** Cached while complete (SKL-4). */
  list(opts: ViewOptions): Promise<Observation>;
  /** Uncached, with shadowed candidates: for the skills page. */
  observe(opts: ViewOptions): Promise<FullObservation>;
  /** The winner's definition, re-read every time (SKL-5); null when unknown or no longer matching. */
  get(name: string, opts: ViewOptions): Promise<LoadedSkill | null>;
  /** Loads one entry as its provider sees it now, without name checks (previews). */
  load(entry: Entry, query: SkillQuery): Promise<SkillDefinition | null>;
  /** Bumps the revision, drops cached observations and announces `skills/change`. */
  invalidate(reason: string): void;
  /** Diff-less change notification (SKL-9); a failing listener is reported and does not affect others. */
  onChange(fn: (event: { revision: number; reason: string }) => void | Promise<void>): Disposer;
}

export interface RegistryOptions {
  log?: Log;
  /** Cached complete observations (default 64). */
  cacheSize?: number;
}

interface ProviderRecord { provider: SkillProvider; layer: string; order: number }

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const isSkillName = (name: unknown): name is string =>
  typeof name === "string" && name.length <= SKILL_NAME_MAX && SKILL_NAME.test(name);

const badCandidate = (c: SkillCandidate): string | null => {
  if (!isSkillName(c.name)) return `invalid name ${JSON.stringify(c.name)}`;
  if (typeof c.description !== "string" || !c.description.trim()) return `skill "${c.name}" has no description`;
  if (!Number.isFinite(c.rank)) return `skill "${c.name}" has no rank`;
  return null;
};

export function createSkillRegistry(options: RegistryOptions = {}): SkillRegistry {
  const log = options.log;
  const cacheSize = Math.max(1, options.cacheSize ?? 64);
  const bus = createBus<{ [SKILLS_CHANGE]: { revision: number; reason: string } }>({
    onError: (error) => log?.warn("a skills/change listener failed", { error: messageOf(error) }),
  });
  const providers: ProviderRecord[] = [];
  const runtime = new Map<string, Map<string, { skill: RuntimeSkill; order: number }>>();
  const cache = new Map<string, { entries: Entry[]; diagnostics: SkillDiagnostic[] }>();
  let revision = 0;
  let providerOrder = 0;
  let runtimeOrder = 0;

  const invalidate = (reason: string) => {
    revision += 1;
    cache.clear();
    bus.emit(SKILLS_CHANGE, { revision, reason });
  };

  const runtimeProvider: SkillProvider = {
    id: "runtime",
    async list() { return []; },
    async get(candidate) {
      const skill = (candidate.locator as { skill: RuntimeSkill } | undefined)?.skill;
      if (!skill) return null;
      return {
        name: skill.name, description: skill.description, whenToUse: skill.whenToUse, body: skill.body,
        modelInvocable: skill.modelInvocable ?? true, userInvocable: skill.userInvocable ?? true, resourceBase: skill.resourceBase ?? null,
      };
    },
  };

  const runtimeEntries = (layers: string[]): Entry[] => layers.flatMap((layer) =>
    [...(runtime.get(layer)?.values() ?? [])].map(({ skill, order }) => ({
      name: skill.name, description: skill.description, whenToUse: skill.whenToUse,
      modelInvocable: skill.modelInvocable ?? true, userInvocable: skill.userInvocable ?? true,
      rank: RUNTIME_RANK, source: "runtime", locator: { skill },
      layer, provider: runtimeProvider.id, providerOrder: 0, localOrder: order,
    })));

  const checkAborted = (signal?: AbortSignal) => {
    if (signal?.aborted) throw new HostError("closed:skills", "The skills lookup was cancelled.", { reason: "cancelled" });
  };

  /** One discovery pass over the providers visible from the view. */
  const collect = async (opts: ViewOptions) => {
    const layers = [GLOBAL_LAYER, ...(opts.scopes ?? [])];
    const visible = providers.filter((p) => layers.includes(p.layer));
    const query: SkillQuery = { cwd: opts.cwd, signal: opts.signal };
    const settled = await Promise.allSettled(visible.map((p) => p.provider.list(query)));
    let complete = true;
    const entries: Entry[] = runtimeEntries(layers);
    const diagnostics: SkillDiagnostic[] = [];
    settled.forEach((result, i) => {
      const record = visible[i]!;
      if (result.status === "rejected") {
        complete = false;
        log?.warn(`skills provider "${record.provider.id}" failed to list; its skills are left out`, { error: messageOf(result.reason) });
        return;
      }
      const observation = Array.isArray(result.value) ? { candidates: result.value, complete: true } : result.value;
      const bad = observation.candidates.map(badCandidate).find((b) => b !== null);
      if (bad) {
        complete = false;
        log?.warn(`skills provider "${record.provider.id}" returned a bad candidate (${bad}); its list is left out`);
        return;
      }
      if (!observation.complete) complete = false;
      diagnostics.push(...(observation.diagnostics ?? []));
      observation.candidates.forEach((c, localOrder) => {
        // Object.assign, not a spread with extra keys: V8 copies that one ~10x slower, which shows at thousands of skills.
        entries.push(Object.assign({}, c, { layer: record.layer, provider: record.provider.id, providerOrder: record.order, localOrder }));
      });
    });
    return { entries, diagnostics, complete, layers };
  };

  /** Nearest layer wins outright; within a layer rank, then provider order, then local order (SKL-1). */
  const order = (entries: Entry[], layers: string[]) => {
    // Each entry's layer depth is looked up once, not on every comparison (a cold list sorts thousands).
    const depths = new Map(layers.map((l) => [l, layers.lastIndexOf(l)]));
    const keyed = entries.map((entry) => ({ entry, depth: depths.get(entry.layer) ?? -1 }));
    keyed.sort((x, y) => {
      const a = x.entry;
      const b = y.entry;
      return compare(a.name, b.name) || y.depth - x.depth || a.rank - b.rank || a.providerOrder - b.providerOrder || a.localOrder - b.localOrder;
    });
    return keyed.map((k) => k.entry);
  };
  /** The first of each name in precedence order (what `list` needs). */
  const winnersOf = (entries: Entry[], layers: string[]) => {
    const winners: Entry[] = [];
    for (const entry of order(entries, layers)) if (winners.at(-1)?.name !== entry.name) winners.push(entry);
    return winners;
  };
  const resolve = (entries: Entry[], layers: string[]) => {
    const winners: Entry[] = [];
    const all: (Entry & { shadowedBy: Entry | null })[] = [];
    for (const entry of order(entries, layers)) {
      const winner = winners.at(-1)?.name === entry.name ? winners.at(-1)! : null;
      if (!winner) winners.push(entry);
      all.push(Object.assign({}, entry, { shadowedBy: winner }));
    }
    return { winners, all };
  };

  const keyOf = (opts: ViewOptions, rev: number) => JSON.stringify([opts.cwd ?? "", opts.scopes ?? [], rev]);

  /**
   * Discoveries started without a signal (a session getting ready), by key: a list of the same view while one runs
   * waits for it instead of scanning the roots a second time. One with a signal is never shared, so no caller's
   * cancellation ends another's list.
   */
  const inflight = new Map<string, ReturnType<typeof collect>>();
  const discover = (key: string, opts: ViewOptions): ReturnType<typeof collect> => {
    const running = inflight.get(key);
    if (running) return running;
    const started = collect(opts);
    if (opts.signal) return started;
    inflight.set(key, started);
    const done = () => inflight.get(key) === started && inflight.delete(key);
    started.then(done, done);
    return started;
  };

  const list = async (opts: ViewOptions): Promise<Observation> => {
    checkAborted(opts.signal);
    let latest: Awaited<ReturnType<typeof collect>> | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const rev = revision;
      const key = keyOf(opts, rev);
      const hit = cache.get(key);
      if (hit) {
        cache.delete(key);
        cache.set(key, hit);
        checkAborted(opts.signal);
        return { candidates: hit.entries, complete: true, diagnostics: hit.diagnostics, revision: rev };
      }
      latest = await discover(key, opts);
      checkAborted(opts.signal);
      if (rev !== revision) continue; // changed while discovering: retry once (SKL-4)
      const winners = winnersOf(latest.entries, latest.layers);
      if (latest.complete) {
        cache.set(key, { entries: winners, diagnostics: latest.diagnostics });
        while (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
      }
      return { candidates: winners, complete: latest.complete, diagnostics: latest.diagnostics, revision: rev };
    }
    const winners = winnersOf(latest!.entries, latest!.layers);
    return { candidates: winners, complete: false, diagnostics: latest!.diagnostics, revision };
  };

  const providerOf = (id: string) => (id === runtimeProvider.id ? runtimeProvider : providers.find((p) => p.provider.id === id)?.provider);

  return {
    get revision() { return revision; },
    addProvider(provider, opts = {}) {
      const record: ProviderRecord = { provider, layer: opts.layer ?? GLOBAL_LAYER, order: ++providerOrder };
      providers.push(record);
      invalidate(`provider ${provider.id} added`);
      return () => {
        const i = providers.indexOf(record);
        if (i < 0) return;
        providers.splice(i, 1);
        invalidate(`provider ${provider.id} removed`);
      };
    },
    register(skill, opts = {}) {
      if (!isSkillName(skill.name)) {
        throw new HostError("bad_input:skills", `Invalid skill name ${JSON.stringify(skill.name)}: use kebab-case (e.g. pdf-tools).`, { reason: "invalid_skill_name" });
      }
      if (!skill.description?.trim()) throw new HostError("bad_input:skills", `Skill "${skill.name}" needs a description.`, { reason: "invalid_skill" });
      const layer = opts.layer ?? GLOBAL_LAYER;
      let table = runtime.get(layer);
      if (!table) runtime.set(layer, (table = new Map()));
      if (table.has(skill.name)) {
        log?.warn(`skill "${skill.name}" is already registered in layer ${layer}; the later registration is ignored`);
        return () => {};
      }
      const record = { skill, order: ++runtimeOrder };
      table.set(skill.name, record);
      invalidate(`runtime skill ${skill.name} registered`);
      return () => {
        const current = runtime.get(layer);
        if (current?.get(skill.name) !== record) return;
        current.delete(skill.name);
        if (current.size === 0) runtime.delete(layer);
        invalidate(`runtime skill ${skill.name} unregistered`);
      };
    },
    list,
    async observe(opts) {
      checkAborted(opts.signal);
      const rev = revision;
      const collected = await collect(opts);
      const { winners, all } = resolve(collected.entries, collected.layers);
      return { candidates: winners, entries: all, complete: collected.complete && rev === revision, diagnostics: collected.diagnostics, revision };
    },
    async get(name, opts) {
      if (!isSkillName(name)) return null;
      const observation = await list(opts);
      const winner = observation.candidates.find((c) => c.name === name);
      if (!winner) return null;
      const provider = providerOf(winner.provider);
      if (!provider) return null;
      const definition = await provider.get(winner, { cwd: opts.cwd, signal: opts.signal });
      checkAborted(opts.signal);
      if (!definition || definition.name !== name) {
        // The catalog is stale for this provider: the file went away or now defines another name (SKL-5).
        log?.warn(`skill "${name}" no longer matches its ${winner.source} candidate; refreshing the catalog`, { found: definition?.name ?? null });
        provider.invalidate?.();
        invalidate(`skill ${name} no longer matches`);
        return null;
      }
      return { ...definition, layer: winner.layer, source: winner.source, rank: winner.rank, provider: winner.provider, path: definition.path ?? winner.path };
    },
    async load(entry, query) {
      const provider = providerOf(entry.provider);
      return provider ? provider.get(entry, query) : null;
    },
    invalidate,
    onChange(fn) {
      return bus.on(SKILLS_CHANGE, fn);
    },
  };
}
