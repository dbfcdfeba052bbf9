// @vitest-environment happy-dom
import type { McpElicitationAnswer, McpElicitationView } from "@seam/shared";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ToolProgressBar } from "@/app/_components/chat/tool-progress";
import { ElicitationPrompt } from "@/app/_components/elicitation/elicitation-prompt";
import { logLine, withEntry } from "@/app/_components/mcp/server-logs";

afterEach(cleanup);

const schema = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name" },
    age: { type: "integer", title: "Age", default: 42, minimum: 1, maximum: 100 },
    ratio: { type: "number", title: "Ratio", default: 3.14 },
    agree: { type: "boolean", title: "Agree", default: false },
    color: { type: "string", title: "Color", enum: ["red", "green"], default: "red" },
    hero: { type: "string", title: "Hero", oneOf: [{ const: "h1", title: "Superman" }, { const: "h2", title: "Batman" }] },
    fish: { type: "array", title: "Fish", items: { anyOf: [{ const: "f1", title: "Tuna" }, { const: "f2", title: "Salmon" }] }, default: ["f1"] },
  },
  required: ["name", "hero"],
};
const view = (over: Partial<McpElicitationView> = {}): McpElicitationView => ({
  id: "r1", kind: "mcp_elicitation", sessionId: "s", callId: "c", server: "everything", tool: "mcp__everything__ask", mode: "form",
  message: "Please fill in", requestedSchema: schema, url: null, elicitationId: null, requestedAt: "2026-01-01T00:00:00Z", ...over,
});

function renderPrompt(v = view()) {
  const onAnswer = vi.fn<(a: McpElicitationAnswer) => void>();
  render(<ElicitationPrompt view={v} sending={null} error={null} onAnswer={onAnswer} />);
  const field = (name: string) => screen.getAllByTestId("elicitation-field").find((f) => f.dataset.name === name)!;
  return { onAnswer, field };
}

describe("elicitation form (MCP-12)", () => {
  it("renders a field per property with defaults filled in and required fields marked", () => {
    const { field } = renderPrompt();
    expect(screen.getByTestId("elicitation-message").textContent).toBe("Please fill in");
    expect(screen.getAllByTestId("elicitation-field").map((f) => f.dataset.name)).toEqual(["name", "age", "ratio", "agree", "color", "hero", "fish"]);
    expect((field("age").querySelector("input") as HTMLInputElement).value).toBe("42");
    expect((field("color").querySelector("select") as HTMLSelectElement).value).toBe("red");
    expect([...field("hero").querySelectorAll("option")].map((o) => o.textContent)).toEqual(["Choose…", "Superman", "Batman"]);
    expect((field("fish").querySelectorAll("input")[0] as HTMLInputElement).checked).toBe(true);
    expect(field("name").textContent).toContain("*");
    expect(field("age").textContent).toContain("(optional)");
  });

  it("shows problems by field and sends nothing until they are fixed; then accepts with defaults applied", async () => {
    const { onAnswer, field } = renderPrompt();
    await userEvent.clear(field("age").querySelector("input")!);
    await userEvent.type(field("age").querySelector("input")!, "500");
    await userEvent.click(screen.getByTestId("elicitation-accept"));
    expect(onAnswer).not.toHaveBeenCalled();
    const errors = Object.fromEntries(screen.getAllByTestId("elicitation-field-error").map((e) => [e.dataset.field, e.textContent]));
    expect(errors).toEqual({ name: "Required", age: "Must be at most 100", hero: "Required" });
    expect(field("age").querySelector("input")!.getAttribute("aria-invalid")).toBe("true");

    await userEvent.type(field("name").querySelector("input")!, "Ada");
    await userEvent.selectOptions(field("hero").querySelector("select")!, "h2");
    await userEvent.clear(field("age").querySelector("input")!);
    // Fixed fields lose their error as they are fixed.
    expect(screen.queryAllByTestId("elicitation-field-error")).toEqual([]);
    await userEvent.click(field("fish").querySelectorAll("input")[1]!);
    await userEvent.click(screen.getByTestId("elicitation-accept"));
    expect(onAnswer).toHaveBeenCalledWith({
      id: "r1", action: "accept",
      content: { name: "Ada", age: 42, ratio: 3.14, agree: false, color: "red", hero: "h2", fish: ["f1", "f2"] },
    });
  });

  it("decline and cancel answer without the form", async () => {
    const { onAnswer } = renderPrompt();
    await userEvent.click(screen.getByTestId("elicitation-decline"));
    await userEvent.click(screen.getByTestId("elicitation-cancel"));
    expect(onAnswer.mock.calls.map((c) => c[0])).toEqual([{ id: "r1", action: "decline" }, { id: "r1", action: "cancel" }]);
  });

  it("URL mode shows the URL and why; Open opens a new tab and accepts", async () => {
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    const { onAnswer } = renderPrompt(view({ mode: "url", requestedSchema: null, url: "https://auth.example.com/start?x=1", elicitationId: "e1", message: "Sign in to continue" }));
    expect(screen.getByTestId("elicitation-url").textContent).toBe("https://auth.example.com/start?x=1");
    expect(screen.getByTestId("elicitation-card").textContent).toContain("auth.example.com");
    expect(screen.queryByTestId("elicitation-form")).toBeNull();
    await userEvent.click(screen.getByTestId("elicitation-open"));
    expect(open).toHaveBeenCalledWith("https://auth.example.com/start?x=1", "_blank", "noopener,noreferrer");
    expect(onAnswer).toHaveBeenCalledWith({ id: "r1", action: "accept", content: {} });
  });
});

describe("tool progress bar (MCP-12)", () => {
  it("is determinate with a total: value, max and percent", () => {
    render(<ToolProgressBar progress={{ progress: 2, total: 5, message: null }} />);
    const bar = screen.getByRole("progressbar");
    expect(bar.getAttribute("aria-valuenow")).toBe("2");
    expect(bar.getAttribute("aria-valuemax")).toBe("5");
    expect(bar.dataset.value).toBe("0.4");
    expect(screen.getByTestId("tool-progress-label").textContent).toBe("2 of 5 · 40%");
    expect(screen.getByTestId("tool-progress").dataset.mode).toBe("determinate");
  });

  it("is indeterminate without a total, with the server's message", () => {
    render(<ToolProgressBar progress={{ progress: 7, total: null, message: "Indexing files" }} />);
    const bar = screen.getByRole("progressbar");
    expect(bar.getAttribute("aria-valuenow")).toBeNull();
    expect(screen.getByTestId("tool-progress").dataset.mode).toBe("indeterminate");
    expect(screen.getByTestId("tool-progress-message").textContent).toBe("Indexing files");
    expect(screen.getByTestId("tool-progress-label").textContent).toBe("7 so far");
  });
});

describe("server logs (MCP-12)", () => {
  const entry = (seq: number) => ({ seq, time: "2026-01-01T10:20:30.456Z", level: "info" as const, logger: "core", text: `m${seq}` });
  it("merges pushed entries once, in order, bounded", () => {
    expect(withEntry([entry(1), entry(2)], entry(2)).map((e) => e.seq)).toEqual([1, 2]);
    expect(withEntry([entry(1), entry(3)], entry(2)).map((e) => e.seq)).toEqual([1, 2, 3]);
    const many = Array.from({ length: 500 }, (_, i) => entry(i + 1));
    const next = withEntry(many, entry(501));
    expect(next).toHaveLength(500);
    expect(next[0]!.seq).toBe(2);
    expect(logLine(entry(1))).toBe("10:20:30.456 INFO     [core] m1");
  });
});
