import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MCP_PROMPT_FACT, MCP_RESOURCES_FACT, type FactItem, type ToolCallItem } from "@seam/shared";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import type { ScriptedModel } from "../../../../packages/testkit/src/index.js";
import { startScriptedHost } from "../support/host.js";
import { everythingStdio, fixture } from "./helpers.js";

/** Resources, prompts and "try a tool" in a real host (MCP-9): server-everything 2026.8.31 over stdio, the fixture, the scripted model. */
const scripts = [{
  name: "mcp-resources",
  turns: [
    {
      match: "list the resources",
      steps: [
        { text: "Listing.", toolCalls: [{ name: "list_mcp_resources", args: { server: "everything" } }] },
        { text: "Reading.", toolCalls: [{ name: "read_mcp_resource", args: { server: "everything", uri: "demo://resource/static/document/architecture.md" } }] },
        { text: "Done." },
      ],
    },
    { match: ".*", steps: [{ text: "ok" }] },
  ],
}];

const ARCH = "demo://resource/static/document/architecture.md";

let scope: Scope;
let host: HostApi;
let model: ScriptedModel;
let ws: string;
let pager: ReturnType<typeof fixture>;
let plain: ReturnType<typeof fixture>;

beforeAll(async () => {
  ({ scope, host, model } = await startScriptedHost(scripts, "mcp-resources"));
  ws = mkdtempSync(join(tmpdir(), "seam-mcp-resources-"));
  const view = await host.mcp.add(everythingStdio());
  if (view.status.state !== "ready") throw new Error(`server-everything is ${view.status.state}`);
  pager = fixture("pager", { resources: 7, resourcePageSize: 3 });
  plain = fixture("plain");
  await host.mcp.add(pager.config);
  await host.mcp.add(plain.config);
}, 90_000);
afterAll(async () => {
  await scope?.dispose();
  pager?.cleanup();
  plain?.cleanup();
  rmSync(ws, { recursive: true, force: true });
});

