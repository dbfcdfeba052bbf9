"use client";
import type { McpElicitationView, ToolApprovalView, ToolProgress, TurnInfo } from "@seam/shared";
import { useVirtualizer } from "@tanstack/react-virtual";
import { LoaderCircleIcon } from "lucide-react";
import { useEffect, useRef } from "react";
import { formatDuration, elapsedSince } from "@/lib/time";
import { useNow } from "@/lib/use-now";
import { cn } from "@/lib/utils";
import { CheckpointFact } from "../checkpoints/checkpoint-rows";
import { CHANGED_FILES_FACT, CHECKPOINT_FACTS, EMPTY_INDEX, type CheckpointIndex } from "../checkpoints/checkpoint-facts";
import { canRetry, RetryAction } from "../session-ops/retry-action";
import { FactRow } from "./fact-row";
import { AssistantMessage, UserMessage } from "./messages";
import type { TimelineRow } from "./timeline-state";
import { ToolCard } from "./tool-card";
import { TurnStatusRow } from "./turn-status-row";
import { useElicitationsOf } from "../elicitation/use-elicitations";

const NO_APPROVALS = new Map<string, ToolApprovalView>();
const NO_OUTPUTS: Record<string, string> = {};
const NO_PROGRESS: Record<string, ToolProgress> = {};

/** Space between rows and above the first one (px; the column's gap-3.5 and pt-5). */
const ROW_GAP = 14;
const TOP_PADDING = 20;
/** Within this distance of an edge (px), the next page is loaded. */
export const EDGE_PX = 1200;

/** A first guess at a row's height before it is measured; measuring corrects it. */
function estimateRow(row: TimelineRow | undefined): number {
  if (!row || row.kind === "turn") return 30;
  const item = row.item;
  if (item.kind === "tool_call") return 44;
  if (item.kind === "fact") return 30;
  const lines = Math.ceil(item.text.length / 90) + (item.text.match(/\n/g)?.length ?? 0);
  return Math.min(600, (item.role === "user" ? 44 : 28) + lines * 24);
}

/** A row to scroll into view, once per focus object (a new object scrolls again). */
export interface TimelineFocus { key: string }

/**
 * The session's rows as a virtualized list (CTX-4): only the rows near the viewport are in the DOM, each
 * measured as it renders (`measureElement`), so a long session scrolls like a short one. Rows added
 * above (an older page) keep the rows on screen in place (`anchorTo: "end"`). Scrolling up to the top
 * edge calls `onNearTop`, down to the bottom edge `onNearBottom` (an old window has newer items to load).
 */
