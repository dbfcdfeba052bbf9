import type { Dirent } from "node:fs";
import { lstat, readdir, readFile, realpath, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { messageOf } from "../core/errors.js";
import type { Log } from "../core/log.js";
import { parseSkill } from "./parse.js";
import type { ProviderObservation, SkillCandidate, SkillDefinition, SkillDiagnostic, SkillProvider, SkillQuery } from "./registry.js";
import { isSkillName } from "./registry.js";
import { findProjectRoot, isInside, rootSpecs, type RootSpec } from "./roots.js";
import { watchRoot, type RootWatch, type WatcherFactory, type WatchState } from "./watch.js";

export const FS_PROVIDER_ID = "filesystem";
/** A skill file larger than this is reported, not read. */
export const MAX_SKILL_BYTES = 512 * 1024;
const READ_CONCURRENCY = 32;

export interface FsProviderOptions {
  userHome: string;
  bundledDir?: string | null;
  /** Custom roots (rank 300) in precedence order; read on every uncached list. */
  customRoots(): Promise<string[]>;
  /** Watcher factory; `false` turns watching off (observations stay complete; invalidate explicitly). */
  watch: WatcherFactory | false;
  /** Project roots kept under watch at once; the least recently used is dropped (default 8). */
  maxWatchedProjects?: number;
  /** A watched root changed: the registry bumps its revision. */
  onChange(reason: string): void;
  log?: Log;
}

/** Where a filesystem candidate lives; handed back to get() unchanged. */
interface Locator { file: string; root: string; rootReal: string; name: string; kind: "bundle" | "flat" }

export interface FsProvider extends SkillProvider {
  /** The roots for a workspace, in rank order, with the project root they were derived from. */
  roots(cwd?: string): Promise<{ projectRoot: string | null; roots: RootSpec[] }>;
  watchState(root: RootSpec): Exclude<WatchState, "idle"> | "off";
  /** True when `path` is inside (or is an ancestor of) a root this provider reads. */
  covers(path: string): boolean;
  close(): Promise<void>;
}

type Scan = { candidates: SkillCandidate[]; diagnostics: SkillDiagnostic[] };

export async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = Array.from<R>({ length: items.length });
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Realpath of `path`, refused unless it stays inside `rootReal` (SEC-3). */
async function contained(path: string, rootReal: string): Promise<{ real: string } | { reason: string }> {
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { reason: code === "ENOENT" ? "broken symlink or missing file" : `cannot resolve (${code ?? messageOf(error)})` };
  }
  return isInside(rootReal, real) ? { real } : { reason: `resolves outside its root (to ${real}); symlinks must stay inside the skills root` };
}

/** Reads and parses one skill file; the frontmatter name, when present, must match the folder or file name. */
async function readSkill(file: string) {
  const info = await stat(file);
  if (!info.isFile()) return { ok: false as const, reason: "not a regular file" };
  if (info.size > MAX_SKILL_BYTES) return { ok: false as const, reason: `larger than ${MAX_SKILL_BYTES / 1024} KiB` };
  return parseSkill(await readFile(file, "utf8"));
}

