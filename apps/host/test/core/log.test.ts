import { describe, expect, it } from "vitest";
import { createLog, redact } from "../../src/core/log.js";

describe("log", () => {
  it("redacts secret-looking keys at any depth, case-insensitively", () => {
    const input = {
      apiKey: "sk-1",
      nested: { Authorization: "Bearer x", list: [{ refresh_TOKEN: "t", ok: 1 }], PASSWORD: "p" },
      cookie: "c",
      client_secret: "s",
      model: "deepseek-chat",
    };
    expect(redact(input)).toEqual({
      apiKey: "[redacted]",
      nested: { Authorization: "[redacted]", list: [{ refresh_TOKEN: "[redacted]", ok: 1 }], PASSWORD: "[redacted]" },
      cookie: "[redacted]",
      client_secret: "[redacted]",
      model: "deepseek-chat",
    });
    expect(input.apiKey).toBe("sk-1");
  });

  it("redacts credentials in URLs inside strings and error messages", () => {
    expect(redact({ url: "https://bob:hunter2@example.com/x?q=1", note: "see http://a:b@h and ftp://plain.example", e: new Error("GET https://u:p@h failed") })).toEqual({
      url: "https://[redacted]@example.com/x?q=1",
      note: "see http://[redacted]@h and ftp://plain.example",
      e: { name: "Error", message: "GET https://[redacted]@h failed" },
    });
  });

  it("survives cycles and keeps shared references", () => {
    const shared = { a: 1 };
    const cyclic: Record<string, unknown> = { shared, again: shared };
    cyclic.self = cyclic;
    expect(redact(cyclic)).toEqual({ shared: { a: 1 }, again: { a: 1 }, self: "[circular]" });
  });

  it("writes one redacted line per call", () => {
    const lines: string[] = [];
    const log = createLog("mcp:github", (line) => lines.push(line));
    log.warn("restarting", { attempt: 2, env: { GITHUB_TOKEN: "ghp_x" }, error: new Error("crashed") });
    log.info("plain");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT.+Z WARN \[mcp:github\] restarting \{/);
    expect(lines[0]).not.toContain("ghp_x");
    expect(lines[0]).toContain('"GITHUB_TOKEN":"[redacted]"');
    expect(lines[0]).toContain('"message":"crashed"');
    expect(lines[1]).toMatch(/INFO \[mcp:github\] plain$/);
    expect(lines.every((l) => !l.includes("\n"))).toBe(true);
  });
});