export function Timeline({
  rows,
  sessionId,
  scrollElement,
  running,
  approvals = NO_APPROVALS,
  outputs = NO_OUTPUTS,
  progress = NO_PROGRESS,
  checkpoints = EMPTY_INDEX,
  focus = null,
  highlight = null,
  onNearTop,
  onNearBottom,
  atLatest = true,
  openAtEnd = true,
}: {
  rows: TimelineRow[];
  sessionId: string;
  /** The element that scrolls (null until it is mounted: a parent's ref is set after the child's layout effects). */
  scrollElement: HTMLElement | null;
  running?: TurnInfo;
  /** Pending approval requests of this session by the call id they hold up. */
  approvals?: Map<string, ToolApprovalView>;
  /** Live output of running calls by item id. */
  outputs?: Record<string, string>;
  /** The latest progress of running calls by item id (MCP-12). */
  progress?: Record<string, ToolProgress>;
  /** Undone turns and restorable messages (checkpointIndex of the items). */
  checkpoints?: CheckpointIndex;
  focus?: TimelineFocus | null;
  /** The key of a row shown highlighted (a search result jumped to). */
  highlight?: string | null;
  onNearTop?: () => void;
  onNearBottom?: () => void;
  /** The rows reach the latest item (not an old window): the running turn's progress and Retry follow them. */
  atLatest?: boolean;
  /** Open scrolled to the last row (false: at the top, e.g. to scroll to `focus`). */
  openAtEnd?: boolean;
}) {
  // Requests for input from MCP servers, shown in the card of the call they came during (MCP-12).
  const elicitations = useElicitationsOf(sessionId);
  // oxlint-disable-next-line react/incompatible-library -- the virtualizer's functions are called in this component only; rows get plain values
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollElement,
    estimateSize: (i) => estimateRow(rows[i]),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 6,
    gap: ROW_GAP,
    paddingStart: TOP_PADDING,
    anchorTo: "end",
    // The virtualizer writes its own idea of the offset when it attaches: at the end, as the stick-to-bottom
    // hook will, so the two never pull the view in opposite directions (the browser clamps the value).
    initialOffset: () => (openAtEnd ? Number.MAX_SAFE_INTEGER : 0),
  });

  // Paging at the edges: only a scroll towards an edge asks for more (the initial jump to the bottom, and the
  // shift that keeps rows in place when a page is added above, move away from the top).
  const edges = useRef({ onNearTop, onNearBottom });
  useEffect(() => {
    edges.current = { onNearTop, onNearBottom };
  });
  useEffect(() => {
    const el = scrollElement;
    if (!el) return;
    let lastTop = el.scrollTop;
    const onScroll = () => {
      const top = el.scrollTop;
      if (top < lastTop && top < EDGE_PX) edges.current.onNearTop?.();
      if (top > lastTop && el.scrollHeight - top - el.clientHeight < EDGE_PX) edges.current.onNearBottom?.();
      lastTop = top;
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => el.removeEventListener("scroll", onScroll);
  }, [scrollElement]);
  // Rows that do not fill the viewport cannot be scrolled: load more at once.
  useEffect(() => {
    const el = scrollElement;
    if (el && el.scrollHeight <= el.clientHeight) edges.current.onNearTop?.();
  }, [rows.length, scrollElement]);

  // Once per focus: pages added later shift the indexes but must not pull the view back to it.
  const focused = useRef<TimelineFocus | null>(null);
  const focusIndex = focus ? rows.findIndex((r) => r.key === focus.key) : -1;
  useEffect(() => {
    if (!focus || focused.current === focus || focusIndex < 0 || !scrollElement) return;
    focused.current = focus;
    virtualizer.scrollToIndex(focusIndex, { align: "center" });
  }, [focus, focusIndex, virtualizer, scrollElement]);

  const last = rows[rows.length - 1];
  // The tail already shows progress when it is streaming text or a running tool call.
  const busyTail =
    last?.kind === "item" &&
    ((last.item.kind === "message" && last.item.state === "streaming") || (last.item.kind === "tool_call" && last.item.status === "running"));
  const retry = canRetry(rows, Boolean(running));
  return (
    <>
      <div data-testid="timeline" data-rows={rows.length} className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const row = rows[v.index]!;
          return (
            <div
              key={v.key}
              ref={virtualizer.measureElement}
              data-index={v.index}
              data-testid="timeline-row"
              data-row-key={row.key}
              data-highlighted={highlight === row.key || undefined}
              className={cn(
                "absolute left-0 top-0 w-full rounded-lg transition-shadow duration-700",
                highlight === row.key && "ring-2 ring-primary/60 ring-offset-4 ring-offset-background",
              )}
              style={{ transform: `translateY(${v.start}px)` }}
            >
              <Row row={row} sessionId={sessionId} running={Boolean(running)} runningTurnId={running?.id ?? null} approvals={approvals} outputs={outputs} progress={progress} elicitations={elicitations} checkpoints={checkpoints} />
            </div>
          );
        })}
      </div>
      {atLatest && ((running && !busyTail) || retry) ? (
        <div className="mt-3.5 flex flex-col gap-3.5">
          {running && !busyTail && <Working turn={running} />}
          {retry && <RetryAction sessionId={sessionId} />}
        </div>
      ) : null}
    </>
  );
}

function Row({
  row,
  sessionId,
  running,
  runningTurnId,
  approvals,
  outputs,
  progress,
  elicitations,
  checkpoints,
}: {
  row: TimelineRow;
  sessionId: string;
  running: boolean;
  runningTurnId: string | null;
  approvals: Map<string, ToolApprovalView>;
  outputs: Record<string, string>;
  progress: Record<string, ToolProgress>;
  elicitations: Map<string, McpElicitationView>;
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
      return (
        <ToolCard
          call={item}
          approval={approvals.get(item.callId)}
          output={outputs[item.id]}
          progress={progress[item.id]}
          elicitation={item.status === "running" ? elicitations.get(item.callId) : undefined}
        />
      );
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
