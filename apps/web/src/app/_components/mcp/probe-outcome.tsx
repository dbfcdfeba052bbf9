"use client";
import { TriangleAlertIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { FailureView } from "./save-state";

/**
 * A failed try of an MCP server (MCP-10): what failed and what to do, the step, the server's stderr
 * behind a disclosure, and "Save anyway" as an explicit second step.
 */
export function ProbeFailure({ failure, onSaveAnyway, busy, testId = "mcp-probe-error" }: {
  failure: FailureView;
  onSaveAnyway: () => void;
  busy?: boolean;
  testId?: string;
}) {
  return (
    <div data-testid={testId} role="alert" className="flex flex-col gap-2 rounded-lg border border-destructive/40 bg-destructive-soft px-3 py-2.5 text-[13px]">
      <p className="flex items-start gap-2 font-medium text-destructive">
        <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" />
        <span>{failure.title}</span>
      </p>
      <p data-testid="mcp-probe-message" className="leading-relaxed">{failure.message}</p>
      <p className="text-[12px] text-muted-foreground">{failure.step}</p>
      {failure.stderrTail && (
        <details data-testid="mcp-probe-stderr" className="rounded-md border bg-card">
          <summary className="cursor-pointer px-2 py-1 text-[12px] font-medium">Server stderr (last lines)</summary>
          <pre className="scroll-thin max-h-48 overflow-auto border-t px-2 py-1.5 font-mono text-[11.5px] leading-[1.45] whitespace-pre-wrap">{failure.stderrTail}</pre>
        </details>
      )}
      <div className="flex flex-wrap items-center gap-2 pt-1">
        <Button type="button" size="sm" variant="outline" data-testid="mcp-save-anyway" disabled={busy} onClick={onSaveAnyway}>
          Save anyway
        </Button>
        <span className="text-[12px] text-muted-foreground">Saves it as it is; Seam starts it and keeps retrying, showing its state in the list.</span>
      </div>
    </div>
  );
}
