/**
 * SEAM_LOG_FORMAT (SCALE-4): `json` writes one parseable object per line to stdout with time, level,
 * capability, message, the session when known and the (redacted) data; `text` (the default) is unchanged;
 * anything else is refused with the allowed values.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLog, logFormat, parseLogFormat, setLogFormat, withFields } from "../../src/core/log.js";

afterEach(() => {
  setLogFormat(undefined);
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const parse = (line: string) => JSON.parse(line) as Record<string, unknown>;

describe("log format", () => {
  it("json: one object per line with time, level, capability, message and the data", () => {
    const lines: string[] = [];
    const log = createLog("mcp", (l) => lines.push(l), { format: "json" });
    log.info("server started", { server: "github", pid: 42 });
    log.warn("restarting");
    log.error("crashed", { error: new Error("boom\nsecond line") });
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => !l.includes("\n"))).toBe(true);
    const [a, b, c] = lines.map(parse);
    expect(a).toEqual({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), level: "info", capability: "mcp", message: "server started", server: "github", pid: 42 });
    expect(Number.isNaN(Date.parse(String(a!.time)))).toBe(false);
    expect(b).toEqual({ time: expect.any(String), level: "warn", capability: "mcp", message: "restarting" });
    expect(c).toMatchObject({ level: "error", error: { name: "Error", message: "boom\nsecond line" } });
    // The keys a line owns come first, in this order.
    expect(Object.keys(a!).slice(0, 4)).toEqual(["time", "level", "capability", "message"]);
  });

  it("json: secrets are redacted exactly as in text (keys at any depth, URL credentials)", () => {
    const lines: string[] = [];
    const data = { env: { GITHUB_TOKEN: "ghp_secret" }, apiKey: "sk-secret", url: "https://bob:hunter2@example.com/x", error: new Error("GET https://u:pw@h failed") };
    createLog("mcp", (l) => lines.push(l), { format: "json" }).warn("restarting", data);
    createLog("mcp", (l) => lines.push(l), { format: "text" }).warn("restarting", data);
    for (const line of lines) for (const secret of ["ghp_secret", "sk-secret", "hunter2", "pw@"]) expect(line).not.toContain(secret);
    expect(parse(lines[0]!)).toMatchObject({ env: { GITHUB_TOKEN: "[redacted]" }, apiKey: "[redacted]", url: "https://[redacted]@example.com/x", error: { message: "GET https://[redacted]@h failed" } });
  });

  it("json: the session rides along from data, from child(), and from withFields() on any Log", () => {
    const lines: string[] = [];
    const log = createLog("session", (l) => lines.push(l), { format: "json" });
    log.error("compaction failed", { session: "s-1" });
    const child = log.child({ session: "s-2" });
    child.info("turn started", { turn: "t-1" });
    child.child({ turn: "t-2" }).warn("slow");
    child.info("overridden", { session: "s-3" });
    withFields(log, { session: "s-4" }).info("wrapped");
    expect(lines.map(parse).map((l) => [l.message, l.session, l.turn])).toEqual([
      ["compaction failed", "s-1", undefined],
      ["turn started", "s-2", "t-1"],
      ["slow", "s-2", "t-2"],
      ["overridden", "s-3", undefined],
      ["wrapped", "s-4", undefined],
    ]);
  });

  it("json: data named like a line's own keys moves into `data` instead of overwriting them", () => {
    const lines: string[] = [];
    createLog("web", (l) => lines.push(l), { format: "json" }).info("fetched", { message: "theirs", level: "debug", time: 1, data: "x", ok: true });
    expect(parse(lines[0]!)).toEqual({ time: expect.any(String), level: "info", capability: "web", message: "fetched", ok: true, data: { message: "theirs", level: "debug", time: 1, data: "x" } });
  });

  it("json: unserializable data still gives one parseable line", () => {
    const lines: string[] = [];
    createLog("host", (l) => lines.push(l), { format: "json" }).info("odd", { n: 10n, nested: { big: 2n } });
    expect(parse(lines[0]!)).toMatchObject({ message: "odd", n: "10", nested: { big: "2" } });
  });

  it("text: today's line on the given writer, children included", () => {
    const lines: string[] = [];
    const log = createLog("mcp:github", (l) => lines.push(l), { format: "text" });
    log.warn("restarting", { attempt: 2 });
    log.child({ session: "s-1" }).info("plain");
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT.+Z WARN \[mcp:github\] restarting \{"attempt":2\}$/);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT.+Z INFO \[mcp:github\] plain \{"session":"s-1"\}$/);
  });

  it("follows SEAM_LOG_FORMAT: json to stdout, text (unset, empty or `text`) to stderr", () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const log = createLog("host");
    vi.stubEnv("SEAM_LOG_FORMAT", "json");
    setLogFormat(undefined);
    log.info("as json", { session: "s-1" });
    expect(out).toHaveBeenCalledTimes(1);
    expect(parse(String(out.mock.calls[0]![0]).trimEnd())).toMatchObject({ level: "info", capability: "host", message: "as json", session: "s-1" });
    expect(String(out.mock.calls[0]![0]).endsWith("}\n")).toBe(true);
    expect(err).not.toHaveBeenCalled();

    for (const value of [undefined, "", "text", " TEXT "]) {
      vi.stubEnv("SEAM_LOG_FORMAT", value);
      setLogFormat(undefined);
      expect(logFormat()).toBe("text");
    }
    log.info("as text");
    expect(out).toHaveBeenCalledTimes(1);
    expect(String(err.mock.calls.at(-1)![0])).toMatch(/ INFO \[host\] as text\n$/);
  });

  it("refuses any other value, naming the allowed ones; lines written meanwhile stay text", () => {
    for (const bad of ["xml", "JSONL", "1"]) {
      expect(() => parseLogFormat(bad)).toThrow(`SEAM_LOG_FORMAT must be one of "text", "json" (unset means "text"), not "${bad}"`);
    }
    expect(parseLogFormat("JSON")).toBe("json");
    vi.stubEnv("SEAM_LOG_FORMAT", "xml");
    setLogFormat(undefined);
    expect(() => logFormat()).toThrow(/"text", "json"/);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    createLog("host").error("still written");
    expect(String(err.mock.calls[0]![0])).toMatch(/ERROR \[host\] still written/);
  });
});
