import { lstatSync, realpathSync, statSync, type Dirent, type Stats } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { messageOf } from "../core/errors.js";
import type { Log } from "../core/log.js";
import { readHead, type OpenHeadFile } from "./head.js";
import { parseSkill } from "./parse.js";
import type { ProviderObservation, SkillCandidate, SkillDefinition, SkillDiagnostic, SkillProvider, SkillQuery } from "./registry.js";
import { isSkillName } from "./registry.js";
import { findProjectRoot, isInside, rootSpecs, type RootSpec } from "./roots.js";
import { watchRoot, type RootWatch, type WatcherFactory, type WatchState } from "./watch.js";

export const FS_PROVIDER_ID = "filesystem";
/** A skill file larger than this is reported, not read. */
export const MAX_SKILL_BYTES = 512 * 1024;
/** Longest stretch a scan holds the event loop before yielding (reads and parses are synchronous). */
const SLICE_MS = 8;
const TOO_LARGE = `larger than ${MAX_SKILL_BYTES / 1024} KiB`;

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
  /** Opens a skill file for listing (tests count the bytes read); default: `openHeadFile`. */
  openFile?: OpenHeadFile;
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
/** A root's real path, or why it has none. */
type RealPath = { path: string } | { error: unknown };

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

/** Reads and parses one whole skill file (for `get()`: the body is needed). */
async function readSkill(file: string) {
  const info = await stat(file);
  if (!info.isFile()) return { ok: false as const, reason: "not a regular file" };
  if (info.size > MAX_SKILL_BYTES) return { ok: false as const, reason: TOO_LARGE };
  return parseSkill(await readFile(file, "utf8"));
}

/**
 * Reads only the head of a skill file and parses its frontmatter (for listing). The outcome equals
 * `readSkill`'s except for `body`, which holds only the part read. Synchronous (see `head.ts`).
 */
function readSkillHead(file: string, open?: OpenHeadFile) {
  const head = readHead(file, { maxBytes: MAX_SKILL_BYTES, open });
  return head.ok ? parseSkill(head.text) : { ok: false as const, reason: TOO_LARGE };
}

type Read = ReturnType<typeof readSkillHead>;
const isErrno = (error: unknown, code: string) => (error as NodeJS.ErrnoException | null)?.code === code;