async function scanEntry(spec: RootSpec, rootReal: string, entry: Dirent): Promise<{ candidate?: SkillCandidate; diagnostics: SkillDiagnostic[] } | null> {
  const shown = join(spec.path, entry.name);
  const diag = (reason: string, severity: SkillDiagnostic["severity"] = "error", path = shown, name?: string): SkillDiagnostic =>
    ({ path, reason, severity, root: spec.path, ...(name ? { name } : {}) });

  let isDir = entry.isDirectory();
  let isFile = entry.isFile();
  if (entry.isSymbolicLink()) {
    const target = await contained(join(rootReal, entry.name), rootReal);
    if ("reason" in target) return { diagnostics: [diag(`symlink ${target.reason}`)] };
    const info = await stat(target.real).catch(() => null);
    isDir = info?.isDirectory() ?? false;
    isFile = info?.isFile() ?? false;
  }
  let name: string;
  let kind: Locator["kind"];
  let shownFile: string;
  if (isDir) {
    name = entry.name;
    kind = "bundle";
    shownFile = join(shown, "SKILL.md");
  } else if (isFile && entry.name.endsWith(".md")) {
    name = entry.name.slice(0, -3);
    kind = "flat";
    shownFile = shown;
  } else return null; // other files in a root are not skills

  if (!isSkillName(name)) {
    return { diagnostics: [diag(`"${name}" is not a valid skill name: use kebab-case (lowercase letters, digits, single hyphens; at most 64 characters)`)] };
  }
  const file = kind === "bundle" ? join(rootReal, entry.name, "SKILL.md") : join(rootReal, entry.name);
  if (kind === "bundle" && !(await lstat(file).then(() => true, () => false))) {
    return { diagnostics: [diag("folder has no SKILL.md", "warning", shown, name)] };
  }
  const safe = await contained(file, rootReal);
  if ("reason" in safe) return { diagnostics: [diag(safe.reason, "error", shownFile, name)] };
  let parsed: Awaited<ReturnType<typeof readSkill>>;
  try {
    parsed = await readSkill(safe.real);
  } catch (error) {
    return { diagnostics: [diag(`cannot read: ${messageOf(error)}`, "error", shownFile, name)] };
  }
  if (!parsed.ok) return { diagnostics: [diag(parsed.reason, "error", shownFile, name)] };
  const skill = parsed.skill;
  if (skill.declaredName !== undefined && skill.declaredName !== name) {
    const where = kind === "bundle" ? "folder" : "file";
    return { diagnostics: [diag(`frontmatter name "${skill.declaredName}" does not match the ${where} name "${name}"`, "error", shownFile, name)] };
  }
  const locator: Locator = { file: safe.real, root: spec.path, rootReal, name, kind };
  return {
    candidate: {
      name,
      description: skill.description,
      ...(skill.whenToUse ? { whenToUse: skill.whenToUse } : {}),
      modelInvocable: skill.modelInvocable,
      userInvocable: skill.userInvocable,
      rank: spec.rank,
      source: spec.source,
      path: shownFile,
      meta: skill.meta,
      locator,
    },
    diagnostics: skill.warnings.map((w) => diag(w, "warning", shownFile, name)),
  };
}

