import { homedir } from "node:os";
import { fileURLToPath } from "node:url";
import {
  formatIssues, SkillSettings, type CapabilityRow, type SkillCompletion, type SkillInspection, type SkillSettingsInput, type SkillsWhereInput,
} from "@seam/shared";
import type { StepHook, StepHooks } from "../agent/hooks.js";
import { toolsOf, type ToolRegistry } from "../agent/registry.js";
import type { ToolDef } from "../agent/tool.js";
import { toolsRow } from "../core/capability-row.js";
import { HostError } from "../core/errors.js";
import { createLog, type Log } from "../core/log.js";
import type { Disposer, Scope } from "../core/scope.js";
import type { Store } from "../persistence/store.js";
import { catalogHook, visibleCatalog } from "./catalog.js";
import { createFsProvider } from "./fs-provider.js";
import type { OpenHeadFile } from "./head.js";
import { inspectSkills } from "./inspect.js";
import { resolveUserInvocation, userCompletions, type UserInvocation } from "./invoke.js";
import {
  createSkillRegistry, type LoadedSkill, type Observation, type RuntimeSkill, type SkillProvider, type SkillRegistry,
} from "./registry.js";
import { loadParser } from "./parse.js";
import { skillTool } from "./tool.js";
import { chokidarWatcher, loadChokidar, type WatcherFactory } from "./watch.js";

export type { LoadedSkill, Observation, RuntimeSkill, SkillProvider } from "./registry.js";
export type { UserInvocation } from "./invoke.js";
export type { WatcherFactory } from "./watch.js";

/** The settings key holding `SkillSettings`. */
export const SETTINGS_KEY = "skills";
export const BUNDLED_DIR = fileURLToPath(new URL("./bundled/", import.meta.url));

export interface SkillsDeps {
  store: { items: Pick<Store["items"], "list">; settings: Store["settings"] };
  /** The user's home directory for `~/.dsh/skills` and `~/.agents/skills` (default os.homedir()); not Seam's data dir. */
  userHome?: string;
  /** Rank-600 root shipped with the host (default: skills/bundled next to this file); null for none. */
  bundledDir?: string | null;
  /** true (default): chokidar; false: no watchers; or a factory (tests). */
  watch?: boolean | WatcherFactory;
  log?: Log;
  /** Cached complete observations (default 64). */
  cacheSize?: number;
  /** Project roots watched at once (default 8). */
  maxWatchedProjects?: number;
  /** Opens a skill file for listing (default: the real file system; tests count the bytes read). */
  openSkillFile?: OpenHeadFile;
  /** Where the `skill` tool is registered for the capability's lifetime (none: not registered; tests). */
  registry?: ToolRegistry;
  /** Where the catalog hook is added (none: not added; tests). */
  hooks?: StepHooks;
  /** A session's workspace, for `api` calls that name a session. */
  workspaceOf?(sessionId: string): Promise<string>;
  /** The catalog the model sees in a session now (the sessions' model view, CTX-4); default: read from the whole timeline. */
  visibleCatalog?(sessionId: string): Promise<{ digest: string | null } | null>;
}

/** What the tRPC layer calls (`HostApi["skills"]`): the Skills page and the composer's `/name` completions (SKL-8, SKL-10). */
export interface Api {
  inspect(where: SkillsWhereInput): Promise<SkillInspection>;
  completions(sessionId: string): Promise<SkillCompletion[]>;
  settings(): Promise<SkillSettings>;
  setSettings(settings: SkillSettingsInput): Promise<SkillSettings>;
}

/** The skills capability (SKL-1..10). */
export interface Interface {
  readonly api: Api;
  /** The capability overview's row. */
  status(): CapabilityRow;
  /** Loads and exercises the SKILL.md parser (js-yaml) and loads the file watcher (chokidar) now: the host's warm-up after start. */
  warm(): Promise<void>;
  /**
   * Starts the list a session's first step will ask for (watchers armed, roots scanned, the result cached), in the
   * background; a failure here is left for that step to meet and report.
   */
  prepare(workspace: string, sessionId: string): void;
  /** Winners for a workspace and scope chain; cached while complete (SKL-4). */
  list(cwd: string, scopes?: readonly string[], signal?: AbortSignal): Promise<Observation>;
  /** The winning definition, re-read from its source on every call (SKL-5). */
  get(name: string, cwd: string, scopes?: readonly string[], signal?: AbortSignal): Promise<LoadedSkill | null>;
  /** The pre-step hook that keeps the session's catalog fact current (SKL-6). */
  catalogHook(): StepHook;
  /** The model-facing `skill` tool (SKL-7). */
  readonly skillTool: ToolDef;
  /** `/name …` → the skill to append as the last user context, or null to keep the text as is (SKL-8). */
  resolveUserInvocation(text: string, workspace: string, sessionId?: string): Promise<UserInvocation | null>;
  /** Composer completions: user-invocable skills, sorted by name (SKL-8). */
  userInvocable(workspace: string, sessionId?: string): Promise<SkillCompletion[]>;
  /** The skills page data (SKL-10). */
  inspect(workspace: string, sessionId?: string): Promise<SkillInspection>;
  settings: { get(): Promise<SkillSettings>; set(input: SkillSettingsInput): Promise<SkillSettings> };
  /** Diff-less `skills/change` (SKL-9); listener failures are logged and isolated. */
  onChange(fn: (event: { revision: number; reason: string }) => void | Promise<void>): Disposer;
  /** Synchronous invalidation after a write of ours into or around a skills root; true if it mattered. */
  invalidate(path: string): boolean;
  /** A skill given in code (rank 250) in a layer (default global; a session's layer is `session:<id>`). */
  register(skill: RuntimeSkill, opts?: { layer?: string }): Disposer;
  addProvider(provider: SkillProvider, opts?: { layer?: string }): Disposer;
  readonly registry: SkillRegistry;
}

