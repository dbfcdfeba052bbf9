// @vitest-environment happy-dom
import type { FactItem, McpPromptCommand, McpReadResult, McpServerView } from "@seam/shared";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AttachmentChips } from "@/app/_components/chat/attachment-chips";
import { mcpFactRow } from "@/app/_components/chat/mcp-facts";
import { slashEntries } from "@/app/_components/chat/slash-menu";
import { addPendingAttachment, readPendingAttachments, writePendingAttachments } from "@/app/_components/mcp/pending-attachments";
import { promptCommandLine } from "@/app/_components/mcp/prompt-fields";
import { ResourcePreview } from "@/app/_components/mcp/resource-preview";
import { SchemaFields } from "@/app/_components/mcp/schema-fields";
import { argsFrom, fieldsOf, initialValues } from "@/app/_components/mcp/schema-form";
import { unavailableReason } from "@/app/_components/mcp/server-resources";

afterEach(cleanup);

const schema = {
  type: "object",
  properties: {
    message: { type: "string", description: "What to echo" },
    count: { type: "integer", default: 2 },
    ratio: { type: "number" },
    loud: { type: "boolean" },
    mode: { enum: ["a", "b"] },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["message", "mode"],
};

describe("try-a-tool form from a JSON schema (MCP-9)", () => {
  it("makes one field per property with its kind, requirement and default", () => {
    const fields = fieldsOf(schema);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["message", "string", true], ["count", "integer", false], ["ratio", "number", false], ["loud", "boolean", false], ["mode", "enum", true], ["tags", "json", false],
    ]);
    expect(initialValues(fields)).toMatchObject({ count: "2", loud: "false", message: "" });
    expect(fieldsOf({ type: "object" })).toEqual([]);
  });

  it("turns typed values into arguments, leaving empty optional ones out", () => {
    const fields = fieldsOf(schema);
    const r = argsFrom(fields, { message: "hi", count: "3", ratio: "", loud: "true", mode: '"b"', tags: '["x"]' });
    expect(r).toEqual({ ok: true, args: { message: "hi", count: 3, loud: true, mode: "b", tags: ["x"] } });
  });

  it("reports each problem on its field, in words", () => {
    const r = argsFrom(fieldsOf(schema), { message: "", count: "2.5", ratio: "abc", loud: "false", mode: "", tags: "[x" });
    expect(r).toEqual({
      ok: false,
      errors: { message: "Required", count: "Enter a whole number", ratio: "Enter a number", mode: "Required", tags: expect.stringContaining("valid JSON") },
    });
  });

  it("shows errors inline next to their fields and marks required ones", () => {
    const fields = fieldsOf(schema);
    function Harness() {
      const [values, setValues] = useState(initialValues(fields));
      const [errors, setErrors] = useState<Record<string, string>>({});
      return (
        <form onSubmit={(e) => { e.preventDefault(); const r = argsFrom(fields, values); setErrors(r.ok ? {} : r.errors); }}>
          <SchemaFields idPrefix="t" fields={fields} values={values} errors={errors} onChange={(k, v) => setValues((o) => ({ ...o, [k]: v }))} />
          <button type="submit">Run</button>
        </form>
      );
    }
    render(<Harness />);
    expect(screen.getByText("message *")).toBeTruthy();
    fireEvent.click(screen.getByText("Run"));
    const errors = screen.getAllByTestId("mcp-field-error");
    expect(errors.map((e) => e.getAttribute("data-field"))).toEqual(["message", "mode"]);
    fireEvent.change(screen.getByLabelText(/^message/), { target: { value: "hello" } });
    fireEvent.change(document.querySelector("select[data-field=mode]")!, { target: { value: '"a"' } });
    fireEvent.click(screen.getByText("Run"));
    expect(screen.queryAllByTestId("mcp-field-error")).toHaveLength(0);
  });
});

const promptCommand: McpPromptCommand = {
  command: "mcp__everything__args-prompt",
  server: "everything",
  prompt: { name: "args-prompt", title: "Arguments Prompt", description: null, arguments: [{ name: "city", description: "Name of the city", required: true }, { name: "state", description: null, required: false }] },
};