/** One root, no recursion (SKL-2): `<name>/SKILL.md` and `<name>.md`, sorted by entry name; dot entries (`.system`) skipped. */
async function scanRoot(spec: RootSpec): Promise<Scan> {
  let rootReal: string;
  let entries: Dirent[];
  try {
    rootReal = await realpath(spec.path);
    entries = await readdir(rootReal, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { candidates: [], diagnostics: [] };
    return { candidates: [], diagnostics: [{ path: spec.path, reason: `cannot read the root (${code ?? messageOf(error)})`, severity: "error", root: spec.path }] };
  }
  const visible = entries.filter((e) => !e.name.startsWith(".")).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const results = await mapLimited(visible, READ_CONCURRENCY, (e) => scanEntry(spec, rootReal, e));
  const scan: Scan = { candidates: [], diagnostics: [] };
  for (const r of results) {
    if (!r) continue;
    if (r.candidate) scan.candidates.push(r.candidate);
    scan.diagnostics.push(...r.diagnostics);
  }
  return scan;
}

export function createFsProvider(opts: FsProviderOptions): FsProvider {
  const maxProjects = Math.max(1, opts.maxWatchedProjects ?? 8);
  const shared = new Map<string, RootWatch>();
  /** Project root → its two root watches, least recently used first. */
  const projects = new Map<string, Map<string, RootWatch>>();
  const known = new Set<string>();
  let closed = false;

  const newWatch = (path: string) => watchRoot(path, { factory: opts.watch as WatcherFactory, onChange: opts.onChange, log: opts.log });

  const watchFor = (spec: RootSpec, projectRoot: string | null): RootWatch | null => {
    if (!opts.watch || spec.kind === "bundled" || closed) return null;
    if (spec.kind !== "project" || projectRoot === null) {
      let w = shared.get(spec.path);
      if (!w) shared.set(spec.path, (w = newWatch(spec.path)));
      return w;
    }
    let group = projects.get(projectRoot);
    if (group) projects.delete(projectRoot);
    projects.set(projectRoot, (group ??= new Map()));
    while (projects.size > maxProjects) {
      const [oldest, watches] = projects.entries().next().value!;
      projects.delete(oldest);
      for (const w of watches.values()) void w.close();
      opts.onChange(`stopped watching project ${oldest}`); // its cached observations can no longer be trusted
    }
    let w = group.get(spec.path);
    if (!w) group.set(spec.path, (w = newWatch(spec.path)));
    return w;
  };

  const roots = async (cwd?: string) => {
    const projectRoot = cwd === undefined ? null : await findProjectRoot(cwd);
    const customRoots = await opts.customRoots();
    const specs = rootSpecs({ projectRoot: projectRoot ?? undefined, customRoots, userHome: opts.userHome, bundledDir: opts.bundledDir });
    for (const s of specs) {
      known.add(s.path);
      const real = await realpath(s.path).catch(() => null);
      if (real) known.add(real);
    }
    // Custom roots that were removed from the settings stop being watched.
    const keep = new Set(specs.filter((s) => s.kind !== "project").map((s) => s.path));
    for (const [path, w] of shared) {
      if (keep.has(path)) continue;
      shared.delete(path);
      void w.close();
    }
    return { projectRoot, roots: specs };
  };

  return {
    id: FS_PROVIDER_ID,
    roots,
    async list(query: SkillQuery): Promise<ProviderObservation> {
      const { projectRoot, roots: specs } = await roots(query.cwd);
      const watches = specs.map((s) => watchFor(s, projectRoot)).filter((w): w is RootWatch => w !== null);
      // Arm watchers before scanning, so a change during the scan is not lost.
      const healthy = (await Promise.all(watches.map((w) => w.ensure()))).every(Boolean);
      const scans = await Promise.all(specs.map(scanRoot));
      return {
        candidates: scans.flatMap((s) => s.candidates),
        diagnostics: scans.flatMap((s) => s.diagnostics),
        complete: healthy,
      };
    },
    async get(candidate: SkillCandidate): Promise<SkillDefinition | null> {
      const loc = candidate.locator as Locator | undefined;
      if (!loc?.file) return null;
      const rootReal = await realpath(loc.root).catch(() => null);
      if (!rootReal) return null;
      const shownFile = loc.kind === "bundle" ? join(loc.root, loc.name, "SKILL.md") : join(loc.root, `${loc.name}.md`);
      const safe = await contained(join(rootReal, loc.kind === "bundle" ? join(loc.name, "SKILL.md") : `${loc.name}.md`), rootReal);
      if ("reason" in safe) {
        opts.log?.warn(`skill ${loc.name}: ${safe.reason}`);
        return null;
      }
      const parsed = await readSkill(safe.real).catch(() => null);
      if (!parsed?.ok) return null;
      const skill = parsed.skill;
      return {
        name: skill.declaredName ?? loc.name,
        description: skill.description,
        ...(skill.whenToUse ? { whenToUse: skill.whenToUse } : {}),
        modelInvocable: skill.modelInvocable,
        userInvocable: skill.userInvocable,
        body: skill.body,
        resourceBase: { kind: "directory", path: loc.kind === "bundle" ? dirname(shownFile) : loc.root },
        path: shownFile,
        meta: skill.meta,
      };
    },
    watchState(spec) {
      if (!opts.watch || spec.kind === "bundled") return "off";
      const w = shared.get(spec.path) ?? [...projects.values()].find((g) => g.has(spec.path))?.get(spec.path);
      return !w || w.state === "idle" ? "off" : w.state;
    },
    covers(path) {
      for (const root of known) if (isInside(root, path) || isInside(path, root)) return true;
      return false;
    },
    async close() {
      closed = true;
      const all = [...shared.values(), ...[...projects.values()].flatMap((g) => [...g.values()])];
      shared.clear();
      projects.clear();
      await Promise.allSettled(all.map((w) => w.close()));
    },
  };
}
