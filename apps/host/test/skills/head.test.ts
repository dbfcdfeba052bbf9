import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HEAD_CHUNK, headIsEnough, openHeadFile, readHead, type HeadFile, type OpenHeadFile } from "../../src/skills/head.js";
import { parseSkill } from "../../src/skills/parse.js";
import { MAX_SKILL_BYTES } from "../../src/skills/fs-provider.js";
import { roots, skillsFixture, skillText } from "./fixture.js";

/** An in-memory file system that counts what is read, to observe how much of a file a listing touches. */
function memoryFiles(files: Record<string, string | Buffer>) {
  const stats = { bytes: 0, reads: 0, sizes: 0, opens: 0, closes: 0 };
  const open: OpenHeadFile = (path) => {
    const data = files[path];
    if (data === undefined) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: "ENOENT" });
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    stats.opens += 1;
    const file: HeadFile = {
      read(buffer, offset, length, position) {
        stats.reads += 1;
        const n = bytes.copy(buffer, offset, position, Math.min(bytes.length, position + length));
        stats.bytes += n;
        return n;
      },
      size: () => (stats.sizes += 1, bytes.length),
      close: () => void (stats.closes += 1),
    };
    return file;
  };
  return { open, stats };
}

const head = (text: string | Buffer, chunk?: number, maxBytes = MAX_SKILL_BYTES) => {
  const mem = memoryFiles({ "/f.md": text });
  return { outcome: readHead("/f.md", { maxBytes, chunk, open: mem.open }), stats: mem.stats };
};

/** parseSkill of the head must equal parseSkill of the whole file in everything but the body. */
const withoutBody = (r: ReturnType<typeof parseSkill>) => (r.ok ? { ...r, skill: { ...r.skill, body: undefined } } : r);