/** `contained`, synchronously, for the scan (the same native realpath as the promise API). */
function containedSync(path: string, rootReal: string): { real: string } | { reason: string } {
  let real: string;
  try {
    real = realpathSync.native(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { reason: code === "ENOENT" ? "broken symlink or missing file" : `cannot resolve (${code ?? messageOf(error)})` };
  }
  return isInside(rootReal, real) ? { real } : { reason: `resolves outside its root (to ${real}); symlinks must stay inside the skills root` };
}

/** The slow path: a symlinked skill file is resolved, checked for containment (SEC-3) and read through its real path. */
function readResolved(file: string, rootReal: string, open?: OpenHeadFile): { read: Read; real: string } | { reason: string } {
  const safe = containedSync(file, rootReal);
  if ("reason" in safe) return safe;
  const info = statSync(safe.real);
  if (!info.isFile()) return { read: { ok: false, reason: "not a regular file" }, real: safe.real };
  if (info.size > MAX_SKILL_BYTES) return { read: { ok: false, reason: TOO_LARGE }, real: safe.real };
  return { read: readSkillHead(safe.real, open), real: safe.real };
}

/**
 * `join(dir, name)` for a name read from a directory (no separators, not `.` or `..`) under a normalized
 * path: plain concatenation, which a scan of thousands of entries notices over `join`'s normalizing.
 */
const child = (dir: string, name: string) => (dir.endsWith(sep) ? dir + name : dir + sep + name);

/** A root's entries with what they need to be scanned. */
interface RootListing { spec: RootSpec; rootReal: string; entries: Dirent[] }

type EntryScan = { candidate?: SkillCandidate; diagnostics: SkillDiagnostic[] } | null;

/** A diagnostic of one entry of a root (a plain function: the scan builds one per problem, not a closure per entry). */
function diagnostic(spec: RootSpec, path: string, reason: string, severity: SkillDiagnostic["severity"] = "error", name?: string): SkillDiagnostic {
  const d: SkillDiagnostic = { path, reason, severity, root: spec.path };
  if (name) d.name = name;
  return d;
}

const failure = (spec: RootSpec, path: string, name: string, reason: string): EntryScan => ({ diagnostics: [diagnostic(spec, path, reason, "error", name)] });

/** Whether `path` exists now as something other than a regular file or a symlink (a folder, a FIFO, a device). */
function isSpecial(path: string): boolean {
  try {
    const info = lstatSync(path, { throwIfNoEntry: false });
    return info !== undefined && !info.isFile() && !info.isSymbolicLink();
  } catch {
    return false;
  }
}

/** One entry of a root, synchronously (the caller slices the work; see `scanRoots`). */
function scanEntry(spec: RootSpec, rootReal: string, entry: Dirent, open?: OpenHeadFile): EntryScan {
  const shown = child(spec.path, entry.name);
  let isDir = entry.isDirectory();
  let isFile = entry.isFile();
  const linked = entry.isSymbolicLink();
  if (linked) {
    const target = containedSync(join(rootReal, entry.name), rootReal);
    if ("reason" in target) return { diagnostics: [diagnostic(spec, shown, `symlink ${target.reason}`)] };
    let info: Stats | null = null;
    try {
      info = statSync(target.real);
    } catch {
      // gone since it was resolved: neither a folder nor a file
    }
    isDir = info?.isDirectory() ?? false;
    isFile = info?.isFile() ?? false;
  }
  let name: string;
  let kind: Locator["kind"];
  let shownFile: string;
  if (isDir) {
    name = entry.name;
    kind = "bundle";
    shownFile = child(shown, "SKILL.md");
  } else if (isFile && entry.name.endsWith(".md")) {
    name = entry.name.slice(0, -3);
    kind = "flat";
    shownFile = shown;
  } else return null; // other files in a root are not skills

  if (!isSkillName(name)) {
    return { diagnostics: [diagnostic(spec, shown, `"${name}" is not a valid skill name: use kebab-case (lowercase letters, digits, single hyphens; at most 64 characters)`)] };
  }
  const file = kind === "bundle" ? child(child(rootReal, entry.name), "SKILL.md") : child(rootReal, entry.name);
  let outcome: { read: Read; real: string } | { reason: string };
  try {
    if (linked) {
      // A linked folder: checked as before resolving, so a missing SKILL.md is the same warning as in a real folder.
      if (kind === "bundle" && !lstatSync(file, { throwIfNoEntry: false })) return { diagnostics: [diagnostic(spec, shown, "folder has no SKILL.md", "warning", name)] };
      outcome = readResolved(file, rootReal, open);
    } else {
      // The fast path: `rootReal` is a real path and the entry is no symlink, so a file opened without
      // following a symlink (O_NOFOLLOW) is its own real path: no lstat or realpath per file. A bundle's
      // SKILL.md is only looked at more closely when it cannot be read or parsed.
      try {
        outcome = { read: readSkillHead(file, open), real: file };
      } catch (error) {
        if (kind === "bundle" && isErrno(error, "ENOENT")) return { diagnostics: [diagnostic(spec, shown, "folder has no SKILL.md", "warning", name)] };
        if (!isErrno(error, "ELOOP")) throw error;
        outcome = readResolved(file, rootReal, open); // a symlink (or swapped for one since the directory was read)
      }
    }
  } catch (error) {
    return failure(spec, shownFile, name, kind === "bundle" && isSpecial(file) ? "not a regular file" : `cannot read: ${messageOf(error)}`);
  }
  if ("reason" in outcome) return failure(spec, shownFile, name, outcome.reason);
  const parsed = outcome.read;
  // A folder, FIFO or device named SKILL.md reads as an error or as no frontmatter: say what it is.
  if (!parsed.ok) return failure(spec, shownFile, name, kind === "bundle" && isSpecial(file) ? "not a regular file" : parsed.reason);
  const skill = parsed.skill;
  if (skill.declaredName !== undefined && skill.declaredName !== name) {
    const where = kind === "bundle" ? "folder" : "file";
    return failure(spec, shownFile, name, `frontmatter name "${skill.declaredName}" does not match the ${where} name "${name}"`);
  }
  const locator: Locator = { file: outcome.real, root: spec.path, rootReal, name, kind };
  // Built without a spread in the middle of the literal: V8 copies those slowly, and a list builds thousands.
  const candidate: SkillCandidate = {
    name,
    description: skill.description,
    modelInvocable: skill.modelInvocable,
    userInvocable: skill.userInvocable,
    rank: spec.rank,
    source: spec.source,
    path: shownFile,
    meta: skill.meta,
    locator,
  };
  if (skill.whenToUse) candidate.whenToUse = skill.whenToUse;
  return { candidate, diagnostics: skill.warnings.length === 0 ? [] : skill.warnings.map((w) => diagnostic(spec, shownFile, w, "warning", name)) };
}

/** One root's entries, no recursion (SKL-2): sorted by entry name; dot entries (`.system`) skipped. */
async function listRoot(spec: RootSpec, real: RealPath): Promise<RootListing | SkillDiagnostic | null> {
  let entries: Dirent[];
  try {
    if ("error" in real) throw real.error;
    entries = await readdir(real.path, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    return { path: spec.path, reason: `cannot read the root (${code ?? messageOf(error)})`, severity: "error", root: spec.path };
  }
  const visible = entries.filter((e) => !e.name.startsWith(".")).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { spec, rootReal: real.path, entries: visible };
}

/**
 * Every root of a list (SKL-2): `<name>/SKILL.md` and `<name>.md`. Directories are read in parallel, then
 * every entry's head is read and parsed in order; results keep root order, then entry order.
 */
async function scanRoots(specs: RootSpec[], reals: Map<string, RealPath>, open?: OpenHeadFile): Promise<Scan> {
  const listed = await Promise.all(specs.map((s) => listRoot(s, reals.get(s.path) ?? { error: new Error("not resolved") })));
  const scan: Scan = { candidates: [], diagnostics: [] };
  const tasks: { listing: RootListing; entry: Dirent }[] = [];
  for (const l of listed) if (l && "entries" in l) for (const entry of l.entries) tasks.push({ listing: l, entry });
  // Synchronous entry scans in slices of at most ~SLICE_MS, yielding to the event loop between them.
  const results: EntryScan[] = [];
  let slice = performance.now();
  for (const t of tasks) {
    results.push(scanEntry(t.listing.spec, t.listing.rootReal, t.entry, open));
    if (performance.now() - slice >= SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  let i = 0;
  for (const l of listed) {
    if (!l) continue;
    if (!("entries" in l)) {
      scan.diagnostics.push(l);
      continue;
    }
    for (const _ of l.entries) {
      const r = results[i++];
      if (!r) continue;
      if (r.candidate) scan.candidates.push(r.candidate);
      scan.diagnostics.push(...r.diagnostics);
    }
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

  /** The roots for a workspace, in rank order, and the project root they were derived from. */
  const specsFor = async (cwd?: string) => {
    const [projectRoot, customRoots] = await Promise.all([cwd === undefined ? null : findProjectRoot(cwd), opts.customRoots()]);
    const specs = rootSpecs({ projectRoot: projectRoot ?? undefined, customRoots, userHome: opts.userHome, bundledDir: opts.bundledDir });
    // Custom roots that were removed from the settings stop being watched.
    const keep = new Set(specs.filter((s) => s.kind !== "project").map((s) => s.path));
    for (const [path, w] of shared) {
      if (keep.has(path)) continue;
      shared.delete(path);
      void w.close();
    }
    return { projectRoot, specs };
  };

  /** Each root's real path, resolved once per list and in parallel; both spellings become known to `covers`. */
  const realsOf = async (specs: RootSpec[]) => {
    const resolved = await Promise.all(specs.map((s) => realpath(s.path).then((path): RealPath => ({ path }), (error: unknown): RealPath => ({ error }))));
    const reals = new Map<string, RealPath>();
    specs.forEach((s, i) => {
      const real = resolved[i]!;
      reals.set(s.path, real);
      known.add(s.path);
      if ("path" in real) known.add(real.path);
    });
    return reals;
  };

  const roots = async (cwd?: string) => {
    const { projectRoot, specs } = await specsFor(cwd);
    await realsOf(specs);
    return { projectRoot, roots: specs };
  };

  return {
    id: FS_PROVIDER_ID,
    roots,
    async list(query: SkillQuery): Promise<ProviderObservation> {
      const { projectRoot, specs } = await specsFor(query.cwd);
      const watches = specs.map((s) => watchFor(s, projectRoot)).filter((w): w is RootWatch => w !== null);
      // Arm watchers before scanning (resolving the roots included), so a change during the scan is not lost.
      const healthy = (await Promise.all(watches.map((w) => w.ensure()))).every(Boolean);
      const scan = await scanRoots(specs, await realsOf(specs), opts.openFile);
      return { candidates: scan.candidates, diagnostics: scan.diagnostics, complete: healthy };
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
