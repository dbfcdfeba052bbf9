import { describe, expect, it } from "vitest";
import { errorDetails, HostError, isPublic, type ErrorCode } from "../../src/core/errors.js";

describe("isPublic: what a client may read (STYLE §4)", () => {
  it("hides every internal error and the db kinds that carry driver text", () => {
    const visible = (code: ErrorCode) => isPublic(new HostError(code, "m"));
    for (const code of ["internal:db", "internal:extensions", "internal:workspace", "unavailable:db", "bad_input:db"] as const) expect(visible(code)).toBe(false);
    for (const code of ["not_found:db", "conflict:db", "timeout:db", "closed:db", "not_found:session", "unavailable:llm", "unavailable:extensions", "bad_input:lsp"] as const) {
      expect(visible(code)).toBe(true);
    }
  });
});

describe("errorDetails", () => {
  it("lists the error and its causes with codes and stacks, bounded", () => {
    const root = Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR" });
    const details = errorDetails(new HostError("internal:db", "sessions: disk I/O error", undefined, { cause: root }));
    expect(details).toMatchObject([
      { name: "HostError", message: "sessions: disk I/O error", code: "internal:db", stack: expect.stringContaining("HostError") },
      { name: "Error", message: "disk I/O error", code: "SQLITE_IOERR" },
    ]);
    expect(errorDetails("plain")).toEqual([{ value: "plain" }]);
    let deep: Error = new Error("0");
    for (let i = 1; i < 20; i++) deep = new Error(String(i), { cause: deep });
    expect(errorDetails(deep)).toHaveLength(5);
  });
});
