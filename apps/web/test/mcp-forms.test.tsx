// @vitest-environment happy-dom
import { McpServerConfig, type McpProbeFailure, type McpProbeStatus } from "@seam/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { entryIssueLines, fileSizeError, importErrorText, pasteSizeError } from "@/app/_components/mcp/import-errors";
import { ProbeFailure } from "@/app/_components/mcp/probe-outcome";
import { failureOf, forcedText, savedText, tryingText } from "@/app/_components/mcp/save-state";
import { ServerFormSheet } from "@/app/_components/mcp/server-form";

const mutations = vi.hoisted(() => ({ add: vi.fn(), update: vi.fn(), status: vi.fn() }));
vi.mock("@/trpc/react", () => ({
  useTRPCClient: () => ({ mcp: { add: { mutate: mutations.add }, update: { mutate: mutations.update } } }),
  useTRPC: () => ({
    mcp: { probeStatus: { queryOptions: (input: { probeId: string }) => ({ queryKey: ["mcp.probeStatus", input], queryFn: () => mutations.status(input) }) } },
  }),
}));
vi.mock("@/app/_components/mcp/use-mcp", () => ({ useInvalidateMcp: () => () => {} }));

afterEach(() => {
  cleanup();
  for (const m of Object.values(mutations)) m.mockReset();
});

const missing: McpProbeFailure = {
  step: "starting", reason: "command_not_found", message: "The command 'foo' was not found (ENOENT). Check the path, or install it.", stderrTail: "",
};
const exited: McpProbeFailure = { step: "initializing", reason: "exited", message: "The server exited with code 3 while initializing.", stderrTail: "boom: bad flag\n" };
/** The envelope the host sends when the try fails (apps/host/test/trpc/bounds.test.ts). */
const probeError = (probe: McpProbeFailure) => TRPCClientError.from({
  error: { message: probe.message, code: -32603, data: { code: "SERVICE_UNAVAILABLE", httpStatus: 503, path: "mcp.add", hostCode: probe.reason, ref: null, issues: null, mcpProbe: probe } },
});
const config = McpServerConfig.parse({ name: "everything", transport: { type: "stdio", command: "npx" } });

describe("the save's words (MCP-10)", () => {
  it("progress names the step", () => {
    expect(tryingText(null)).toBe("Trying the server… Starting…");
    expect(tryingText({ state: "running", step: "initializing" })).toBe("Trying the server… Initializing…");
    expect(tryingText({ state: "running", step: "listing_tools" })).toBe("Trying the server… Listing tools…");
  });

  it("a failed try: the host's sentence, the step, the stderr; other errors are not tries", () => {
    expect(failureOf(probeError(exited))).toEqual({
      title: "The server did not start, so nothing was saved.", message: exited.message, step: "Failed while initializing.", stderrTail: "boom: bad flag",
    });
    expect(failureOf(TRPCClientError.from({ error: { message: "conflict", code: -32603, data: { hostCode: "conflict:mcp" } } }))).toBeNull();
    expect(failureOf(new Error("network"))).toBeNull();
    expect(failureOf(probeError(exited), true)?.title).toBe("The server did not start with these settings; the previous settings stay.");
  });

  it("the confirmation names the tool count, or what happens next", () => {
    expect(savedText({ config, probe: { serverInfo: { name: "mcp-servers/everything", version: "2.0.0" }, protocolVersion: "2025-11-25", toolCount: 12 } }, "Added"))
      .toBe('Added "everything" (mcp-servers/everything 2.0.0): 12 tools available.');
    expect(savedText({ config, probe: { serverInfo: null, protocolVersion: null, toolCount: 1 } }, "Saved")).toBe('Saved "everything": 1 tool available.');
    expect(savedText({ config, probe: null }, "Saved")).toBe('Saved "everything". Seam is starting it; its state is shown in the list.');
    expect(savedText({ config: { ...config, enabled: false }, probe: null }, "Added")).toMatch(/disabled/);
    expect(forcedText("x")).toMatch(/^Saved "x" without a successful try/);
  });

  it("the failure box: message, stderr behind a disclosure, and Save anyway", () => {
    const onSaveAnyway = vi.fn();
    render(<ProbeFailure failure={failureOf(probeError(exited))!} onSaveAnyway={onSaveAnyway} />);
    expect(screen.getByTestId("mcp-probe-message").textContent).toBe(exited.message);
    const details = screen.getByTestId<HTMLDetailsElement>("mcp-probe-stderr");
    expect(details.open).toBe(false);
    expect(details.textContent).toContain("boom: bad flag");
    fireEvent.click(screen.getByTestId("mcp-save-anyway"));
    expect(onSaveAnyway).toHaveBeenCalledTimes(1);
  });

  it("no stderr: no disclosure", () => {
    render(<ProbeFailure failure={failureOf(probeError(missing))!} onSaveAnyway={() => {}} />);
    expect(screen.queryByTestId("mcp-probe-stderr")).toBeNull();
  });
});

