/** The output buffer (head + tail, offsets) and the model-facing middle elision (CODE-3). */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { countLines, elideMiddle, OutputBuffer } from "../../src/shell/output.js";
import { sandboxArgs } from "../../src/shell/sandbox.js";
import { cleanDirs, tempDir } from "./helpers.js";

afterEach(cleanDirs);

describe("OutputBuffer (CODE-3)", () => {
  it("CODE-3: keeps everything under the limit and reads from any offset", () => {
    const b = new OutputBuffer(100);
    b.push("hello ");
    b.push("world");
    expect(b.read()).toEqual({ text: "hello world", dropped: 0 });
    expect(b.read(6)).toEqual({ text: "world", dropped: 0 });
    expect(b.read(11)).toEqual({ text: "", dropped: 0 });
    expect(b.truncated).toBe(false);
  });

  it("CODE-3: over the limit keeps the first and the last half and marks what was dropped", () => {
    const b = new OutputBuffer(20);
    for (let i = 0; i < 10; i++) b.push(`${String(i).repeat(5)}`);
    expect(b.written).toBe(50);
    expect(b.truncated).toBe(true);
    const all = b.read();
    expect(all.dropped).toBe(30);
    expect(all.text.startsWith("0000011111")).toBe(true);
    expect(all.text.endsWith("8888899999")).toBe(true);
    expect(all.text).toContain("30 characters of output were not kept here");
    // From inside the dropped middle: only the tail, with the marker for what is missing.
    expect(b.read(20).dropped).toBe(20);
    expect(b.read(45)).toEqual({ text: "99999", dropped: 0 });
    expect(b.read(5).text.startsWith("11111")).toBe(true);
  });
});

describe("elideMiddle (CODE-3)", () => {
  it("CODE-3: leaves short output alone", () => {
    expect(elideMiddle("a\nb\n", { maxChars: 100, maxLines: 10 })).toEqual({ text: "a\nb\n", cutLines: 0, cutBytes: 0 });
    expect(elideMiddle("", { maxChars: 100, maxLines: 10 }).text).toBe("");
  });

  it("CODE-3: cuts by lines, keeping the first and last halves, and says how much was cut", () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    const r = elideMiddle(text, { maxChars: 10_000, maxLines: 10 });
    const lines = r.text.split("\n");
    expect(lines.slice(0, 5)).toEqual(["line 1", "line 2", "line 3", "line 4", "line 5"]);
    expect(lines.slice(-6)).toEqual(["line 96", "line 97", "line 98", "line 99", "line 100", ""]);
    expect(r.cutLines).toBe(90);
    expect(lines[5]).toBe(`[… 90 line(s), ${r.cutBytes} B, elided from the middle of the output …]`);
  });

  it("CODE-3: cuts one huge line by characters, without splitting a surrogate pair", () => {
    const text = "😀".repeat(50_000);
    const r = elideMiddle(text, { maxChars: 1_000, maxLines: 400 });
    expect(r.text.length).toBeLessThan(1_100);
    expect(r.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(r.cutLines).toBe(1);
    expect(r.cutBytes).toBeGreaterThan(190_000);
  });

  it("counts lines with or without a final newline", () => {
    expect(countLines("")).toBe(0);
    expect(countLines("a")).toBe(1);
    expect(countLines("a\n")).toBe(1);
    expect(countLines("a\nb")).toBe(2);
  });
});

describe("sandboxArgs (CODE-4)", () => {
  it("CODE-4: mounts parents before children, hides the data directory and secrets, and ends with --", () => {
    const root = tempDir();
    const home = join(root, "home");
    const workspace = join(home, "ws");
    mkdirSync(workspace, { recursive: true });
    const secrets = join(root, "secrets.json");
    writeFileSync(secrets, "{}");
    const args = sandboxArgs("workspace-write", false, { workspace, home, secretsFile: secrets });
    expect(args.slice(0, 6)).toEqual(["--ro-bind", "/", "/", "--dev", "/dev", "--proc"]);
    const at = (flag: string, path: string) => args.findIndex((a, i) => a === flag && args[i + (flag === "--tmpfs" ? 1 : 2)] === path);
    expect(at("--tmpfs", "/tmp")).toBeLessThan(at("--tmpfs", home));
    expect(at("--tmpfs", home)).toBeLessThan(at("--bind", workspace));
    expect(args).toContain("--unshare-net");
    expect(args.join(" ")).toContain(`--ro-bind /dev/null ${secrets}`);
    expect(args.at(-1)).toBe("--");
    expect(sandboxArgs("read-only", true, { workspace, home, secretsFile: join(home, "secrets.json") })).not.toContain("--unshare-net");
    expect(sandboxArgs("read-only", true, { workspace, home, secretsFile: join(home, "nope.json") }).join(" ")).toContain(`--ro-bind ${workspace} ${workspace}`);
  });
});
