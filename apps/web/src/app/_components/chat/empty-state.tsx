"use client";
import type { ModelStatus, ToolInfo } from "@seam/shared";
import { ArrowRightIcon } from "lucide-react";
import Link from "next/link";
import { folderName } from "@/lib/utils";
import { ToolButton } from "../tools/tool-button";

export function groupByCapability(tools: ToolInfo[]): [string, ToolInfo[]][] {
  const groups = new Map<string, ToolInfo[]>();
  for (const t of tools) groups.set(t.capability, [...(groups.get(t.capability) ?? []), t]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** First screen of a session: what Seam can do here, the visible tools, how to get a model. */
export function EmptyState({
  workspace,
  tools,
  toolsLoading,
  model,
  onPickTool,
}: {
  workspace: string;
  tools: ToolInfo[];
  toolsLoading: boolean;
  model: ModelStatus | undefined;
  onPickTool: (name: string) => void;
}) {
  const groups = groupByCapability(tools);
  return (
    <div data-testid="empty-state" className="flex w-full flex-col gap-6 pb-8 pt-[6vh]">
      <div>
        <h2 className="text-xl font-semibold tracking-tight">
          Working in <span className="font-mono text-[18px]">{folderName(workspace)}</span>
        </h2>
        <p className="mt-2 text-[14.5px] leading-relaxed text-muted-foreground">
          {model?.mode === "model"
            ? "Ask the agent to explore, explain or change code in this folder. Every tool call it makes appears inline, with its arguments, result and timing."
            : "Run the tools below yourself to explore this folder. Once a model is configured, the agent can call them on its own while you watch every step."}
        </p>
      </div>

      <section>
        <h3 className="mb-2 text-[12px] font-medium uppercase tracking-wide text-muted-foreground">
          Tools the agent can see{tools.length ? ` · ${tools.length}` : ""}
        </h3>
        {toolsLoading && <p className="text-[13px] text-muted-foreground">Loading tools…</p>}
        {!toolsLoading && tools.length === 0 && (
          <p className="text-[13px] text-muted-foreground">
            No tools are visible yet. The <Link href="/capabilities" className="text-primary hover:underline">Capabilities</Link> page
            says why.
          </p>
        )}
        <div className="flex flex-col gap-4">
          {groups.map(([capability, list]) => (
            <div key={capability}>
              <div className="mb-1.5 text-[13px] font-medium">{capability}</div>
              <div className="grid gap-1.5 sm:grid-cols-2">
                {list.map((t) => (
                  <ToolButton key={t.name} tool={t} variant="card" onClick={() => onPickTool(t.name)} />
                ))}
              </div>
            </div>
          ))}
        </div>
      </section>

      {model?.mode !== "model" && (
        <section className="rounded-xl border bg-muted/50 p-4">
          <h3 className="text-[13.5px] font-medium">Configure a model</h3>
          <p className="mt-1 text-[13px] leading-relaxed text-muted-foreground">
            Seam speaks the OpenAI-compatible and Anthropic APIs — DeepSeek, OpenAI, Ollama, vLLM, llama.cpp and others.
            Pick a preset in Settings and put the API key in an environment variable (or{" "}
            <code className="font-mono text-[12px]">$SEAM_HOME/secrets.json</code>); Seam stores only the variable&apos;s name.
          </p>
          <Link href="/settings" className="mt-2 inline-flex items-center gap-1 text-[13px] font-medium text-primary hover:underline">
            Open model settings <ArrowRightIcon className="size-3.5" />
          </Link>
        </section>
      )}
    </div>
  );
}
