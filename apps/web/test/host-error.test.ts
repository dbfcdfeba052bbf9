import { describe, expect, it } from "vitest";
import { hostCodeOf, hostIssuesOf, hostRefOf } from "@/lib/host-error";
import { hostErrorFields } from "@/app/_components/settings/lsp-draft";

const trpcError = (message: string, data: Record<string, unknown>) => Object.assign(new Error(message), { data });

describe("host error data", () => {
  it("reads the host code, issues and log ref, tolerating anything else", () => {
    const e = trpcError("x", { hostCode: "conflict:mcp", issues: [{ path: "name", message: "Too long" }], ref: "3f9c1a2b" });
    expect(hostCodeOf(e)).toBe("conflict:mcp");
    expect(hostIssuesOf(e)).toEqual([{ path: "name", message: "Too long" }]);
    expect(hostRefOf(e)).toBe("3f9c1a2b");
    for (const odd of [null, undefined, new Error("plain"), trpcError("y", { hostCode: 3, issues: "nope", ref: null })]) {
      expect([hostCodeOf(odd), hostIssuesOf(odd), hostRefOf(odd)]).toEqual([null, [], null]);
    }
  });

  it("puts the host's input issues on the LSP form's fields, nested under config too", () => {
    const e = trpcError("config.command: Too small", {
      hostCode: null,
      issues: [{ path: "config.command", message: "Too small" }, { path: "extensions.0", message: "Bad extension" }, { path: "config.command", message: "second" }],
    });
    expect(hostErrorFields(e)).toEqual({ command: "Too small", extensions: "Bad extension" });
  });

  it("falls back to the message's `path: text` parts when no issues came", () => {
    const e = trpcError("extensions.0: must start with a dot; command: not found on PATH", { hostCode: "invalid_config" });
    expect(hostErrorFields(e)).toEqual({ extensions: "must start with a dot", command: "not found on PATH" });
  });
});