describe("the add form: try, fail inline, save anyway (MCP-10)", () => {
  const renderForm = () => {
    const client = new QueryClient({ defaultOptions: { mutations: { retry: false }, queries: { retry: false } } });
    const onOpenChange = vi.fn();
    const onSaved = vi.fn();
    render(
      <QueryClientProvider client={client}>
        <ServerFormSheet open onOpenChange={onOpenChange} editing={null} taken={[]} onSaved={onSaved} />
      </QueryClientProvider>,
    );
    return { onOpenChange, onSaved };
  };
  const fill = async () => {
    const user = userEvent.setup();
    await user.type(screen.getByTestId("mcp-name"), "everything");
    await user.type(screen.getByTestId("mcp-command"), "foo");
    return user;
  };

  it("shows the step while trying, then the failure inline with the sheet open; Save anyway sends force and closes", async () => {
    let fail!: (e: unknown) => void;
    mutations.add.mockImplementationOnce(() => new Promise((_, reject) => { fail = reject; }));
    mutations.status.mockImplementation(async ({ probeId }: { probeId: string }): Promise<McpProbeStatus> => ({
      id: probeId, server: "everything", state: "running", step: "initializing", seen: null, failure: null,
    }));
    const { onOpenChange, onSaved } = renderForm();
    const user = await fill();
    await user.click(screen.getByTestId("mcp-save"));
    await waitFor(() => expect(screen.getByTestId("mcp-save-progress").textContent).toBe("Trying the server… Initializing…"));
    const sent = mutations.add.mock.calls[0]![0] as { name: string; force: boolean; probeId: string };
    expect(sent).toMatchObject({ name: "everything", force: false, probeId: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/) });
    expect(mutations.status).toHaveBeenCalledWith({ probeId: sent.probeId });

    fail(probeError(missing));
    await waitFor(() => expect(screen.getByTestId("mcp-probe-error")).toBeTruthy());
    expect(screen.getByTestId("mcp-probe-message").textContent).toBe(missing.message);
    expect(screen.queryByTestId("mcp-form-error")).toBeNull();
    expect(onOpenChange).not.toHaveBeenCalled();

    mutations.add.mockImplementationOnce(async (input: McpServerConfig) => ({ ...input, config: { ...config, transport: { type: "stdio", command: "foo", args: [], env: {} } }, probe: null }));
    await user.click(screen.getByTestId("mcp-save-anyway"));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(mutations.add.mock.calls[1]![0]).toMatchObject({ name: "everything", force: true });
    expect(onSaved).toHaveBeenCalledWith(expect.stringMatching(/^Saved "everything" without a successful try/));
  });

  it("a successful try closes the sheet with a confirmation naming the tool count", async () => {
    mutations.add.mockImplementationOnce(async () => ({ config, probe: { serverInfo: null, protocolVersion: "2025-11-25", toolCount: 7 } }));
    mutations.status.mockRejectedValue(new Error("not yet"));
    const { onOpenChange, onSaved } = renderForm();
    const user = await fill();
    await user.click(screen.getByTestId("mcp-save"));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(onSaved).toHaveBeenCalledWith('Added "everything": 7 tools available.');
  });

  it("editing the form after a failure clears it (the next save tries again)", async () => {
    mutations.add.mockRejectedValueOnce(probeError(missing));
    mutations.status.mockRejectedValue(new Error("not yet"));
    renderForm();
    const user = await fill();
    await user.click(screen.getByTestId("mcp-save"));
    await waitFor(() => expect(screen.getByTestId("mcp-probe-error")).toBeTruthy());
    await user.type(screen.getByTestId("mcp-command"), "x");
    expect(screen.queryByTestId("mcp-probe-error")).toBeNull();
  });
});

