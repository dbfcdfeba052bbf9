"use client";
import { MCP_PROMPT_FACT, MCP_RESOURCES_FACT, McpPromptFactPayload, McpResourcesFactPayload, type FactItem } from "@seam/shared";
import { MessageSquareTextIcon, PaperclipIcon } from "lucide-react";
import { formatBytes } from "@/lib/format";
import { FactShell, ModelText } from "./fact-shell";

/** MCP-9 facts: resources attached to the message above, and an MCP prompt run as the user's message; null for other facts. */
export function mcpFactRow(fact: FactItem) {
  if (fact.factKind === MCP_RESOURCES_FACT) {
    const p = McpResourcesFactPayload.safeParse(fact.payload);
    if (p.success) return <ResourcesFact fact={fact} payload={p.data} />;
  }
  if (fact.factKind === MCP_PROMPT_FACT) {
    const p = McpPromptFactPayload.safeParse(fact.payload);
    if (p.success) return <PromptFact fact={fact} payload={p.data} />;
  }
  return null;
}

function ResourcesFact({ fact, payload }: { fact: FactItem; payload: McpResourcesFactPayload }) {
  const n = payload.attachments.length;
  return (
    <FactShell fact={fact} icon={PaperclipIcon} title={n === 1 ? "Attached MCP resource" : `Attached MCP resources (${n})`} summary={payload.attachments.map((a) => a.uri).join(", ")}>
      <ul data-testid="mcp-attached-resources" className="flex flex-col gap-0.5">
        {payload.attachments.map((a) => (
          <li key={`${a.server} ${a.uri}`} data-testid="mcp-attached-resource" className="text-[12px]">
            <span className="text-muted-foreground">{a.server}</span> <span className="font-mono text-foreground/85">{a.uri}</span>{" "}
            <span className="text-muted-foreground">({[a.mimeType, formatBytes(a.size), a.truncated ? "cut" : null].filter(Boolean).join(", ")})</span>
          </li>
        ))}
      </ul>
      <ModelText text={fact.text} />
    </FactShell>
  );
}

function PromptFact({ fact, payload }: { fact: FactItem; payload: McpPromptFactPayload }) {
  const args = Object.entries(payload.arguments).map(([k, v]) => `${k}=${v}`).join(" ");
  return (
    <FactShell fact={fact} icon={MessageSquareTextIcon} title={`From the MCP prompt ${payload.server}/${payload.prompt}`} summary={args || undefined}>
      <div data-testid="mcp-prompt-fact" className="flex flex-col gap-2">
        {payload.messages.map((m, i) => (
          <div key={i} className="flex flex-col gap-0.5">
            <span className="text-[11px] font-medium uppercase tracking-wide">{m.role}</span>
            <p className="whitespace-pre-wrap break-words text-[12.5px] text-foreground/90">{m.text}</p>
          </div>
        ))}
      </div>
    </FactShell>
  );
}
