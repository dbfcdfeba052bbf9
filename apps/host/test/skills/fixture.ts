import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { FactItem, TimelineItem } from "@seam/shared";
import type { StepContext } from "../../src/agent/hooks.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import type { Log } from "../../src/core/log.js";
import { create, type Interface, type SkillsDeps } from "../../src/skills/skills.js";

/** Frontmatter + body for a SKILL.md; `extra` lines go into the frontmatter verbatim. */
export function skillText(name: string | null, description: string, opts: { extra?: string[]; body?: string } = {}): string {
  return [
    "---",
    ...(name === null ? [] : [`name: ${name}`]),
    `description: ${JSON.stringify(description)}`,
    ...(opts.extra ?? []),
    "---",
    opts.body ?? `# ${name ?? "skill"}\n\nDo the thing.\n`,
  ].join("\n");
}

export interface SkillsFixture extends AsyncDisposable {
  base: string;
  /** A git project; the session workspace is `project/app`. */
  project: string;
  workspace: string;
  home: string;
  scope: Scope;
  skills: Interface;
  settings: Map<string, unknown>;
  warnings: string[];
  /** Writes `text` at `rel` under `base`, creating folders. */
  write(rel: string, text: string): Promise<string>;
  /** `<root>/<name>/SKILL.md` */
  bundle(root: string, name: string, description: string, opts?: { extra?: string[]; body?: string; frontmatterName?: string | null }): Promise<string>;
  link(rel: string, target: string): Promise<void>;
  remove(rel: string): Promise<void>;
}

export const roots = {
  projectDsh: "project/.dsh/skills",
  projectAgents: "project/.agents/skills",
  userDsh: "home/.dsh/skills",
  userAgents: "home/.agents/skills",
};

export const quietLog = (warnings: string[] = []): Log => ({
  info: () => {},
  warn: (m) => void warnings.push(m),
  error: (m) => void warnings.push(m),
});

/** A temp tree with a git project, a user home, an in-memory settings store and a skills capability. */
export async function skillsFixture(deps: Partial<SkillsDeps> & { timeline?: (id: string) => Promise<TimelineItem[]> } = {}): Promise<SkillsFixture> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "seam-skills-")));
  const project = join(base, "project");
  const workspace = join(project, "app");
  const home = join(base, "home");
  await mkdir(join(project, ".git"), { recursive: true });
  await mkdir(workspace, { recursive: true });
  await mkdir(home, { recursive: true });
  const settings = new Map<string, unknown>();
  const warnings: string[] = [];
  const scope = createScope("test-skills");
  const skills = create(scope, {
    store: {
      items: { list: deps.timeline ?? (async () => []) },
      settings: { get: async (k) => settings.get(k), set: async (k, v) => void (v === undefined ? settings.delete(k) : settings.set(k, v)) },
    },
    userHome: home,
    bundledDir: null,
    watch: false,
    log: quietLog(warnings),
    ...deps,
  });
  const write = async (rel: string, text: string) => {
    const path = join(base, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    return path;
  };
  return {
    base, project, workspace, home, scope, skills, settings, warnings, write,
    bundle: (root, name, description, opts = {}) =>
      write(join(root, name, "SKILL.md"), skillText(opts.frontmatterName === undefined ? name : opts.frontmatterName, description, opts)),
    link: async (rel, target) => {
      await mkdir(dirname(join(base, rel)), { recursive: true });
      await symlink(target, join(base, rel));
    },
    remove: (rel) => rm(join(base, rel), { recursive: true, force: true }),
    async [Symbol.asyncDispose]() {
      await scope.dispose();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** A StepContext over an in-memory timeline; appended facts land in `items`. */
export function fakeStep(items: TimelineItem[], opts: { sessionId?: string; workspace: string; step?: number }): StepContext {
  return {
    sessionId: opts.sessionId ?? "s1",
    workspace: opts.workspace,
    turnId: "t1",
    step: opts.step ?? 1,
    signal: new AbortController().signal,
    appendFact: async (f) => {
      const fact: FactItem = {
        kind: "fact", id: `f${items.length}`, turnId: "t1", seq: items.length + 1,
        createdAt: new Date().toISOString(), factKind: f.factKind, text: f.text, payload: f.payload as FactItem["payload"],
      };
      items.push(fact);
      return fact;
    },
  };
}

/** A compaction marker as another part of the host would append it. */
export function compactionFact(items: TimelineItem[]): void {
  items.push({ kind: "fact", id: `c${items.length}`, turnId: "t1", seq: items.length + 1, createdAt: new Date().toISOString(), factKind: "compaction", text: "", payload: null });
}
