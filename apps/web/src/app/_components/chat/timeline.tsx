"use client";
import type { TurnInfo } from "@seam/shared";
import { LoaderCircleIcon } from "lucide-react";
import { formatDuration, elapsedSince } from "@/lib/time";
import { useNow } from "@/lib/use-now";
import { FactRow } from "./fact-row";
import { AssistantMessage, UserMessage } from "./messages";
import type { TimelineRow } from "./timeline-state";
import { ToolCard } from "./tool-card";
import { TurnStatusRow } from "./turn-status-row";

export function Timeline({ rows, running }: { rows: TimelineRow[]; running?: TurnInfo }) {
  const last = rows[rows.length - 1];
  // The tail already shows progress when it is streaming text or a running tool call.
  const busyTail =
    last?.kind === "item" &&
    ((last.item.kind === "message" && last.item.state === "streaming") || (last.item.kind === "tool_call" && last.item.status === "running"));
  return (
    <div data-testid="timeline" className="flex flex-col gap-3.5">
      {rows.map((row, i) => (
        // Rows far off screen skip layout and paint (a cheap stand-in for virtualisation); the last
        // rows, which change while streaming, always render.
        <div key={row.key} className={i < rows.length - 4 ? "[contain-intrinsic-size:auto_96px] [content-visibility:auto]" : undefined}>
          <Row row={row} />
        </div>
      ))}
      {running && !busyTail && <Working turn={running} />}
    </div>
  );
}

function Row({ row }: { row: TimelineRow }) {
  if (row.kind === "turn") return <TurnStatusRow turn={row.turn} />;
  const item = row.item;
  switch (item.kind) {
    case "message":
      return item.role === "user" ? <UserMessage message={item} /> : <AssistantMessage message={item} />;
    case "tool_call":
      return <ToolCard call={item} />;
    case "fact":
      return <FactRow fact={item} />;
  }
}

function Working({ turn }: { turn: TurnInfo }) {
  const now = useNow(1000);
  return (
    <div className="flex items-center gap-2 text-[13px] text-muted-foreground" role="status">
      <LoaderCircleIcon className="size-3.5 animate-spin" />
      <span>{turn.mode === "direct" ? "Running tool…" : "Working…"}</span>
      <span className="tabular-nums opacity-70">{formatDuration(elapsedSince(turn.startedAt, null, now))}</span>
    </div>
  );
}
