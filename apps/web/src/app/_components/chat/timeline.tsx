"use client";
import type { ToolApprovalView, TurnInfo } from "@seam/shared";
import { LoaderCircleIcon } from "lucide-react";
import { formatDuration, elapsedSince } from "@/lib/time";
import { useNow } from "@/lib/use-now";
import { CheckpointFact } from "../checkpoints/checkpoint-rows";
import { CHANGED_FILES_FACT, CHECKPOINT_FACTS, EMPTY_INDEX, type CheckpointIndex } from "../checkpoints/checkpoint-facts";
import { canRetry, RetryAction } from "../session-ops/retry-action";
import { FactRow } from "./fact-row";
import { AssistantMessage, UserMessage } from "./messages";
import type { TimelineRow } from "./timeline-state";
import { ToolCard } from "./tool-card";
import { TurnStatusRow } from "./turn-status-row";

const NO_APPROVALS = new Map<string, ToolApprovalView>();
const NO_OUTPUTS: Record<string, string> = {};

export function Timeline({
  rows,
  sessionId,
  running,
  approvals = NO_APPROVALS,
  outputs = NO_OUTPUTS,
  checkpoints = EMPTY_INDEX,
}: {
  rows: TimelineRow[];
  sessionId: string;
  running?: TurnInfo;
  /** Pending approval requests of this session by the call id they hold up. */
  approvals?: Map<string, ToolApprovalView>;
  /** Live output of running calls by item id. */
  outputs?: Record<string, string>;
  /** Undone turns and restorable messages (checkpointIndex of the items). */
  checkpoints?: CheckpointIndex;
}) {
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
          <Row row={row} sessionId={sessionId} running={Boolean(running)} runningTurnId={running?.id ?? null} approvals={approvals} outputs={outputs} checkpoints={checkpoints} />
        </div>
      ))}
      {running && !busyTail && <Working turn={running} />}
      {canRetry(rows, Boolean(running)) && <RetryAction sessionId={sessionId} />}
    </div>
  );
}

function Row({
  row,
  sessionId,
  running,
  runningTurnId,
  approvals,
  outputs,
  checkpoints,
}: {
  row: TimelineRow;
  sessionId: string;
  running: boolean;
  runningTurnId: string | null;
  approvals: Map<string, ToolApprovalView>;
  outputs: Record<string, string>;
  checkpoints: CheckpointIndex;
}) {
  if (row.kind === "turn") return <TurnStatusRow turn={row.turn} />;
  const item = row.item;
  switch (item.kind) {
    case "message":
      return item.role === "user" ? (
        <UserMessage
          message={item}
          restoreIn={checkpoints.restorable.has(item.id) ? sessionId : undefined}
          running={running}
          opsIn={sessionId}
          busy={item.turnId !== null && item.turnId === runningTurnId}
        />
      ) : (
        <AssistantMessage message={item} />
      );
    case "tool_call":
      return <ToolCard call={item} approval={approvals.get(item.callId)} output={outputs[item.id]} />;
    case "fact":
      if (CHECKPOINT_FACTS.has(item.factKind)) {
        const undone = item.factKind === CHANGED_FILES_FACT ? undoneOf(item.payload, checkpoints) : (checkpoints.undoneRestores.get(item.id) ?? null);
        return <CheckpointFact fact={item} sessionId={sessionId} undone={undone} running={running} />;
      }
      return <FactRow fact={item} />;
  }
}

/** The undo result recorded for a Changed files fact's turn, if any. */
function undoneOf(payload: unknown, checkpoints: CheckpointIndex) {
  const turnId = typeof payload === "object" && payload !== null ? (payload as { turnId?: unknown }).turnId : undefined;
  return typeof turnId === "string" ? (checkpoints.undone.get(turnId) ?? null) : null;
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
