import type { CapabilityRow, ModelStatus } from "@seam/shared";
import type { ToolDef } from "./agent/tool.js";

/** Capabilities a later release adds; listed so the overview is honest about what is missing (UI-2). */
const PLANNED: { id: string; title: string; note: string }[] = [
  { id: "web", title: "Web (web_search, web_fetch)", note: "Not built yet: the web seam arrives with issue #4." },
  { id: "lsp", title: "Language servers (lsp)", note: "Not built yet: the LSP seam arrives with issue #5." },
  { id: "mcp", title: "MCP servers", note: "Not built yet: the MCP bridge arrives with issue #3." },
  { id: "skills", title: "Skills", note: "Not built yet: the skills catalog arrives with issue #6." },
  { id: "extensions", title: "Dynamic extensions", note: "Not built yet: extensions arrive with issue #7." },
];

/** One row per capability: code present / configured / visible to the agent / ready now, with the reason. */
export function capabilityRows(tools: ToolDef[], model: ModelStatus): CapabilityRow[] {
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
    ...PLANNED.map((p) => ({ ...p, codePresent: false, configured: false, visible: false, ready: false, tools: byCapability(p.id) })),
  ];
}
