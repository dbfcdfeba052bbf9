/**
 * Skills listing (SPEC §9, SKL-4): 2,000 skills spread over the six roots of one workspace. A cold list
 * (a fresh catalog: every root scanned, every SKILL.md parsed) against a cached list (same key, nothing
 * changed) in the same run. Prints both and the ratio; asserts nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScope } from "../apps/host/src/core/scope.js";
import { createSkills, type SkillsDeps } from "../apps/host/src/skills/skills.js";
import { ms, percentile } from "./stats.js";

const TOTAL = Number(process.env.BENCH_SKILLS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const base = mkdtempSync(join(tmpdir(), "seam-bench-skills-"));
const project = join(base, "project");
const home = join(base, "home");
const custom = join(base, "custom");
const bundled = join(base, "bundled");
mkdirSync(join(project, ".git"), { recursive: true });
const roots = [
  join(project, ".dsh/skills"), join(project, ".agents/skills"), custom,
  join(home, ".dsh/skills"), join(home, ".agents/skills"), bundled,
];
for (let i = 0; i < TOTAL; i++) {
  const root = roots[i % roots.length]!;
  const name = `skill-${i}`;
  const body = `---\nname: ${name}\ndescription: Skill number ${i}, for benchmarking the catalog. ${"Detail. ".repeat(i % 20)}\n---\n# ${name}\n\nSteps.\n`;
  if (i % 2 === 0) {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, "SKILL.md"), body);
  } else {
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, `${name}.md`), body);
  }
}

const settings = new Map<string, unknown>([["skills", { customRoots: [custom] }]]);
const store: SkillsDeps["store"] = {
  items: { list: async () => [] },
  settings: { get: async (key: string) => settings.get(key), set: async (key: string, value: unknown) => void settings.set(key, value) },
};

const cold: number[] = [];
const coldCpu: number[] = [];
const cached: number[] = [];
let count = 0;
for (let round = 0; round <= ROUNDS; round++) {
  const scope = createScope("bench");
  // Watchers off: the cold number is the scan and parse, not chokidar's start-up.
  const skills = createSkills(scope, { store, userHome: home, bundledDir: bundled, watch: false });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const first = await skills.list(project);
  const t1 = performance.now();
  const c1 = process.cpuUsage(c0);
  for (let i = 0; i < 200; i++) {
    const s = performance.now();
    await skills.list(project);
    if (round > 0) cached.push(performance.now() - s);
  }
  if (round > 0) {
    // round 0 warms the JIT and the file system cache
    cold.push(t1 - t0);
    coldCpu.push((c1.user + c1.system) / 1000); // this process's CPU (main thread and libuv's pool): less noisy than wall time on a busy box
  }
  count = first.candidates.length;
  if (!first.complete) console.log("warning: the cold observation was incomplete");
  await scope.dispose();
}
rmSync(base, { recursive: true, force: true });

console.log(`skills list, ${TOTAL} skills over 6 roots (${count} candidates seen), ${ROUNDS} cold lists, ${cached.length} cached lists`);
console.log(`  cold (scan + parse)   p50 ${ms(percentile(cold, 50))}  p99 ${ms(percentile(cold, 99))}`);
console.log(`  cold, process CPU     p50 ${ms(percentile(coldCpu, 50))}  p99 ${ms(percentile(coldCpu, 99))}`);
console.log(`  cached                p50 ${ms(percentile(cached, 50))}  p99 ${ms(percentile(cached, 99))}`);
console.log(`  ratio cold/cached     p50 ${(percentile(cold, 50) / percentile(cached, 50)).toFixed(0)}×`);