describe("reading a skill file's head for listing (SKL-3, SKL-4)", () => {
  it("a file shorter than the chunk is read once, whole, with no size check", () => {
    const text = skillText("small", "A small skill");
    const { outcome, stats } = head(text);
    expect(outcome).toEqual({ ok: true, text, eof: false, bytesRead: Buffer.byteLength(text) });
    expect(stats).toMatchObject({ reads: 1, sizes: 0, opens: 1, closes: 1 }); // the body has begun: no read to find the end
    // Only blanks after the closing line: one more read finds the end of the file, so the body is known to be empty.
    const bare = head("---\ndescription: d\n---\n");
    expect(bare.outcome).toMatchObject({ ok: true, eof: true });
    expect(bare.stats).toMatchObject({ reads: 2, sizes: 0 });
  });

  it("a huge body is never read: the head stops at the first body character after the closing ---", () => {
    const body = `# Big\n\n${"A long paragraph of instructions. ".repeat(12_000)}`; // ~400 KiB, under the 512 KiB cap
    const text = skillText("big", "Big body", { body });
    expect(Buffer.byteLength(text)).toBeGreaterThan(300 * 1024);
    const { outcome, stats } = head(text);
    expect(outcome.ok && outcome.eof).toBe(false);
    expect(stats.bytes).toBe(HEAD_CHUNK);
    expect(stats.sizes).toBe(1); // a full chunk: the size is checked against the cap
    const whole = parseSkill(text);
    expect(withoutBody(parseSkill(outcome.ok ? outcome.text : ""))).toEqual(withoutBody(whole));
  });

  it("frontmatter longer than the first chunk is read on until its closing line", () => {
    const extra = Array.from({ length: 400 }, (_, i) => `  key-${i}: value number ${i} with some padding text`);
    const text = skillText("long", "Long frontmatter", { extra: ["metadata:", ...extra], body: `# Body\n${"x".repeat(100_000)}\n` });
    const { outcome, stats } = head(text);
    if (!outcome.ok) throw new Error("expected a head");
    expect(stats.bytes).toBeGreaterThan(HEAD_CHUNK);
    expect(stats.bytes).toBeLessThan(text.length / 2);
    const parsed = parseSkill(outcome.text);
    expect(parsed.ok && Object.keys(parsed.skill.meta.metadata ?? {})).toHaveLength(400);
    expect(withoutBody(parsed)).toEqual(withoutBody(parseSkill(text)));
  });

  it("no closing --- reads to the end of the file and the parser reports it", () => {
    const text = `---\nname: open\ndescription: never closed\n${"more: text\n".repeat(2_000)}`;
    const { outcome, stats } = head(text, 1024);
    expect(outcome).toMatchObject({ ok: true, eof: true });
    expect(stats.bytes).toBe(text.length);
    const parsed = parseSkill(outcome.ok ? outcome.text : "");
    expect(parsed).toEqual({ ok: false, reason: "the frontmatter block is not closed (no --- line after it)" });
  });

  it("a first line that is not --- stops after that line", () => {
    const text = `# Just markdown\n${"text ".repeat(10_000)}`;
    const { outcome, stats } = head(text, 64);
    expect(stats.bytes).toBe(64);
    expect(parseSkill(outcome.ok ? outcome.text : "")).toMatchObject({ ok: false, reason: expect.stringMatching(/missing frontmatter/) });
  });

  it("CRLF and a BOM are handled like the whole-file parse", () => {
    const text = `\uFEFF---\r\nname: crlf\r\ndescription: Windows line endings\r\n---\r\n${"line\r\n".repeat(5_000)}`;
    const { outcome, stats } = head(text, 16);
    if (!outcome.ok) throw new Error("expected a head");
    expect(stats.bytes).toBeLessThan(200);
    const parsed = parseSkill(outcome.text);
    expect(parsed.ok && parsed.skill.description).toBe("Windows line endings");
    expect(withoutBody(parsed)).toEqual(withoutBody(parseSkill(text)));
  });

  it("an empty body (only blank lines after ---) is read to the end and still warned about", () => {
    const text = `---\ndescription: d\n---\n${"\n".repeat(3_000)}`;
    const { outcome } = head(text, 128);
    expect(outcome).toMatchObject({ ok: true, eof: true });
    const parsed = parseSkill(outcome.ok ? outcome.text : "");
    expect(parsed.ok && parsed.skill.warnings).toEqual(["the body is empty"]);
  });

  it("a multi-byte character split across chunks decodes intact", () => {
    const text = `---\ndescription: ${"é".repeat(40)} café ☕ done\n---\nbody\n`;
    for (const chunk of [1, 2, 3, 5, 7, 16, 17]) {
      const { outcome } = head(text, chunk);
      const parsed = parseSkill(outcome.ok ? outcome.text : "");
      expect(parsed.ok && parsed.skill.description).toBe(`${"é".repeat(40)} café ☕ done`);
    }
  });

  it("any chunk size gives the whole-file parse (fields, warnings and errors)", () => {
    const texts = [
      skillText("a", "plain"),
      "---\ndescription: d\n---",
      "---\ndescription: d\n---\n",
      "---\ndescription: d\n----\nstill: frontmatter?\n---\nbody",
      "---   \ndescription: trailing blanks on the fences\n---  \r\n\r\n  body\n",
      "---js\n{ description: 'x' }\n---\nbody\n",
      "---\ndescription: d\nname: x\nname: y\n---\nbody\n",
      "---\n- a\n---\nbody",
      "",
      "---",
      "\uFEFF",
    ];
    for (const text of texts) {
      for (const chunk of [1, 3, 8, 64, HEAD_CHUNK]) {
        const { outcome } = head(text, chunk);
        if (!outcome.ok) throw new Error("expected a head");
        expect(withoutBody(parseSkill(outcome.text)), `${JSON.stringify(text)} / ${chunk}`).toEqual(withoutBody(parseSkill(text)));
      }
    }
  });

  it("a file over the cap is refused after one chunk, by its size", () => {
    const { outcome, stats } = head("x".repeat(2_000), 100, 1_000);
    expect(outcome).toEqual({ ok: false, reason: "too_large", size: 2_000 });
    expect(stats.bytes).toBe(100);
    // The first chunk never reads more than one byte past the cap, so a small file over it is caught too.
    expect(head("y".repeat(1_001), HEAD_CHUNK, 1_000).outcome).toEqual({ ok: false, reason: "too_large", size: 1_001 });
    expect(head("z".repeat(1_000), HEAD_CHUNK, 1_000).outcome).toMatchObject({ ok: true, eof: true });
  });

  it("closes the file when a read fails", () => {
    let closed = 0;
    const open: OpenHeadFile = () => ({
      read: () => { throw Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" }); },
      size: () => 0,
      close: () => void (closed += 1),
    });
    expect(() => readHead("/x.md", { maxBytes: MAX_SKILL_BYTES, open })).toThrow(/EIO/);
    expect(closed).toBe(1);
  });

  it("stops only on whole lines", () => {
    expect(headIsEnough("---\ndescription: d\n---", false)).toBe(false); // "---" may go on ("----")
    expect(headIsEnough("---\ndescription: d\n---\n", false)).toBe(false); // the body may still be blank
    expect(headIsEnough("---\ndescription: d\n---\n  \n x", false)).toBe(true);
    expect(headIsEnough("--", false)).toBe(false);
    expect(headIsEnough("-- \n", false)).toBe(true);
    expect(headIsEnough("---\ndescription: d\n---", true)).toBe(true);
  });

  it("the real opener refuses to follow a symlink (the scan then resolves and checks it)", async () => {
    await using fx = await skillsFixture();
    const target = await fx.write("elsewhere/x.md", skillText("x", "x"));
    await fx.link("project/.dsh/skills/x.md", target);
    expect(() => openHeadFile(`${fx.project}/.dsh/skills/x.md`)).toThrow(/ELOOP/);
  });
});

describe("listing reads heads, loading reads the whole file (SKL-4, SKL-5)", () => {
  it("a list reads a few KiB of a large skill; get() returns the whole body, re-read", async () => {
    let listed = 0;
    const counting: OpenHeadFile = (path) => {
      const file = openHeadFile(path);
      return { ...file, read: (b, o, l, p) => { const n = file.read(b, o, l, p); listed += n; return n; }, size: () => file.size(), close: () => file.close() };
    };
    await using fx = await skillsFixture({ openSkillFile: counting });
    const body = `# Big\n\n${"Step. ".repeat(70_000)}\n`; // ~410 KiB
    await fx.bundle(roots.projectDsh, "big", "A big skill", { body });
    await fx.write(`${roots.userDsh}/small.md`, skillText("small", "A small flat skill"));
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.candidates.map((c) => [c.name, c.description])).toEqual([["big", "A big skill"], ["small", "A small flat skill"]]);
    expect(obs.diagnostics).toEqual([]);
    expect(listed).toBeLessThanOrEqual(2 * HEAD_CHUNK);
    const loaded = await fx.skills.get("big", fx.workspace);
    expect(loaded?.body).toBe(body);
  });

  it("per-file problems found from the head are diagnostics; the rest load", async () => {
    await using fx = await skillsFixture();
    await fx.write(`${roots.projectDsh}/open.md`, `---\ndescription: never closed\n${"x: y\n".repeat(3_000)}`);
    await fx.write(`${roots.projectDsh}/huge.md`, `---\ndescription: huge\n---\n${"z".repeat(MAX_SKILL_BYTES)}`);
    await fx.write(`${roots.projectDsh}/huge-bundle/SKILL.md`, `---\ndescription: huge\n---\n${"z".repeat(MAX_SKILL_BYTES)}`);
    await fx.write(`${roots.projectDsh}/empty.md`, "---\ndescription: empty body\n---\n\n\n");
    await fx.write(`${roots.projectDsh}/crlf.md`, "\uFEFF---\r\ndescription: crlf\r\n---\r\nbody\r\n");
    await fx.write(`${roots.projectDsh}/renamed.md`, skillText("other-name", "mismatch"));
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.candidates.map((c) => [c.name, c.description])).toEqual([["crlf", "crlf"], ["empty", "empty body"]]);
    const byFile = Object.fromEntries(obs.diagnostics.map((d) => [d.path.split("/skills/")[1], [d.severity, d.reason]]));
    expect(byFile).toEqual({
      "empty.md": ["warning", "the body is empty"],
      "huge-bundle/SKILL.md": ["error", "larger than 512 KiB"],
      "huge.md": ["error", "larger than 512 KiB"],
      "open.md": ["error", "the frontmatter block is not closed (no --- line after it)"],
      "renamed.md": ["error", 'frontmatter name "other-name" does not match the file name "renamed"'],
    });
  });

  it("symlinked SKILL.md files take the resolving path; odd entries are reported", async () => {
    await using fx = await skillsFixture();
    const root = join(fx.base, roots.userDsh);
    await fx.write(`${roots.userDsh}/.store/kept.md`, skillText("inner-ok", "a SKILL.md linked inside the root"));
    mkdirSync(join(root, "inner-ok"), { recursive: true });
    await fx.link(`${roots.userDsh}/inner-ok/SKILL.md`, join(root, ".store", "kept.md"));
    mkdirSync(join(root, "dir-skill", "SKILL.md"), { recursive: true });
    mkdirSync(join(root, "no-file"), { recursive: true });
    await fx.link(`${roots.userDsh}/dangling/SKILL.md`, join(root, "missing.md"));
    // A FIFO named SKILL.md is opened without blocking, reads as nothing and is reported for what it is.
    mkdirSync(join(root, "fifo-skill"), { recursive: true });
    execFileSync("mkfifo", [join(root, "fifo-skill", "SKILL.md")]);
    // A linked folder without SKILL.md is the same warning as a real one.
    mkdirSync(join(root, ".store", "empty-folder"), { recursive: true });
    await fx.link(`${roots.userDsh}/linked-empty`, join(root, ".store", "empty-folder"));
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.candidates.map((c) => c.name)).toEqual(["inner-ok"]);
    expect((await fx.skills.get("inner-ok", fx.workspace))?.description).toBe("a SKILL.md linked inside the root");
    const byFile = Object.fromEntries(obs.diagnostics.map((d) => [d.path.slice(root.length + 1), [d.severity, d.reason]]));
    expect(byFile).toEqual({
      "dangling/SKILL.md": ["error", "broken symlink or missing file"],
      "dir-skill/SKILL.md": ["error", "not a regular file"],
      "fifo-skill/SKILL.md": ["error", "not a regular file"],
      "linked-empty": ["warning", "folder has no SKILL.md"],
      "no-file": ["warning", "folder has no SKILL.md"],
    });
  });

  it("a flat file swapped for an escaping symlink between reading the directory and opening it is refused", async () => {
    let base = "";
    const swapping: OpenHeadFile = (path) => {
      if (path.endsWith("/race.md")) {
        unlinkSync(path);
        symlinkSync(join(base, "outside", "race.md"), path);
      }
      return openHeadFile(path);
    };
    await using fx = await skillsFixture({ openSkillFile: swapping });
    base = fx.base;
    await fx.write("outside/race.md", skillText("race", "outside the root"));
    await fx.write(`${roots.projectDsh}/race.md`, skillText("race", "inside the root"));
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.candidates).toEqual([]);
    expect(obs.diagnostics.map((d) => d.reason)).toEqual([expect.stringMatching(/resolves outside its root/)]);
  });
});
