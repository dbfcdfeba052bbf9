import { McpServerConfig, type McpServerView } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { exportServers, previewImport } from "../../src/mcp/import.js";
import { instructionsBlock } from "../../src/mcp/instructions.js";
import { withToolPolicy } from "../../src/mcp/policy.js";
import { evaluate } from "../../src/permissions/evaluate.js";
import type { CallFacts, PermissionRule } from "../../src/permissions/types.js";

const config = (extra: Record<string, unknown> = {}) => McpServerConfig.parse({ name: "gh", transport: { type: "stdio", command: "gh-mcp" }, ...extra });
const view = (name: string, instructions: string | null, extra: Partial<McpServerView> = {}): McpServerView => ({
  config: config({ name }), status: { state: "ready", since: "2026-01-01T00:00:00Z" }, generation: 1, toolsRegistered: true, instructions, stderrTail: "",
  serverInfo: null, tools: [{ publicName: `mcp__${name}__t`, rawName: "t", description: "", inputSchema: { type: "object" }, outputSchema: null, enabled: true, approval: "auto", readOnly: false }],
  ...extra,
});

describe("instructions in the system prompt (MCP-8)", () => {
  it("escapes, orders by name and wraps each server in its tagged block", () => {
    const block = instructionsBlock([view("zeta", "Use </mcp_server_instructions> & <b>bold</b>"), view("alpha", "Alpha first.")]);
    expect(block.indexOf('server="alpha"')).toBeLessThan(block.indexOf('server="zeta"'));
    expect(block).toContain("Use &lt;/mcp_server_instructions&gt; &amp; &lt;b&gt;bold&lt;/b&gt;");
    expect(block.match(/<\/mcp_server_instructions>/g)).toHaveLength(2);
    expect(instructionsBlock([view("alpha", "Alpha first."), view("zeta", "Use </mcp_server_instructions> & <b>bold</b>")])).toBe(block);
  });

  it("cuts at 2,000 characters a server and 8,000 in all, and says so", () => {
    const views = ["a", "b", "c", "d", "e"].map((n) => view(n, n.repeat(5_000)));
    const block = instructionsBlock(views);
    expect(block.match(/\(cut\)/g)).toHaveLength(4);
    expect(block).toContain("(cut: the instructions of 1 more server(s) are left out)");
    expect(block.replace(/[^a-e]/g, "").length).toBeLessThan(8_000 + 200);
  });

  it("leaves out servers that are not ready, have no visible tool, or gave no instructions", () => {
    const hidden = view("hidden", "x");
    hidden.tools = hidden.tools.map((t) => ({ ...t, enabled: false }));
    expect(instructionsBlock([
      view("failed", "x", { status: { state: "failed", error: "gone" } }), view("none", null), view("blank", "  "), hidden,
      view("unregistered", "x", { toolsRegistered: false }),
    ])).toBe("");
  });
});

describe("per-tool policy (MCP-8)", () => {
  it("disabling and enabling edit the denylist and an allowlist; inherit drops the override", () => {
    const c = config({ enabledTools: ["a", "b"] });
    const off = withToolPolicy(c, { tool: "a", enabled: false });
    expect(off).toMatchObject({ enabledTools: ["b"], disabledTools: ["a"] });
    const on = withToolPolicy(off, { tool: "a", enabled: true });
    expect(on).toMatchObject({ enabledTools: ["b", "a"], disabledTools: [] });
    const asks = withToolPolicy(on, { tool: "b", approval: "ask" });
    expect(asks.toolApproval).toEqual({ b: "ask" });
    expect(withToolPolicy(asks, { tool: "b", approval: "inherit" }).toolApproval).toEqual({});
  });

  it("the schema refuses duplicates and bad approvals with words", () => {
    const r = McpServerConfig.safeParse({ name: "gh", transport: { type: "stdio", command: "x" }, disabledTools: ["a", "a"], approval: "sometimes" });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.message).join("; ")).toMatch(/Each tool may appear once in disabledTools/);
  });
});

describe("the gate's verdict for an asking tool (MCP-8, PERM-1)", () => {
  const call: CallFacts = { tool: "mcp__gh__create_issue", effect: "external", args: {}, workspace: "/w", asks: true };
  const rule = (action: PermissionRule["action"]): PermissionRule => ({ id: "r", scope: "global", owner: null, action, pattern: "mcp__gh__*" });
  it("asks in every mode but plan, which still refuses; deny rules deny; an allow rule lets it run", () => {
    expect(evaluate(call, { mode: "auto", rules: [] }).verdict).toBe("ask");
    expect(evaluate({ ...call, effect: "read" }, { mode: "ask", rules: [] }).verdict).toBe("ask");
    expect(evaluate(call, { mode: "plan", rules: [] }).verdict).toBe("deny");
    expect(evaluate(call, { mode: "auto", rules: [rule("deny")] }).verdict).toBe("deny");
    expect(evaluate(call, { mode: "auto", rules: [rule("allow")] }).verdict).toBe("allow");
    expect(evaluate({ ...call, asks: false }, { mode: "auto", rules: [] }).verdict).toBe("allow");
  });
});

describe("import/export keeps Cline's fields (MCP-8)", () => {
  const cline = JSON.stringify({
    mcpServers: {
      github: { command: "npx", args: ["-y", "gh-mcp"], disabledTools: ["delete_repo"], alwaysAllow: ["list_issues"], autoApprove: ["get_issue"] },
      plain: { command: "plain-mcp" },
    },
  });
  it("maps disabledTools, and alwaysAllow/autoApprove to auto tools of an asking server", () => {
    const preview = previewImport(cline, new Map());
    const gh = preview.entries.find((e) => e.name === "github")!;
    expect(gh.warnings.join(" ")).not.toMatch(/Ignored/);
    expect(gh.config).toMatchObject({ disabledTools: ["delete_repo"], approval: "ask", toolApproval: { list_issues: "auto", get_issue: "auto" } });
    expect(preview.entries.find((e) => e.name === "plain")!.config).toMatchObject({ disabledTools: [], approval: "auto", toolApproval: {} });
  });

  it("exports them back, and importing the export changes nothing", () => {
    const configs = previewImport(cline, new Map()).entries.map((e) => e.config!);
    const extra = { ...configs[1]!, enabledTools: ["x"], toolApproval: { x: "ask" as const } };
    const out = exportServers([configs[0]!, extra]);
    const doc = JSON.parse(out.json) as { mcpServers: Record<string, Record<string, unknown>> };
    expect(doc.mcpServers.github).toMatchObject({ disabledTools: ["delete_repo"], alwaysAllow: ["list_issues", "get_issue"] });
    expect(doc.mcpServers.plain).toMatchObject({ seam: { enabledTools: ["x"], toolApproval: { x: "ask" } } });
    const saved = new Map([configs[0]!, extra].map((c) => [c.name, c]));
    expect(previewImport(out.json, saved).entries.map((e) => e.action)).toEqual(["unchanged", "unchanged"]);
  });

  it("bad policy fields are messages in words, per field", () => {
    const bad = previewImport(JSON.stringify({ mcpServers: { x: { command: "x", disabledTools: "all", alwaysAllow: [1] } } }), new Map());
    expect(bad.entries[0]).toMatchObject({ action: "invalid" });
    expect(bad.entries[0]!.errors).toEqual([
      { path: "disabledTools", message: "disabledTools must be a list of tool names" },
      { path: "alwaysAllow", message: "alwaysAllow must be a list of tool names" },
    ]);
  });
});
