/**
 * Skills listing (SPEC §9, SKL-4): 2,000 skills spread over the six roots of one workspace. A cold list
 * (a fresh catalog: every root scanned, every SKILL.md parsed) against two baselines in the same run: the
 * parse floor (read each of the 2,000 files whole and parse it with the same parser, nothing else) and a
 * cached list (same key, nothing changed). Prints wall time, process CPU and the ratios; asserts nothing.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScope } from "../apps/host/src/core/scope.js";
import { parseSkill } from "../apps/host/src/skills/parse.js";
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
const files: string[] = [];
for (let i = 0; i < TOTAL; i++) {
  const root = roots[i % roots.length]!;
  const name = `skill-${i}`;
  files.push(i % 2 === 0 ? join(root, name, "SKILL.md") : join(root, `${name}.md`));
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
const floor: number[] = [];
const floorCpu: number[] = [];
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
  // The floor: the same 2,000 files read whole and parsed, no roots, checks, registry or candidates.
  const f0 = process.cpuUsage();
  const s0 = performance.now();
  let parsed = 0;
  for (const file of files) if (parseSkill(readFileSync(file, "utf8")).ok) parsed += 1;
  const s1 = performance.now();
  const f1 = process.cpuUsage(f0);
  if (parsed !== TOTAL) console.log(`warning: the floor parsed ${parsed} of ${TOTAL}`);
  if (round > 0) {
    floor.push(s1 - s0);
    floorCpu.push((f1.user + f1.system) / 1000);
    // round 0 warms the JIT and the file system cache
    cold.push(t1 - t0);
    coldCpu.push((c1.user + c1.system) / 1000); // this process's CPU (main thread and libuv's pool): less noisy than wall time on a busy box
  }
  count = first.candidates.length;
  if (!first.complete) console.log("warning: the cold observation was incomplete");
  await scope.dispose();
}
rmSync(base, { recursive: true, force: true });

const p50 = (xs: number[]) => percentile(xs, 50);
console.log(`skills list, ${TOTAL} skills over 6 roots (${count} candidates seen), ${ROUNDS} cold lists, ${cached.length} cached lists`);
console.log(`  cold list (scan + parse)   wall p50 ${ms(p50(cold))}  p99 ${ms(percentile(cold, 99))}   process CPU p50 ${ms(p50(coldCpu))}  p99 ${ms(percentile(coldCpu, 99))}`);
console.log(`  floor (read + parse only)  wall p50 ${ms(p50(floor))}  p99 ${ms(percentile(floor, 99))}   process CPU p50 ${ms(p50(floorCpu))}  p99 ${ms(percentile(floorCpu, 99))}`);
console.log(`  cached list                wall p50 ${ms(p50(cached))}  p99 ${ms(percentile(cached, 99))}`);
console.log(`  ratio cold/floor           wall p50 ${(p50(cold) / p50(floor)).toFixed(2)}×   CPU p50 ${(p50(coldCpu) / p50(floorCpu)).toFixed(2)}×`);
console.log(`  ratio cold/cached          wall p50 ${(p50(cold) / p50(cached)).toFixed(0)}×`);
