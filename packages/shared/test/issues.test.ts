import { z } from "zod";
import { describe, expect, it } from "vitest";
import { formatIssues, issuesOf, messageFor } from "../src/index.js";

const fail = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  if (r.success) throw new Error("expected a failure");
  return r.error;
};

describe("issuesOf / formatIssues", () => {
  it("names nested object and array paths with dots", () => {
    const S = z.object({ server: z.object({ args: z.array(z.string().min(2)), env: z.record(z.string(), z.string()) }) });
    const error = fail(S, { server: { args: ["ok", "x", 3], env: { A: 1 } } });
    expect(issuesOf(error).map((i) => i.path)).toEqual(["server.args.1", "server.args.2", "server.env.A"]);
    expect(formatIssues(error)).toMatch(/^server\.args\.1: Too small.*; server\.args\.2: Invalid input: expected string.*; server\.env\.A: /);
  });

  it("prefixes root issues only when asked, and joins with the separator", () => {
    const error = fail(z.string(), 3);
    expect(formatIssues(error)).toBe("Invalid input: expected string, received number");
    expect(formatIssues(error, { root: "(arguments)" })).toBe("(arguments): Invalid input: expected string, received number");
    const two = fail(z.object({ a: z.string(), b: z.string() }), {});
    expect(formatIssues(two, { separator: "\n" }).split("\n")).toHaveLength(2);
  });

  it("reports the union branch that came closest", () => {
    const U = z.object({
      transport: z.union([
        z.object({ type: z.literal("stdio"), command: z.string().min(1) }),
        z.object({ type: z.literal("http"), url: z.url(), headers: z.record(z.string(), z.string()) }),
      ]),
    });
    expect(issuesOf(fail(U, { transport: { type: "stdio", command: "" } }))).toEqual([
      { path: "transport.command", message: expect.stringMatching(/Too small/) },
    ]);
    // Every branch rejects the type: the union's own issue stays.
    expect(issuesOf(fail(U, { transport: 5 }))).toEqual([{ path: "transport", message: "Invalid input" }]);
    // Nested unions are followed too.
    const N = z.object({ v: z.union([z.number(), z.object({ w: z.union([z.boolean(), z.object({ x: z.string() })]) })]) });
    expect(issuesOf(fail(N, { v: { w: { x: 1 } } }))).toEqual([{ path: "v.w.x", message: expect.stringMatching(/expected string/) }]);
    // A union of primitives refuses the value itself in every branch: its own (custom) message stays.
    const flag = z.object({ on: z.union([z.boolean(), z.enum(["true", "false"])], { error: "must be true or false" }) });
    expect(issuesOf(fail(flag, { on: "sometimes" }))).toEqual([{ path: "on", message: "must be true or false" }]);
  });

  it("keeps discriminated unions' own message", () => {
    const D = z.discriminatedUnion("t", [z.object({ t: z.literal("a") }), z.object({ t: z.literal("b"), n: z.number() })]);
    expect(issuesOf(fail(D, { t: "c" }))[0]).toMatchObject({ path: "t", message: expect.stringMatching(/discriminator/) });
    expect(issuesOf(fail(D, { t: "b", n: "1" }))).toEqual([{ path: "n", message: expect.stringMatching(/expected number/) }]);
  });

  it("bounds many issues and long texts", () => {
    const many = fail(z.array(z.number()), Array.from({ length: 500 }, () => "x"));
    const issues = issuesOf(many, { maxIssues: 5 });
    expect(issues).toHaveLength(6);
    expect(issues[5]).toEqual({ path: "", message: "… 495 more" });
    expect(formatIssues(many)).toMatch(/; … 490 more$/);
    expect(formatIssues(many).length).toBeLessThan(1_000);
    const long = fail(z.string().refine(() => false, { message: "m".repeat(10_000) }), "s");
    expect(issuesOf(long)[0]!.message).toHaveLength(300);
    expect(issuesOf(long, { maxChars: 20 })[0]!.message).toBe(`${"m".repeat(19)}…`);
    expect(formatIssues(many, { root: "(root)", maxIssues: 1 })).toBe("0: Invalid input: expected number, received string; … 499 more");
  });

  it("can leave paths out for messages that name their field", () => {
    const S = z.object({ description: z.string({ error: "description is required" }) });
    expect(formatIssues(fail(S, {}), { paths: false })).toBe("description is required");
  });

  it("formats issues already flattened", () => {
    expect(formatIssues([{ path: "", message: "a" }, { path: "b.0", message: "c" }], { root: "config" })).toBe("config: a; b.0: c");
  });
});

describe("messageFor", () => {
  it("looks up the whole code, then the kind, then falls back to internal", () => {
    expect(messageFor("timeout:db")).toBe("The database is busy.");
    expect(messageFor("timeout:lsp")).toBe(messageFor("timeout"));
    expect(messageFor("internal:agent")).toBe("Something went wrong in the host.");
    expect(messageFor("provider_not_found")).toBe(messageFor("internal"));
  });
});
