import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { loadScripts, ScriptError, select } from "../src/index.js";

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), "seam-scripts-")); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, content: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
};

function loadError(path: string): ScriptError {
  try {
    loadScripts(path);
  } catch (e) {
    expect(e).toBeInstanceOf(ScriptError);
    return e as ScriptError;
  }
  throw new Error("expected loadScripts to fail");
}

describe("script validation", () => {
  test("the bundled example scripts load", () => {
    expect(loadScripts(join(import.meta.dirname, "../scripts")).map((s) => s.name)).toEqual(["hello", "long-stream", "read-file"]);
  });

  test("a schema error names the file and the field", () => {
    const file = write("bad.json", { name: "bad", turns: [{ match: "x", steps: [{ text: ["a"], toolCalls: [{ args: {} }] }] }] });
    const err = loadError(file);
    expect(err.file).toBe(file);
    expect(err.message).toContain(`Invalid scripted-model script ${file}`);
    expect(err.message).toMatch(/turns\[0\]\.steps\[0\]\.toolCalls\[0\]\.name/);
  });

  test("invalid JSON, a bad regex, unknown keys and mixed error steps are rejected", () => {
    expect(loadError(write("a.json", "{ nope")).message).toMatch(/a\.json is not valid JSON/);
    expect(loadError(write("b.json", { name: "b", turns: [{ match: "(", steps: [{ text: "x" }] }] })).message).toMatch(/not a valid regular expression/);
    expect(loadError(write("c.json", { name: "c", turns: [{ match: "", steps: [{ txt: "typo" }] }] })).message).toMatch(/txt/);
    expect(loadError(write("d.json", { name: "d", turns: [{ match: "", steps: [{ status: 401, text: "x" }] }] })).message).toMatch(/cannot also stream/);
  });

  test("in a directory, the first bad file is named and duplicate names are refused", () => {
    write("1-ok.json", { name: "ok", turns: [{ match: "", steps: [{ text: "x" }] }] });
    const bad = write("2-bad.json", { name: "bad", turns: [] });
    expect(loadError(dir).message).toContain(bad);
    rmSync(bad);
    write("3-dup.json", { name: "ok", turns: [{ match: "", steps: [{ text: "y" }] }] });
    expect(loadError(dir).message).toMatch(/Duplicate script name "ok" in 3-dup\.json and 1-ok\.json/);
  });
});

describe("turn and step selection", () => {
  const scripts = loadScripts(join(import.meta.dirname, "../scripts"));

  test("first matching turn; the step is the number of assistant replies since the user message", () => {
    expect(select(scripts, undefined, "Please read the README", 0)).toMatchObject({ kind: "step", script: "read-file", stepIndex: 0 });
    expect(select(scripts, undefined, "Please read the README", 1)).toMatchObject({ kind: "step", script: "read-file", stepIndex: 1 });
    expect(select(scripts, undefined, "Please read the README", 2)).toMatchObject({ kind: "finished" });
    expect(select(scripts, undefined, "something else", 0)).toEqual({ kind: "unmatched" });
  });

  test("a request's model id that names a script restricts selection to it", () => {
    expect(select(scripts, "hello", "Please read the README", 0)).toEqual({ kind: "unmatched" });
    expect(select(scripts, "hello", "hi there", 0)).toMatchObject({ kind: "step", script: "hello" });
  });
});
