"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowDownIcon, LoaderCircleIcon } from "lucide-react";
import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/trpc/react";
import { useSessions } from "../sessions/use-sessions";
import { ToolApprovalCard } from "../approvals/tool-approval-card";
import { useToolApprovalsOf } from "../approvals/use-approvals";
import { SessionApprovals, SessionFrames } from "../extensions/session-extensions";
import { ToolPalette } from "../tools/tool-palette";
import { checkpointIndex } from "../checkpoints/checkpoint-facts";
import { JobChips } from "../jobs/job-chips";
import { ChatHeader } from "./chat-header";
import { Composer } from "./composer";
import { EmptyState } from "./empty-state";
import { ModeBanner } from "./mode-banner";
import { Timeline, type TimelineFocus } from "./timeline";
import { buildRows, hasNewer, runningTurn } from "./timeline-state";
import { useSessionTimeline } from "./use-session-timeline";
import { useStickToBottom } from "./use-stick-to-bottom";

/** How long a message jumped to (`?item=`) stays highlighted. */
const HIGHLIGHT_MS = 3000;

/** One session's chat. `item`: the id of a message to show and highlight (a search result links to `/s/<id>?item=<itemId>`). */
export function ChatView({ id, item = null }: { id: string; item?: string | null }) {
  const trpc = useTRPC();
  const { state, error, live, jump, paging, pageError, loadOlder, loadNewer, toLatest } = useSessionTimeline(id, item);
  const model = useQuery(trpc.settings.model.queryOptions());
  const tools = useQuery(trpc.tools.list.queryOptions({ sessionId: id }));
  // The meter's reading: fetched once, then replaced by the live `context` events after every step and turn end
  // (a model settings change refetches it, e.g. for a new window).
  const queryClient = useQueryClient();
  const contextQuery = useQuery(trpc.session.context.queryOptions({ id }));
  useEffect(() => {
    if (state.context) queryClient.setQueryData(trpc.session.context.queryKey({ id }), state.context);
  }, [state.context, queryClient, trpc, id]);
  const sessions = useSessions();
  const stop = useMutation(trpc.session.stop.mutationOptions());
  const [palette, setPalette] = useState<{ open: boolean; tool: string | null }>({ open: false, tool: null });

  const scrollRef = useRef<HTMLDivElement>(null);
  // The virtualized timeline needs the element itself once it is mounted (a ref is set after the child's effects).
  const [scrollElement, setScrollElement] = useState<HTMLDivElement | null>(null);
  const attachScroll = useCallback((el: HTMLDivElement | null) => {
    scrollRef.current = el;
    setScrollElement(el);
  }, []);
  const contentRef = useRef<HTMLDivElement>(null);

  // The list is pushed live and updated on rename; the timeline's copy comes with session events.
  const session = useMemo(() => {
    const fromList = sessions.data?.find((s) => s.id === id);
    const fromTimeline = state.session;
    if (!fromList) return fromTimeline;
    if (!fromTimeline) return fromList;
    return fromTimeline.updatedAt > fromList.updatedAt ? fromTimeline : fromList;
  }, [sessions.data, state.session, id]);

  const rows = useMemo(() => buildRows(state), [state]);
  const checkpoints = useMemo(() => checkpointIndex(Object.values(state.items)), [state.items]);
  const approvals = useToolApprovalsOf(id);
  // Requests whose call is not (yet) in the timeline show at its end, so none is ever hidden.
  const strayApprovals = useMemo(() => {
    const calls = new Set(rows.flatMap((r) => (r.kind === "item" && r.item.kind === "tool_call" && r.item.status === "running" ? [r.item.callId] : [])));
    return [...approvals.values()].filter((a) => !calls.has(a.callId));
  }, [rows, approvals]);
  const title = session?.title;
  useEffect(() => {
    if (title) document.title = `${title} · Seam`;
  }, [title]);
  // A jump (`?item=`) waits for its window, so the page opens there rather than at the bottom first.
  const jumping = Boolean(item) && (jump?.itemId !== item || jump.status === "loading");
  const shown = Boolean(session && state.loaded && !jumping);
  const openAtEnd = !item || jump?.status === "failed";
  const { atBottom, scrollToBottom } = useStickToBottom(scrollRef, contentRef, shown, openAtEnd);
  // The message jumped to is scrolled into view once, and highlighted for a moment.
  const jumpReady = jump?.status === "ready" ? jump.itemId : null;
  const focus = useMemo<TimelineFocus | null>(() => (jumpReady ? { key: jumpReady } : null), [jumpReady]);
  const [faded, setFaded] = useState<string | null>(null);
  useEffect(() => {
    if (!jumpReady) return;
    const timer = setTimeout(() => setFaded(jumpReady), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [jumpReady]);
  const highlight = jumpReady !== faded ? jumpReady : null;
  const jumpNotice = jump?.status === "failed" ? `Could not show the linked message: ${jump.message ?? "unknown error"}` : null;
  // The link's `?item=` dropped (e.g. the session opened again from the list): back to the latest items.
  useEffect(() => {
    if (!item) void toLatest();
  }, [item, toLatest]);
  const oldWindow = hasNewer(state.window);
  const goToLatest = useCallback(
    (smooth = true) => {
      if (!oldWindow) return scrollToBottom(smooth);
      void toLatest().then(() => scrollToBottom(false));
    },
    [oldWindow, scrollToBottom, toLatest],
  );
  const turn = runningTurn(state);
  // From this session's own turn events only: the pushed list can lag behind them.
  const running = Boolean(turn);
  const doStop = useCallback(() => stop.mutate({ id }), [stop, id]);
  const openPalette = useCallback((tool: string | null = null) => setPalette({ open: true, tool }), []);

  if (error?.notFound) {
    return (
      <div className="flex flex-1 flex-col items-center justify-center gap-3 p-8 text-center">
        <h1 className="text-lg font-semibold">Session not found</h1>
        <p className="max-w-sm text-[14px] text-muted-foreground">It may have been deleted in another window.</p>
        <Button asChild variant="outline">
          <Link href="/">Back to start</Link>
        </Button>
      </div>
    );
  }

  if (!session || !state.loaded || jumping) {
    return (
      <div className="flex flex-1 items-center justify-center gap-2 text-[13px] text-muted-foreground">
        {error ? (
          <span className="text-destructive">Could not load this session: {error.message}</span>
        ) : (
          <>
            <LoaderCircleIcon className="size-4 animate-spin" /> Loading session…
          </>
        )}
      </div>
    );
  }

  const toolList = tools.data ?? [];
  const direct = model.data?.mode === "direct";

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ChatHeader session={session} model={model.data} context={contextQuery.data ?? state.context} running={running} stopping={stop.isPending} onStop={doStop} />
      <JobChips sessionId={id} />
      <div className="relative min-h-0 flex-1">
        <div ref={attachScroll} data-testid="chat-scroll" className="scroll-thin absolute inset-0 overflow-y-auto">
          <div ref={contentRef} className="mx-auto w-full max-w-3xl px-5 pb-6">
            {/* The timeline starts at the top of the scroll area (its own top padding): the virtualizer measures from there. */}
            {rows.length === 0 ? (
              <div className="pt-5">
                <EmptyState
                  workspace={session.workspace}
                  tools={toolList}
                  toolsLoading={tools.isPending}
                  model={model.data}
                  onPickTool={(name) => openPalette(name)}
                />
              </div>
            ) : (
              <Timeline
                rows={rows}
                sessionId={id}
                scrollElement={scrollElement}
                running={turn}
                approvals={approvals}
                outputs={state.outputs}
                progress={state.progress}
                checkpoints={checkpoints}
                focus={focus}
                highlight={highlight}
                onNearTop={loadOlder}
                onNearBottom={loadNewer}
                atLatest={!oldWindow}
                openAtEnd={openAtEnd}
              />
            )}
            {strayApprovals.length > 0 && (
              <div data-testid="session-tool-approvals" className="mt-3.5 flex flex-col gap-3">
                {strayApprovals.map((a) => (
                  <ToolApprovalCard key={a.id} request={a} />
                ))}
              </div>
            )}
            <SessionApprovals sessionId={id} />
          </div>
        </div>
        {(jumpNotice || pageError) && (
          <div className="absolute inset-x-0 top-2 z-10 mx-auto flex w-fit max-w-[90%] flex-col gap-1 rounded-md border border-border bg-background px-3 py-2 text-[13px] shadow-sm">
            {jumpNotice && (
              <p role="alert" data-testid="jump-notice" className="text-muted-foreground">
                {jumpNotice}
              </p>
            )}
            {pageError && (
              <p role="alert" className="text-destructive">
                Could not load more of this session: {pageError}. Scroll again to retry.
              </p>
            )}
          </div>
        )}
        {(paging.older || paging.newer) && (
          <div
            role="status"
            className={`pointer-events-none absolute left-1/2 -translate-x-1/2 rounded-full border border-border bg-background px-3 py-1 text-[12px] text-muted-foreground shadow-sm ${paging.older ? "top-2" : "bottom-3"}`}
          >
            <LoaderCircleIcon className="mr-1.5 inline size-3 animate-spin" />
            {paging.older ? "Loading earlier messages…" : "Loading later messages…"}
          </div>
        )}
        {(!atBottom || oldWindow) && !paging.newer && (
          <Button
            variant="outline"
            size="icon-sm"
            aria-label="Scroll to latest"
            className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full shadow-md"
            onClick={() => goToLatest()}
          >
            <ArrowDownIcon />
          </Button>
        )}
      </div>
      <div className="shrink-0 px-5 pb-4">
        <div className="mx-auto flex w-full max-w-3xl flex-col gap-2">
          {live === "connecting" && state.loaded && (
            <p className="text-center text-[12px] text-muted-foreground">Reconnecting to live updates…</p>
          )}
          <SessionFrames sessionId={id} />
          {direct && <ModeBanner onOpenTools={() => openPalette()} />}
          {stop.error && <p className="text-[13px] text-destructive">Could not stop the turn: {stop.error.message}</p>}
          <Composer
            sessionId={id}
            running={running}
            tools={toolList}
            onStop={doStop}
            onSent={() => goToLatest(false)}
            onOpenTools={() => openPalette()}
          />
        </div>
      </div>
      <ToolPalette
        sessionId={id}
        tools={toolList}
        open={palette.open}
        initialTool={palette.tool}
        onOpenChange={(open) => setPalette((p) => ({ ...p, open }))}
      />
    </div>
  );
}
