import { describe, expect, it } from "vitest";
import { prettyJson, summarizeArgs, toolIcon } from "@/app/_components/chat/tool-summary";
import { formatBytes, formatPublished } from "@/lib/format";
import { elapsedSince, formatDuration, relativeTime } from "@/lib/time";

describe("formatDuration", () => {
  // ms below a second, one decimal below ten seconds, whole seconds below a minute, then minutes; a dash for nonsense.
  it.each([
    [0, "0 ms"], [840.4, "840 ms"], [3_240, "3.2 s"], [42_600, "43 s"], [64_000, "1 min 4 s"], [120_000, "2 min"],
    [-1, "–"], [Number.NaN, "–"], [Number.POSITIVE_INFINITY, "–"],
  ])("%d ms reads %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe("relativeTime", () => {
  const now = Date.parse("2026-03-12T12:00:00Z");
  const ago = (ms: number) => new Date(now - ms).toISOString();
  it("counts recent times in words", () => {
    expect(relativeTime(ago(10_000), now)).toBe("just now");
    expect(relativeTime(ago(60_000), now)).toBe("1 min ago");
    expect(relativeTime(ago(5 * 60_000), now)).toBe("5 min ago");
    expect(relativeTime(ago(3 * 3_600_000), now)).toBe("3 h ago");
    expect(relativeTime(ago(30 * 3_600_000), now)).toBe("yesterday");
  });
  it("treats a time in the future as now and an unparsable one as nothing", () => {
    expect(relativeTime(new Date(now + 60_000).toISOString(), now)).toBe("just now");
    expect(relativeTime("not a date", now)).toBe("");
  });
  it("gives a date for older times, with the year only when it differs", () => {
    const sameYear = relativeTime("2026-01-05T12:00:00Z", now);
    const lastYear = relativeTime("2025-01-05T12:00:00Z", now);
    expect(sameYear).not.toMatch(/2026/);
    expect(lastYear).toMatch(/2025/);
  });
});

describe("elapsedSince", () => {
  it("measures to the end when there is one, else to now, never below zero", () => {
    expect(elapsedSince("2026-01-01T00:00:00Z", "2026-01-01T00:00:02.5Z", 0)).toBe(2_500);
    expect(elapsedSince("2026-01-01T00:00:00Z", null, Date.parse("2026-01-01T00:01:00Z"))).toBe(60_000);
    expect(elapsedSince("2026-01-01T00:00:10Z", "2026-01-01T00:00:00Z", 0)).toBe(0);
  });
});

describe("formatBytes", () => {
  it.each([[0, "0 B"], [1023.4, "1023 B"], [1024, "1.0 KB"], [3_500, "3.4 KB"]])("%d bytes read %s", (n, text) => {
    expect(formatBytes(n)).toBe(text);
  });
});

describe("formatPublished", () => {
  it("shows the UTC calendar day, whatever the local zone", () => {
    const shown = formatPublished("2024-02-29");
    expect(shown).toMatch(/29/);
    expect(shown).toMatch(/2024/);
    expect(formatPublished("2024-02-29T23:30:00Z")).toBe(shown);
  });
  it("keeps text that is not a date", () => {
    expect(formatPublished("last spring")).toBe("last spring");
  });
});

describe("summarizeArgs", () => {
  it("lists named arguments, and a lone argument by its value", () => {
    expect(summarizeArgs({ path: "src/a.ts", limit: 20 })).toBe('path: "src/a.ts", limit: 20');
    expect(summarizeArgs({ path: "src/a.ts" })).toBe('"src/a.ts"');
    expect(summarizeArgs(null)).toBe("");
    expect(summarizeArgs({})).toBe("");
    expect(summarizeArgs(42)).toBe("42");
  });
  it("shortens long strings, collapses whitespace and clips the whole line", () => {
    const long = "x".repeat(80);
    expect(summarizeArgs({ text: long })).toBe(JSON.stringify(`${"x".repeat(57)}…`));
    expect(summarizeArgs({ a: { b: "one\n   two" } })).toBe('{"b":"one\\n two"}');
    const clipped = summarizeArgs({ a: "y".repeat(50), b: "z".repeat(50), c: "w".repeat(50) }, 60);
    expect(clipped).toHaveLength(60);
    expect(clipped.endsWith("…")).toBe(true);
  });
});

describe("prettyJson and toolIcon", () => {
  it("indents JSON and survives what JSON cannot hold", () => {
    expect(prettyJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(prettyJson(undefined)).toBe("");
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(prettyJson(loop)).toBe("[object Object]");
  });
  it("picks an icon by what the tool's name says it does", () => {
    expect(toolIcon("extension_define")).not.toBe(toolIcon("read_file"));
    expect(toolIcon("run_shell")).toBe(toolIcon("bash"));
    expect(toolIcon("web_fetch")).toBe(toolIcon("http_get"));
    expect(toolIcon("mystery")).toBe(toolIcon("other"));
  });
});
