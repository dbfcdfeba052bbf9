import type { CapabilityRow, LspServerView, McpServerState, McpServerView, ModelStatus, WebHealth, WebKindHealth } from "@seam/shared";
import type { ToolDef } from "./agent/tool.js";

/** One row per capability: code present / configured / visible to the agent / ready now, with the reason. */
export function capabilityRows(tools: ToolDef[], model: ModelStatus, mcpServers: McpServerView[] = [], web?: WebHealth, lspServers?: LspServerView[]): CapabilityRow[] {
  const byCapability = (id: string) => tools.filter((t) => t.capability === id).map((t) => t.name);
  const workspace = byCapability("workspace");
  const modelReady = model.mode === "model" && model.problem === null;
  return [
    {
      id: "model",
      title: "Model",
      codePresent: true,
      configured: model.mode === "model",
      visible: true,
      ready: modelReady,
      note: model.mode === "direct"
        ? "No model is configured: Seam runs in direct mode (/call <tool> {json}). Configure one in Settings."
        : model.problem ?? `${model.settings.provider} · ${model.settings.model ?? ""}`,
      tools: [],
    },
    {
      id: "workspace",
      title: "Workspace files (read_file, list_dir, grep)",
      codePresent: true,
      configured: true,
      visible: workspace.length > 0,
      ready: workspace.length > 0,
      note: workspace.length > 0 ? "Read-only, contained in each session's workspace." : "Workspace tools are not registered.",
      tools: workspace,
    },
    ...(web ? [webRow(byCapability("web"), web)] : []),
    ...(lspServers ? [lspRow(byCapability("lsp"), lspServers)] : []),
    mcpRow(byCapability("mcp"), mcpServers),
    skillsRow(byCapability("skills")),
    extensionsRow(byCapability("extensions")),
  ];
}

/** LSP: configured = any server saved, visible = the lsp tool registered, ready = every enabled server active (LSP-7). */
function lspRow(tools: string[], servers: LspServerView[]): CapabilityRow {
  const enabled = servers.filter((s) => s.config.enabled);
  const inactive = enabled.filter((s) => !s.active);
  const failing = enabled.flatMap((s) => s.processes.filter((p) => p.state === "failed").map((p) => `${s.config.id} in ${p.workspace}: ${p.lastError ?? "failed"}`));
  const routed = enabled.filter((s) => s.active).map((s) => `${s.config.id} (${s.config.extensions.join(" ")})`);
  const note = servers.length === 0
    ? "No language servers are configured. Add one in Settings → Language servers."
    : enabled.length === 0
      ? "Every configured language server is disabled."
      : [
        inactive.length > 0 ? `Inactive: ${inactive.map((s) => `${s.config.id} (${s.problem ?? "not active"})`).join("; ")}.` : "",
        routed.length > 0 ? `Routing ${routed.join(", ")}; servers start on the first query in each workspace.` : "",
        failing.length > 0 ? `Failed processes: ${failing.join("; ")}.` : "",
      ].filter(Boolean).join(" ");
  return {
    id: "lsp",
    title: "Language servers (lsp)",
    codePresent: true,
    configured: servers.length > 0,
    visible: tools.length > 0,
    ready: enabled.length > 0 && inactive.length === 0,
    note,
    tools,
  };
}

/** Why a server is not ready, in a few words. */
function mcpProblem(s: McpServerState): string {
  switch (s.state) {
    case "connecting": return s.phase === "discovering" ? "discovering tools" : "connecting";
    case "retrying": return `retrying ${s.attempt}/${s.maxAttempts} (${s.lastError})`;
    case "failed": return `failed: ${s.error}`;
    case "stopped": return "stopped: restart it on the MCP page";
    case "disabled":
    case "ready": return s.state;
  }
}

/** MCP: configured = any server saved, visible = any MCP tool registered, ready = every enabled server ready. */
function mcpRow(tools: string[], servers: McpServerView[]): CapabilityRow {
  const enabled = servers.filter((s) => s.config.enabled);
  const notReady = enabled.filter((s) => s.status.state !== "ready");
  const note = servers.length === 0
    ? "No MCP servers are configured. Add one on the MCP page."
    : enabled.length === 0
      ? "Every configured MCP server is disabled."
      : notReady.length > 0
        ? `Not ready: ${notReady.map((s) => `${s.config.name} (${mcpProblem(s.status)})`).join("; ")}.`
        : `${enabled.length} server(s) ready${servers.length > enabled.length ? `, ${servers.length - enabled.length} disabled` : ""}.`;
  return {
    id: "mcp",
    title: "MCP servers",
    codePresent: true,
    configured: servers.length > 0,
    visible: tools.length > 0,
    ready: enabled.length > 0 && notReady.length === 0,
    note,
    tools,
  };
}

/** Skills are found per session workspace (project, user, custom and bundled roots); the catalog reaches the model as a fact. */
function skillsRow(tools: string[]): CapabilityRow {
  return {
    id: "skills",
    title: "Skills (skill, /name)",
    codePresent: true,
    configured: true,
    visible: tools.length > 0,
    ready: tools.length > 0,
    note: tools.length > 0
      ? "Catalog built per session workspace from .dsh/skills and .agents/skills in the project and your home, custom roots and the bundled skills."
      : "The skill tool is not registered.",
    tools,
  };
}

/** Web: visible = a web tool registered (by enablement), ready = selection succeeds now for every enabled tool (WEB-11). */
function webRow(tools: string[], web: WebHealth): CapabilityRow {
  const kinds = [web.search, web.fetch].filter((k) => k.enabled);
  const failing = kinds.filter((k): k is WebKindHealth & { selection: { ok: false; code: string; message: string } } => !k.selection.ok);
  const configured = kinds.some((k) => k.providers.some((p) => p.available));
  const note = kinds.length === 0
    ? "Both web tools are disabled in Settings → Web."
    : failing.length > 0
      ? failing.map((k) => `${k.tool}: ${selectionProblem(k, k.selection)}`).join(" ")
      : kinds.map((k) => `${k.tool} uses ${k.selection.ok ? k.selection.id : "?"}`).join("; ") + ".";
  return { id: "web", title: "Web (web_search, web_fetch)", codePresent: true, configured, visible: tools.length > 0, ready: kinds.length > 0 && failing.length === 0, note, tools };
}

/** The selection failure in a few words; the full message is on Settings → Web. */
function selectionProblem(k: WebKindHealth, failure: { code: string; message: string }): string {
  const ids = k.providers.map((p) => p.id).join(", ");
  if (failure.code === "no_provider_available") return `no provider is available; give one of ${ids} its key and choose it in Settings → Web.`;
  if (failure.code === "ambiguous_provider") return "several providers are available; choose one in Settings → Web.";
  return failure.message;
}

/** Extensions: the five extension_* tools plus whatever running extensions registered (EXT-1). */
function extensionsRow(tools: string[]): CapabilityRow {
  const own = tools.filter((t) => t.startsWith("extension_"));
  return {
    id: "extensions",
    title: "Dynamic extensions (extension_*)",
    codePresent: true,
    configured: true,
    visible: own.length > 0,
    ready: own.length > 0,
    note: own.length > 0
      ? "The model can define extensions; each run needs your approval (see Extensions). Host halves run sandboxed in worker threads, browser halves in sandboxed frames."
      : "The extension tools are not registered.",
    tools,
  };
}