/** The scope chain a session observes: the global layer is implied; then the session's own layer. */
export const sessionScopes = (sessionId: string | undefined): readonly string[] => (sessionId ? [`session:${sessionId}`] : []);

export function create(scope: Scope, deps: SkillsDeps): Interface {
  const log = deps.log ?? createLog("skills");
  const registry = createSkillRegistry({ log, cacheSize: deps.cacheSize });
  const watch = deps.watch === false ? false : deps.watch === true || deps.watch === undefined ? chokidarWatcher : deps.watch;

  let custom: Promise<string[]> | null = null;
  const readSettings = async (): Promise<SkillSettings> => {
    const raw = await deps.store.settings.get(SETTINGS_KEY);
    if (raw === undefined) return { customRoots: [] };
    const parsed = SkillSettings.safeParse(raw);
    if (parsed.success) return parsed.data;
    log.warn("stored skills settings are invalid; using none", { issues: formatIssues(parsed.error) });
    return { customRoots: [] };
  };
  const customRoots = () => {
    custom ??= readSettings().then((s) => s.customRoots);
    custom.catch(() => { custom = null; });
    return custom;
  };

  const fs = createFsProvider({
    userHome: deps.userHome ?? homedir(),
    bundledDir: deps.bundledDir === undefined ? BUNDLED_DIR : deps.bundledDir,
    customRoots,
    watch,
    maxWatchedProjects: deps.maxWatchedProjects,
    openFile: deps.openSkillFile,
    onChange: (reason) => registry.invalidate(reason),
    log,
  });
  scope.add(registry.addProvider(fs), "skills:provider:filesystem");
  scope.add(() => fs.close(), "skills:watchers");

  const list = (cwd: string, scopes: readonly string[] = [], signal?: AbortSignal) => registry.list({ cwd, scopes, signal });
  const get = (name: string, cwd: string, scopes: readonly string[] = [], signal?: AbortSignal) => registry.get(name, { cwd, scopes, signal });
  const workspaceOf = async (sessionId: string) => {
    if (!deps.workspaceOf) throw new HostError("unavailable:skills", "Skills were started without sessions.");
    return deps.workspaceOf(sessionId);
  };

  const skills: Omit<Interface, "api" | "status" | "warm"> = {
    list,
    prepare: (workspace, sessionId) => void list(workspace, sessionScopes(sessionId)).catch(() => {}),
    get,
    catalogHook: () => catalogHook({
      list,
      scopes: sessionScopes,
      visible: deps.visibleCatalog ?? (async (id) => {
        const visible = visibleCatalog(await deps.store.items.list(id));
        return visible ? { digest: visible.payload?.digest ?? null } : null;
      }),
    }),
    skillTool: skillTool({ list, get, scopes: sessionScopes }),
    resolveUserInvocation: (text, workspace, sessionId) => resolveUserInvocation((name) => get(name, workspace, sessionScopes(sessionId)), text),
    userInvocable: async (workspace, sessionId) => userCompletions(await list(workspace, sessionScopes(sessionId))),
    inspect: (workspace, sessionId) => inspectSkills({ registry, fs }, workspace, sessionScopes(sessionId)),
    settings: {
      get: readSettings,
      async set(input) {
        const parsed = SkillSettings.safeParse(input);
        if (!parsed.success) {
          throw new HostError("bad_input:skills", formatIssues(parsed.error, { root: "settings" }), { reason: "invalid_settings" });
        }
        await deps.store.settings.set(SETTINGS_KEY, parsed.data);
        custom = Promise.resolve(parsed.data.customRoots);
        registry.invalidate("custom roots changed");
        return parsed.data;
      },
    },
    onChange: (fn) => registry.onChange(fn),
    invalidate(path) {
      if (!fs.covers(path)) return false;
      registry.invalidate(`written: ${path}`);
      return true;
    },
    register: (skill, opts) => registry.register(skill, opts),
    addProvider: (provider, opts) => registry.addProvider(provider, opts),
    registry,
  };
  if (deps.registry) scope.add(deps.registry.register(skills.skillTool), "tool:skill");
  if (deps.hooks) scope.add(deps.hooks.add("skills:catalog", skills.catalogHook()), "hook:skills:catalog");

  return {
    ...skills,
    api: {
      inspect: async (where) => "workspace" in where
        ? skills.inspect(where.workspace)
        : skills.inspect(await workspaceOf(where.sessionId), where.sessionId),
      completions: async (sessionId) => skills.userInvocable(await workspaceOf(sessionId), sessionId),
      settings: () => skills.settings.get(),
      setSettings: (input) => skills.settings.set(input),
    },
    warm: async () => {
      loadParser();
      if (watch === chokidarWatcher) await loadChokidar();
    },
    status: () => skillsStatus(deps.registry ? toolsOf(deps.registry, "skills") : []),
  };
}

/** Skills are found per session workspace (project, user, custom and bundled roots); the catalog reaches the model as a fact. */
function skillsStatus(tools: string[]): CapabilityRow {
  return toolsRow({
    id: "skills",
    title: "Skills (skill, /name)",
    tools,
    ready: "Catalog built per session workspace from .dsh/skills and .agents/skills in the project and your home, custom roots and the bundled skills.",
    missing: "The skill tool is not registered.",
  });
}

export const createSkills = create;