describe("prompts as slash commands (MCP-9)", () => {
  it("lists ready servers' prompts under their command with the arguments they take", () => {
    const entries = slashEntries("/mcp__every", [], [], [promptCommand])!;
    expect(entries.map((e) => [e.kind, e.label])).toEqual([["prompt", "/mcp__everything__args-prompt"]]);
    expect(entries[0]!.description).toBe("Arguments Prompt (city* state)");
    expect(slashEntries("/call x", [], [], [promptCommand])!.filter((e) => e.kind === "prompt")).toEqual([]);
  });

  it("builds the command line from the form, quoting values with spaces; a missing required argument is an error", () => {
    expect(promptCommandLine("everything", promptCommand.prompt, { city: "San Francisco", state: "" })).toEqual({ ok: true, text: '/mcp__everything__args-prompt city="San Francisco"' });
    expect(promptCommandLine("everything", promptCommand.prompt, {})).toEqual({ ok: false, errors: { city: "Required" } });
  });
});

describe("attachments (MCP-9)", () => {
  it("chips list the attached resources and × removes one", () => {
    const onRemove = vi.fn();
    const a = { server: "everything", uri: "demo://x" };
    render(<AttachmentChips attachments={[a]} onRemove={onRemove} />);
    expect(screen.getByTestId("composer-attachment").textContent).toContain("demo://x");
    fireEvent.click(screen.getByLabelText("Remove demo://x"));
    expect(onRemove).toHaveBeenCalledWith(a);
  });

  it("pending attachments for a session are kept once each until cleared", () => {
    addPendingAttachment("s1", { server: "e", uri: "u1" });
    addPendingAttachment("s1", { server: "e", uri: "u1" });
    addPendingAttachment("s1", { server: "e", uri: "u2" });
    expect(readPendingAttachments("s1").map((a) => a.uri)).toEqual(["u1", "u2"]);
    expect(readPendingAttachments("s2")).toEqual([]);
    writePendingAttachments("s1", []);
    expect(readPendingAttachments("s1")).toEqual([]);
  });

  it("the timeline shows an attached-resources fact with its URIs", () => {
    const fact: FactItem = {
      kind: "fact", id: "f", seq: 2, turnId: "t", createdAt: "2026-01-01T00:00:00Z", factKind: "mcp_resources", text: "<mcp_resources>…</mcp_resources>",
      payload: { attachments: [{ server: "everything", uri: "demo://a.md", mimeType: "text/markdown", size: 2048, truncated: false, kind: "text" }] },
    } as FactItem;
    render(<>{mcpFactRow(fact)}</>);
    expect(screen.getByText("Attached MCP resource")).toBeTruthy();
    expect(screen.getByText(/demo:\/\/a\.md/)).toBeTruthy();
  });
});

describe("resource preview and tab states (MCP-9)", () => {
  it("shows text in monospace, images as images and other blobs as size + download", () => {
    const result: McpReadResult = {
      server: "s", uri: "x://a",
      contents: [
        { uri: "x://a", mimeType: "text/plain", kind: "text", text: "hello", blob: null, size: 5, truncated: false },
        { uri: "x://b", mimeType: "image/png", kind: "blob", text: null, blob: "iVBORw0KGgo=", size: 8, truncated: false },
        { uri: "x://c.bin", mimeType: "application/octet-stream", kind: "blob", text: null, blob: "AAAA", size: 3, truncated: false },
        { uri: "x://d.bin", mimeType: "application/octet-stream", kind: "blob", text: null, blob: null, size: 9_000_000, truncated: true },
      ],
    };
    render(<ResourcePreview result={result} />);
    expect(screen.getByTestId("mcp-resource-text").textContent).toBe("hello");
    expect(screen.getByTestId("mcp-resource-image").getAttribute("src")).toBe("data:image/png;base64,iVBORw0KGgo=");
    const blobs = screen.getAllByTestId("mcp-resource-blob");
    expect(blobs[0]!.querySelector("a")!.getAttribute("download")).toBe("c.bin");
    expect(blobs[1]!.textContent).toContain("too large");
  });

  it("says in words why resources or prompts cannot be shown", () => {
    const base = { status: { state: "ready" }, features: { resources: true, prompts: false, revision: 0 } } as unknown as McpServerView;
    expect(unavailableReason(base, "resources")).toBeNull();
    expect(unavailableReason(base, "prompts")).toContain("does not offer prompts");
    expect(unavailableReason({ ...base, status: { state: "failed", error: "x" }, features: undefined } as McpServerView, "resources")).toContain("not ready (failed)");
  });
});
