"use client";
import type { McpElicitationView, ToolApprovalView, ToolCallItem, ToolProgress } from "@seam/shared";
import { memo, useState } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { ExpandButton } from "@/components/ui/expand-button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { cn } from "@/lib/utils";
import { ToolApprovalCard } from "../approvals/tool-approval-card";
import { useLingering } from "../approvals/use-lingering";
import { BashLive, BashResultView, bashViewOf, type BashView } from "../coding/bash-result";
import { EditResultView, editViewOf, type EditView } from "../coding/edit-result";
import { DiffCounts } from "../diff/patch-diff";
import { ExtensionDefineResult, ExtensionRefusal, extensionRefusalOf, extensionSummary } from "./extension-result";
import { LspResult, lspViewOf } from "./lsp-result";
import { hasRichBlocks, McpResultBlocks } from "./mcp-result";
import { ToolStatusChip } from "./tool-status-chip";
import { toolSearchSummary, toolSearchViewOf, ToolSearchResultView } from "./tool-search-result";
import { prettyJson, summarizeArgs, TOOL_ICONS, toolKind } from "./tool-summary";
import { WebResult, webViewOf } from "./web-result";
import { ToolProgressBar } from "./tool-progress";
import { ElicitationCard } from "../elicitation/elicitation-card";

const NO_REQUESTS: ToolApprovalView[] = [];
/** How long an answered request's card stays mounted, to report a late answer from this tab. */
const LINGER_MS = 5_000;

/**
 * A tool call where it happened: one collapsed line, details one click away. A call held up for approval
 * shows the approval card under its line; a running command shows its live output there.
 */
export const ToolCard = memo(function ToolCard({ call, approval, output, progress, elicitation }: {
  call: ToolCallItem;
  approval?: ToolApprovalView;
  output?: string;
  /** The call's latest progress report while it runs (MCP-12). */
  progress?: ToolProgress;
  /** A server's pending request for input during this call (MCP-12). */
  elicitation?: McpElicitationView;
}) {
  const [open, setOpen] = useState(false);
  const Icon = TOOL_ICONS[toolKind(call.name)];
  const bash = bashViewOf(call);
  const edit = bash ? null : editViewOf(call);
  const searched = bash || edit ? null : toolSearchViewOf(call);
  const summary = bash ? bash.command : edit ? edit.path : searched ? toolSearchSummary(searched) : (extensionSummary(call) ?? summarizeArgs(call.args));
  const waiting = Boolean(approval) && call.status === "running";
  // A server's request for input holds the call up like an approval does (MCP-12).
  const asking = Boolean(elicitation) && call.status === "running";
  const cards = useLingering(waiting && approval ? [approval] : NO_REQUESTS, LINGER_MS);
  return (
    <div
      data-testid="tool-card"
      data-tool-name={call.name}
      data-status={call.status}
      data-call-id={call.callId}
      data-waiting={waiting || asking || undefined}
      className={cn(
        "overflow-hidden rounded-lg border bg-card transition-shadow",
        open && "shadow-sm",
        call.status === "error" && "border-destructive/30",
        (waiting || asking) && "border-warning/50",
      )}
    >
      <ExpandButton
        data-testid="tool-card-toggle"
        open={open}
        onClick={() => setOpen((o) => !o)}
        className="w-full gap-2 rounded-none px-2.5 py-1.5 hover:bg-muted/60 hover:text-inherit"
      >
        <Icon className="size-3.5 shrink-0 text-muted-foreground" />
        <span className="shrink-0 font-mono text-[12.5px] font-medium">{call.name}</span>
        <span data-testid="tool-card-summary" className="min-w-0 flex-1 truncate font-mono text-[12px] text-muted-foreground">
          {summary}
        </span>
        {edit && edit.added !== null && edit.removed !== null && <DiffCounts added={edit.added} removed={edit.removed} className="shrink-0 text-[11.5px]" />}
        <ToolStatusChip call={call} waiting={waiting || asking} waitingFor={waiting ? "approval" : "input"} />
      </ExpandButton>
      {cards.map(({ item, stale }) => (
        <div key={item.id} className="border-t bg-warning-soft/30 p-2 empty:hidden">
          <ToolApprovalCard request={item} stale={stale} />
        </div>
      ))}
      {!waiting && bash && call.status === "running" && <BashLive view={bash} output={output ?? ""} />}
      {call.status === "running" && progress && <ToolProgressBar progress={progress} />}
      {call.status === "running" && elicitation && (
        <div className="border-t bg-warning-soft/30 p-2">
          <ElicitationCard key={elicitation.id} view={elicitation} />
        </div>
      )}
      {open && <ToolCardDetails call={call} bash={bash} edit={edit} />}
    </div>
  );
});