interface WireMessage { role: string; content: unknown }
const textOf = (m: WireMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

async function waitTurn(sessionId: string, turnId: string) {
  return vi.waitFor(async () => {
    const detail = await host.sessions.detail(sessionId);
    const turn = detail.turns.find((t) => t.id === turnId);
    if (!turn || turn.status === "running") throw new Error("still running");
    return { turn, items: detail.items.filter((i) => i.turnId === turnId) };
  }, { timeout: 30_000, interval: 20 });
}

describe("MCP resources and prompts (MCP-9)", () => {
  it("reports what each server offers and pages through every resource, passing the cursor through", async () => {
    const everything = host.mcp.list().find((v) => v.config.name === "everything")!;
    expect(everything.features).toMatchObject({ resources: true, prompts: true });
    expect(host.mcp.list().find((v) => v.config.name === "plain")!.features).toMatchObject({ resources: false, prompts: false });

    const first = await host.mcp.resources("everything");
    expect(first.resources.map((r) => r.uri)).toContain(ARCH);
    expect(first.resources.find((r) => r.uri === ARCH)).toMatchObject({ name: "architecture.md", mimeType: "text/markdown" });

    // The fixture pages 3 at a time: one request per page, until no cursor comes back.
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await host.mcp.resources("pager", cursor);
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(uris).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `fixture://r/${i}`));
  });

  it("bumps the server's features revision on resources/list_changed, so the page refetches", async () => {
    const revision = () => host.mcp.list().find((v) => v.config.name === "pager")!.features!.revision;
    const before = revision();
    await host.mcp.tryTool("pager", "fixture", { notifyResources: true });
    await vi.waitFor(() => expect(revision()).toBe(before + 1), { timeout: 10_000, interval: 20 });
  });

  it("reads text, a blob through a template, and lists templates with their variables", async () => {
    const text = await host.mcp.readResource("everything", ARCH);
    expect(text.contents[0]).toMatchObject({ kind: "text", mimeType: "text/markdown", truncated: false });
    expect(text.contents[0]!.text).toContain("Architecture");

    const templates = await host.mcp.resourceTemplates("everything");
    const blobTemplate = templates.find((t) => t.uriTemplate === "demo://resource/dynamic/blob/{resourceId}");
    expect(blobTemplate?.variables).toEqual(["resourceId"]);

    const blob = await host.mcp.readResource("everything", "demo://resource/dynamic/blob/3");
    expect(blob.contents[0]).toMatchObject({ kind: "blob", text: null, truncated: false });
    expect(blob.contents[0]!.blob).toEqual(expect.any(String));
    expect(blob.contents[0]!.size).toBeGreaterThan(0);

    const dynamicText = await host.mcp.readResource("everything", "demo://resource/dynamic/text/2");
    expect(dynamicText.contents[0]!.kind).toBe("text");
  });

  it("lists prompts with their arguments and gets them with and without arguments", async () => {
    const prompts = await host.mcp.prompts("everything");
    const args = prompts.find((p) => p.name === "args-prompt")!;
    expect(args.arguments).toEqual([
      { name: "city", description: "Name of the city", required: true },
      { name: "state", description: null, required: false },
    ]);

    const simple = await host.mcp.getPrompt("everything", "simple-prompt", {});
    expect(simple.messages[0]).toMatchObject({ role: "user", content: { type: "text", text: expect.stringContaining("simple prompt") } });

    const withArgs = await host.mcp.getPrompt("everything", "args-prompt", { city: "Lisbon" });
    expect(JSON.stringify(withArgs.messages)).toContain("Lisbon");

    // An embedded resource comes back as a resource block (rendered as an attachment block when run as a command).
    const embedded = await host.mcp.getPrompt("everything", "resource-prompt", { resourceType: "Text", resourceId: "1" });
    expect(embedded.messages.some((m) => (m.content as { type?: string }).type === "resource")).toBe(true);
  });

  it("refuses bad input with clear errors", async () => {
    await expect(host.mcp.getPrompt("everything", "args-prompt", {})).rejects.toMatchObject({
      code: "bad_input:mcp", data: { reason: "missing_argument", missing: ["city"] }, message: expect.stringContaining('"city" (Name of the city)'),
    });
    await expect(host.mcp.getPrompt("everything", "args-prompt", { city: "x", cty: "y" })).rejects.toMatchObject({ data: { reason: "unknown_argument" } });
    await expect(host.mcp.getPrompt("everything", "nope", {})).rejects.toMatchObject({ code: "not_found:mcp", message: expect.stringContaining("simple-prompt") });
    await expect(host.mcp.resources("ghost")).rejects.toMatchObject({ code: "not_found:mcp", data: { reason: "unknown_server" } });
    await expect(host.mcp.readResource("everything", "test://static/resource/9999")).rejects.toMatchObject({
      code: "bad_input:mcp", message: expect.stringMatching(/everything.*not found/),
    });
    await expect(host.mcp.readResource("pager", "fixture://nothing")).rejects.toMatchObject({ code: "not_found:mcp", data: { reason: "resource_not_found" } });
    await expect(host.mcp.resources("plain")).rejects.toMatchObject({
      code: "unavailable:mcp", data: { reason: "no_resources" }, message: expect.stringContaining('"plain" does not offer resources'),
    });
    await expect(host.mcp.prompts("plain")).rejects.toMatchObject({ data: { reason: "no_prompts" } });

    // A server that is not connected is named with its state.
    // Saved anyway: a try first would refuse it (MCP-10).
    await host.mcp.add({ name: "broken", transport: { type: "stdio", command: "/nonexistent/mcp-server" }, failOnStartupError: false }, { force: true });
    try {
      await expect(host.mcp.resources("broken")).rejects.toMatchObject({ code: "unavailable:mcp", data: { reason: "not_connected" }, message: expect.stringContaining('"broken" is not connected') });
    } finally {
      await host.mcp.remove("broken");
    }
  });

  it("tries a tool by hand, disabled for the model or not, through the bridge's call path", async () => {
    await host.mcp.setTool({ name: "everything", tool: "get-sum", enabled: false });
    try {
      expect((await host.tools.list()).map((t) => t.name)).not.toContain("mcp__everything__get-sum");
      const r = await host.mcp.tryTool("everything", "get-sum", { a: 2, b: 40 });
      expect(r.error).toBeNull();
      expect(r.rendered).toContain("42");
      expect(r.canonical).toMatchObject({ type: "mcp", server: "everything", tool: "get-sum", isError: false });
      await expect(host.mcp.tryTool("everything", "get-sum", { a: "two" })).rejects.toMatchObject({ code: "bad_input:mcp", data: { reason: "invalid_arguments" } });
      await expect(host.mcp.tryTool("everything", "no-such-tool", {})).rejects.toMatchObject({ code: "not_found:mcp", data: { reason: "unknown_tool" } });
    } finally {
      await host.mcp.setTool({ name: "everything", tool: "get-sum", enabled: true });
    }
  });

  it("gives the model list_mcp_resources and read_mcp_resource; the request after the read holds the contents", async () => {
    const tools = (await host.tools.list()).map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["list_mcp_resources", "read_mcp_resource"]));
    const session = await host.sessions.create({ workspace: ws });
    const before = model.requests().length;
    const { turnId } = await host.sessions.send({ sessionId: session.id, text: "please list the resources" });
    const { turn, items } = await waitTurn(session.id, turnId);
    expect(turn.status).toBe("completed");
    const calls = items.filter((i): i is ToolCallItem => i.kind === "tool_call");
    expect(calls.map((c) => [c.name, c.status])).toEqual([["list_mcp_resources", "ok"], ["read_mcp_resource", "ok"]]);
    expect(calls[0]!.rendered).toContain(ARCH);
    expect(calls[0]!.rendered).toContain("demo://resource/dynamic/blob/{resourceId}");
    const requests = model.requests().slice(before);
    expect(requests).toHaveLength(3);
    const last = (requests[2]!.body as { messages: WireMessage[] }).messages;
    expect(textOf(last.at(-1)!)).toContain("Everything Server");
  });

  it("attaches a resource to a message: stored as a fact after it, in the model's request, refused cleanly when unreadable", async () => {
    const session = await host.sessions.create({ workspace: ws });
    const before = model.requests().length;
    const { turnId } = await host.sessions.send({ sessionId: session.id, text: "what does this say?", attachments: [{ server: "everything", uri: ARCH }] });
    const { items } = await waitTurn(session.id, turnId);
    const fact = items.find((i): i is FactItem => i.kind === "fact" && i.factKind === MCP_RESOURCES_FACT)!;
    expect(fact.payload).toMatchObject({ attachments: [{ server: "everything", uri: ARCH, mimeType: "text/markdown", kind: "text", truncated: false }] });
    const messages = (model.requests()[before]!.body as { messages: WireMessage[] }).messages;
    const context = messages.map(textOf).find((t) => t.includes(`<mcp_resource server="everything" uri="${ARCH}"`));
    expect(context).toContain("Everything Server");
    expect(context).toContain("</mcp_resource>");

    // Nothing stored when an attachment cannot be read.
    const count = (await host.sessions.detail(session.id)).items.length;
    await expect(host.sessions.send({ sessionId: session.id, text: "and this?", attachments: [{ server: "plain", uri: "x://y" }] }))
      .rejects.toMatchObject({ message: expect.stringContaining("could not be read, so the message was not sent") });
    expect((await host.sessions.detail(session.id)).items.length).toBe(count);

    // Retry attaches it again (read afresh).
    const before2 = model.requests().length;
    const retried = await host.sessions.retry(session.id);
    const again = await waitTurn(session.id, retried.turnId);
    expect(again.items.some((i) => i.kind === "fact" && i.factKind === MCP_RESOURCES_FACT)).toBe(true);
    expect(JSON.stringify((model.requests()[before2]!.body as { messages: WireMessage[] }).messages)).toContain("Everything Server");

    // The export shows it.
    const md = await host.sessions.exportMarkdown(session.id);
    expect(JSON.stringify(md)).toContain(ARCH);
  });

  it("runs /mcp__everything__args-prompt with arguments as the user's turn; a missing argument refuses it", async () => {
    const session = await host.sessions.create({ workspace: ws });
    const before = model.requests().length;
    const { turnId } = await host.sessions.send({ sessionId: session.id, text: '/mcp__everything__args-prompt city="San Francisco" state=CA' });
    const { items } = await waitTurn(session.id, turnId);
    const fact = items.find((i): i is FactItem => i.kind === "fact" && i.factKind === MCP_PROMPT_FACT)!;
    expect(fact.payload).toMatchObject({ server: "everything", prompt: "args-prompt", arguments: { city: "San Francisco", state: "CA" } });
    const messages = (model.requests()[before]!.body as { messages: WireMessage[] }).messages;
    const last = messages.map(textOf).find((t) => t.includes("<mcp_prompt"))!;
    expect(last).toContain('<mcp_prompt server="everything" prompt="args-prompt">');
    expect(last).toContain("San Francisco");

    const count = (await host.sessions.detail(session.id)).items.length;
    await expect(host.sessions.send({ sessionId: session.id, text: "/mcp__everything__args-prompt" })).rejects.toMatchObject({ data: { reason: "missing_argument" } });
    expect((await host.sessions.detail(session.id)).items.length).toBe(count);
  });
});