describe("the edit form: tried only when how Seam reaches the server changed (MCP-10)", () => {
  const renderEdit = () => {
    const client = new QueryClient({ defaultOptions: { mutations: { retry: false }, queries: { retry: false } } });
    const onSaved = vi.fn();
    render(
      <QueryClientProvider client={client}>
        <ServerFormSheet open onOpenChange={() => {}} editing={config} taken={["everything"]} onSaved={onSaved} />
      </QueryClientProvider>,
    );
    return { onSaved };
  };

  it("a changed command shows the try; a failure says the previous settings stay", async () => {
    let fail!: (e: unknown) => void;
    mutations.update.mockImplementationOnce(() => new Promise((_, reject) => { fail = reject; }));
    mutations.status.mockRejectedValue(new Error("not yet"));
    renderEdit();
    const user = userEvent.setup();
    await user.clear(screen.getByTestId("mcp-command"));
    await user.type(screen.getByTestId("mcp-command"), "foo");
    await user.click(screen.getByTestId("mcp-save"));
    await waitFor(() => expect(screen.getByTestId("mcp-save-progress").textContent).toBe("Trying the server… Starting…"));
    expect(mutations.update.mock.calls[0]![0]).toMatchObject({ name: "everything", config: { transport: { command: "foo" } }, force: false });
    fail(probeError(missing));
    await waitFor(() => expect(screen.getByTestId("mcp-probe-error").textContent).toContain("the previous settings stay"));
  });

  it("a timeout-only edit is saved without a try: the progress says Saving…", async () => {
    let done!: (v: unknown) => void;
    mutations.update.mockImplementationOnce(() => new Promise((resolve) => { done = resolve; }));
    const { onSaved } = renderEdit();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("mcp-advanced"));
    await user.clear(screen.getByTestId("mcp-call-timeout"));
    await user.type(screen.getByTestId("mcp-call-timeout"), "60");
    await user.click(screen.getByTestId("mcp-save"));
    await waitFor(() => expect(screen.getByTestId("mcp-save-progress").textContent).toBe("Saving…"));
    expect(mutations.status).not.toHaveBeenCalled();
    done({ config: { ...config, callTimeoutMs: 60_000 }, probe: null });
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('Saved "everything". Seam is starting it; its state is shown in the list.'));
  });
});

describe("import errors in words (MCP-10)", () => {
  it("a 1 MB paste: its size and the limit, before anything is sent", () => {
    const mb = `{"mcpServers": {"a": {"command": "x", "args": ["${"y".repeat(1024 * 1024)}"]}}}`;
    expect(pasteSizeError(mb)).toBe("The pasted config is 1.0 MB; Seam imports at most 256 KB at a time. Paste only the mcpServers block, or import the servers in parts.");
    expect(pasteSizeError('{"mcpServers": {}}')).toBeNull();
    // Bytes, not characters: 100,000 euro signs are 293 KB.
    expect(pasteSizeError("€".repeat(100_000))).toMatch(/^The pasted config is 293 KB;/);
    expect(fileSizeError({ name: "claude.json", size: 3 * 1024 * 1024 })).toBe("claude.json is 3 MB; Seam imports at most 256 KB at a time.");
    expect(fileSizeError({ name: "ok.json", size: 1000 })).toBeNull();
  });

  it("broken JSON: the host's sentence with line and column passes as it is", () => {
    const e = TRPCClientError.from({ error: { message: "Not valid JSON: Expected ',' or '}' at line 3, column 5.", code: -32600, data: { hostCode: "bad_input:mcp", line: 3, column: 5 } } });
    expect(importErrorText(e)).toBe("Not valid JSON: Expected ',' or '}' at line 3, column 5.");
  });

  it("never raw validation JSON: a message that is JSON becomes the issues in words", () => {
    const raw = JSON.stringify([{ code: "too_big", path: ["json"], message: "Too big" }], null, 2);
    const e = TRPCClientError.from({ error: { message: raw, code: -32600, data: { issues: [{ path: "json", message: "Too big: expected string to have <=1000000 characters" }] } } });
    expect(importErrorText(e)).toBe("The config was refused: json: Too big: expected string to have <=1000000 characters.");
    expect(importErrorText(TRPCClientError.from({ error: { message: "{}", code: -32600, data: {} } }))).toMatch(/^The config was refused\./);
  });

  it("wrong shape: one line per issue from the document's root, at most five, then and K more", () => {
    const errors = [
      { path: "command", message: "expected a string" },
      ...Array.from({ length: 6 }, (_, i) => ({ path: `args.${i}`, message: "must be a string" })),
      { path: "", message: "… 4 more" },
    ];
    expect(entryIssueLines({ name: "foo", errors }, "mcpServers")).toEqual([
      "mcpServers.foo.command: expected a string",
      "mcpServers.foo.args.0: must be a string",
      "mcpServers.foo.args.1: must be a string",
      "mcpServers.foo.args.2: must be a string",
      "mcpServers.foo.args.3: must be a string",
      "and 6 more",
    ]);
    expect(entryIssueLines({ name: "bar", errors: [{ path: "", message: "Expected an object" }] }, "bare")).toEqual(["bar: Expected an object"]);
    expect(entryIssueLines({ name: "vs", errors: [{ path: "url", message: "Enter an http(s) URL" }] }, "servers")).toEqual(["servers.vs.url: Enter an http(s) URL"]);
  });
});
