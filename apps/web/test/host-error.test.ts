import { describe, expect, it } from "vitest";
import { TRPCClientError } from "@trpc/client";
import { hostCodeOf, hostIssuesOf, hostRefOf } from "@/lib/host-error";
import { hostErrorFields } from "@/app/_components/settings/lsp-draft";
import { makeQueryClient } from "@/trpc/query-client";

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

describe("an unavailable peer (503) reads like any other host error (hardening #12 item 3)", () => {
  // The envelope the host sends for `mcp.add` when the server fails to start (apps/host/test/trpc/bounds.test.ts).
  const envelope = (httpStatus: number, code: string) => ({
    error: {
      message: 'Could not connect to the MCP server "down": fetch failed',
      code: httpStatus === 413 ? -32013 : -32603,
      data: { code, httpStatus, path: "mcp.add", hostCode: "connect_failed", ref: null, issues: null },
    },
  });

  it("keeps the host code and message whether the status is 503 or 500", () => {
    for (const [status, code] of [[503, "SERVICE_UNAVAILABLE"], [500, "INTERNAL_SERVER_ERROR"]] as const) {
      const e = TRPCClientError.from(envelope(status, code));
      expect(e.message).toBe('Could not connect to the MCP server "down": fetch failed');
      expect([hostCodeOf(e), hostIssuesOf(e), hostRefOf(e)]).toEqual(["connect_failed", [], null]);
    }
  });

  it("retries a 503 query like a 500 (a server error may pass), never a 4xx", () => {
    const retry = makeQueryClient().getDefaultOptions().queries?.retry as (count: number, error: unknown) => boolean;
    expect(retry(0, TRPCClientError.from(envelope(503, "SERVICE_UNAVAILABLE")))).toBe(true);
    expect(retry(0, TRPCClientError.from(envelope(500, "INTERNAL_SERVER_ERROR")))).toBe(true);
    expect(retry(2, TRPCClientError.from(envelope(503, "SERVICE_UNAVAILABLE")))).toBe(false);
    expect(retry(0, TRPCClientError.from(envelope(413, "PAYLOAD_TOO_LARGE")))).toBe(false);
  });
});