function ToolCardDetails({ call, bash, edit }: { call: ToolCallItem; bash: BashView | null; edit: EditView | null }) {
  const args = prettyJson(call.args);
  const result = call.rendered ?? (call.error ? `${call.error.code}: ${call.error.message}` : call.status === "running" ? "" : "(no result)");
  // The full JSON result as the capability produced it; before there is one, the call's own record.
  const canonical = prettyJson(call.canonical ?? { status: call.status, error: call.error, args: call.args });
  const web = webViewOf(call);
  const lsp = web ? null : lspViewOf(call);
  const search = toolSearchViewOf(call);
  const extDefine = call.name === "extension_define";
  const extRefusal = extDefine ? null : extensionRefusalOf(call);
  // A finished command or edit opens on what it did; everything else on its arguments.
  const shellDone = bash?.result && call.status !== "running" ? bash : null;
  const editDone = edit?.diff !== null && edit?.diff !== undefined && call.status !== "running" ? edit : null;
  const modelText = <Pane testId="tool-card-result" text={result} tone={call.status === "error" ? "error" : undefined} />;
  return (
    <Tabs defaultValue={shellDone || editDone ? "result" : "args"} className="border-t bg-code px-2.5 pb-2.5 pt-2">
      <div className="flex items-center justify-between gap-2">
        <TabsList>
          <TabsTrigger value="args">Arguments</TabsTrigger>
          <TabsTrigger value="result">Result</TabsTrigger>
          <TabsTrigger value="canonical" data-testid="tool-card-canonical-tab">
            Canonical
          </TabsTrigger>
        </TabsList>
        <span className="font-mono text-[11px] text-muted-foreground" title="Call id">
          {call.callId}
        </span>
      </div>
      <TabsContent value="args" forceMount className="mt-2">
        <Pane testId="tool-card-args" text={args || "{}"} />
      </TabsContent>
      <TabsContent value="result" forceMount className="mt-2">
        {call.status === "running" ? (
          <p data-testid="tool-card-result" className="px-1 py-2 text-xs text-muted-foreground">
            Still running…
          </p>
        ) : shellDone ? (
          <BashResultView view={shellDone} modelText={modelText} />
        ) : editDone ? (
          <EditResultView view={editDone} modelText={modelText} />
        ) : extDefine ? (
          <ExtensionDefineResult call={call} modelText={<Pane testId="tool-card-result" text={result} tone={call.status === "error" ? "error" : undefined} />} />
        ) : extRefusal ? (
          <>
            <ExtensionRefusal {...extRefusal} />
            <Pane testId="tool-card-result" text={result} tone="error" />
          </>
        ) : lsp ? (
          <LspResult view={lsp} modelText={<Pane testId="tool-card-result" text={result} tone={call.status === "error" ? "error" : undefined} />} />
        ) : search ? (
          <ToolSearchResultView result={search} modelText={modelText} />
        ) : web ? (
          <WebResult view={web} rendered={call.rendered} modelText={<Pane testId="tool-card-result" text={result} tone={call.status === "error" ? "error" : undefined} />} />
        ) : (
          <Pane testId="tool-card-result" text={result} tone={call.status === "error" ? "error" : undefined} />
        )}
        {hasRichBlocks(call.canonical) && <div className="mt-2"><McpResultBlocks canonical={call.canonical} /></div>}
      </TabsContent>
      <TabsContent value="canonical" forceMount className="mt-2">
        <Pane testId="tool-card-canonical" text={canonical} />
      </TabsContent>
    </Tabs>
  );
}

function Pane({ testId, text, tone }: { testId: string; text: string; tone?: "error" }) {
  return (
    <div className="group/pane relative">
      <pre
        data-testid={testId}
        className={cn(
          "scroll-thin max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md border bg-background p-2.5 font-mono text-[12px] leading-[1.55]",
          tone === "error" && "text-destructive",
        )}
      >
        {text}
      </pre>
      <div className="absolute right-1.5 top-1.5 opacity-0 transition-opacity group-hover/pane:opacity-100 focus-within:opacity-100">
        <CopyButton text={text} className="bg-background" />
      </div>
    </div>
  );
}
