"use client";
import type { ToolApprovalView } from "@seam/shared";
import { Fragment } from "react";
import { PatchDiff } from "../diff/patch-diff";
import { prettyJson } from "../chat/tool-summary";
import { CommandLine } from "../coding/bash-result";

/** A one-line summary with its `code` spans: "Run `npm test` in ~/app". */
export function SummaryText({ text }: { text: string }) {
  const parts = text.split("`");
  return (
    <>
      {parts.map((p, i) =>
        // Odd parts were between backticks; an unmatched trailing backtick leaves the last part plain.
        i % 2 === 1 && i < parts.length - 1 ? (
          <code key={i} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.92em]">
            {p}
          </code>
        ) : (
          <Fragment key={i}>{p}</Fragment>
        ),
      )}
    </>
  );
}

/** What the call would do, in full: the command and its folder, the diff, or the server, tool and arguments. */
export function ApprovalSubject({ request }: { request: ToolApprovalView }) {
  if (request.command) {
    return (
      <div data-testid="tool-approval-command" className="rounded-md border border-zinc-800 bg-zinc-950 px-2.5 py-2 font-mono text-[12px] leading-[1.5]">
        <CommandLine command={request.command.text} cwd={request.command.cwd} />
      </div>
    );
  }
  if (request.diff) {
    return <PatchDiff patch={request.diff.patch} path={request.diff.path} testId="tool-approval-diff" />;
  }
  const args = prettyJson(request.args ?? {});
  return (
    <div data-testid="tool-approval-args" className="overflow-hidden rounded-md border bg-code text-[12px]">
      <div className="flex flex-wrap gap-x-4 gap-y-0.5 border-b px-2.5 py-1.5 text-muted-foreground">
        {request.server && (
          <span>
            Server <span data-testid="tool-approval-server" className="font-mono text-foreground">{request.server}</span>
          </span>
        )}
        <span>
          Tool <span className="font-mono text-foreground">{request.tool}</span>
        </span>
      </div>
      <pre className="scroll-thin max-h-64 overflow-auto whitespace-pre-wrap break-words p-2.5 font-mono leading-[1.55]">{args || "{}"}</pre>
    </div>
  );
}
