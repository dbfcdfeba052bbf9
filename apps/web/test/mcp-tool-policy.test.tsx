// @vitest-environment happy-dom
import { McpServerConfig, type McpServerView } from "@seam/shared";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { draftFrom, parseDraft } from "@/app/_components/mcp/form-state";
import { approvalChoice, ServerApprovalSelect, ToolPolicyControls, unknownPolicyNames, type ToolPolicyChange } from "@/app/_components/mcp/tool-policy";

afterEach(cleanup);

const config = (extra: Record<string, unknown> = {}) => McpServerConfig.parse({ name: "gh", transport: { type: "stdio", command: "gh-mcp" }, ...extra });
const tool = (rawName: string, enabled = true) => ({
  publicName: `mcp__gh__${rawName}`, rawName, description: "", inputSchema: { type: "object" }, outputSchema: null, enabled, approval: "auto" as const, readOnly: false,
});
const server = (extra: Record<string, unknown>, tools = [tool("list"), tool("create")]): Pick<McpServerView, "config" | "tools"> => ({ config: config(extra), tools });

describe("tool policy controls (MCP-8)", () => {
  it("the switch and the select report enabled and approval changes", () => {
    const onChange = vi.fn<(c: ToolPolicyChange) => void>();
    render(<ToolPolicyControls tool={tool("create")} choice="inherit" serverApproval="ask" onChange={onChange} />);
    const select = screen.getByTestId<HTMLSelectElement>("mcp-tool-approval");
    expect(select.value).toBe("inherit");
    expect(select.options[0]!.textContent).toBe("Server default (ask)");
    fireEvent.click(screen.getByTestId("mcp-tool-enabled"));
    fireEvent.change(select, { target: { value: "auto" } });
    expect(onChange.mock.calls).toEqual([[{ enabled: false }], [{ approval: "auto" }]]);
  });

  it("a disabled tool shows its switch off; busy controls are disabled", () => {
    render(<ToolPolicyControls tool={tool("create", false)} choice="ask" serverApproval="auto" disabled onChange={() => {}} />);
    expect(screen.getByTestId("mcp-tool-enabled").getAttribute("aria-checked")).toBe("false");
    expect(screen.getByTestId<HTMLSelectElement>("mcp-tool-approval").disabled).toBe(true);
  });

  it("the server's default approval select reports its choice", () => {
    const onChange = vi.fn();
    render(<ServerApprovalSelect value="auto" onChange={onChange} />);
    fireEvent.change(screen.getByTestId("mcp-server-approval"), { target: { value: "ask" } });
    expect(onChange).toHaveBeenCalledWith("ask");
  });

  it("flags policy names the server does not list, only once it lists tools", () => {
    const s = server({ enabledTools: ["list", "gone"], disabledTools: ["old"], toolApproval: { list: "ask", ghost: "auto" } });
    expect(unknownPolicyNames(s)).toEqual(["ghost", "gone", "old"]);
    expect(unknownPolicyNames({ ...s, tools: [] })).toEqual([]);
    expect(approvalChoice(s, "list")).toBe("ask");
    expect(approvalChoice(s, "create")).toBe("inherit");
  });

  it("editing a server in the form keeps its tool policy", () => {
    const c = config({ disabledTools: ["create"], approval: "ask", toolApproval: { list: "auto" } });
    const parsed = parseDraft({ ...draftFrom(c), callTimeout: "60" }, []);
    expect(parsed.ok && parsed.value).toMatchObject({ disabledTools: ["create"], approval: "ask", toolApproval: { list: "auto" }, callTimeoutMs: 60_000 });
  });
});
