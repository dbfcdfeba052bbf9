import { randomUUID } from "node:crypto";
import { realpath, stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { COMPACT_AT_DEFAULT, type McpResourceAttachment } from "@seam/shared";
import type {
  ContextUsage, FactItem, SessionCallToolInput, SessionCreateInput, SessionEvent, SessionInfo, SessionSendInput, TimelineItem, TurnInfo,
} from "@seam/shared";
import { createBus } from "../core/events.js";
import { HostError, messageOf } from "../core/errors.js";
import type { LiveSources } from "../core/live.js";
import type { Disposer, Scope } from "../core/scope.js";
import type { LlmModel } from "../llm/llm.js";
import { INTERRUPTED_REASON, TAKEN_OVER_REASON, type SessionRow, type Store } from "../persistence/store.js";
import { createCompactor, type CompactOutcome } from "./compaction.js";
import { createContextMeter, type ContextWindowInfo } from "./context.js";
import { COMPACT_COMMAND } from "./history.js";
import { createModelViews } from "./model-view.js";
import { checkCallArgs, parseDirectCall } from "./direct.js";
import { runModelTurn, runToolCall, type TurnContext, type TurnDeps, type TurnEnd } from "./loop.js";
import type { ToolRegistry } from "./registry.js";
import type { ToolRuntime } from "./runtime.js";
import type { StepHooks } from "./hooks.js";
import { createLoadedTools } from "./loaded-tools.js";
import { createSessionOps, type SessionOps } from "./session-ops.js";
import { createToolSet, DEFAULT_BUDGET, type ToolSet } from "./tool-set.js";
import { createSessionPages, type SessionPages } from "./session-pages.js";
import { stopReason, TurnStop } from "./stop.js";
import { createLog } from "../core/log.js";

const log = createLog("session");

export interface SessionDeps {
  store: Store;
  registry: ToolRegistry;
  runtime: ToolRuntime;
  hooks: StepHooks;
  /** `/name …` user invocation of a skill (SKL-8): its fact to append, or null to treat the text as a message. */
  userInvocation?(text: string, workspace: string, sessionId: string): Promise<{ fact: { factKind: string; text: string; payload: unknown } } | null>;
  /** Reads a message's attached MCP resources into one fact (MCP-9); rejects when one cannot be read (nothing is stored). */
  attachments?(list: McpResourceAttachment[]): Promise<{ factKind: string; text: string; payload: unknown }>;
  /** Pending approval requests per session (the list marks sessions waiting for a person, PERM-3). */
  approvals?: { waiting(sessionId: string): number; onChange(fn: () => void): Disposer };
  /** The configured model, step limit and compaction threshold (percent), or null in direct mode. Read at the start of every turn. */
  model(): Promise<{ model: LlmModel; maxSteps: number; compactAt?: number } | null>;
  /** The configured model's context window for the context meter (CTX-1); without it the meter shows no window. */
  contextWindow?(): Promise<ContextWindowInfo>;
  /** Which tools each step sends (CTX-3); without it, the registry's tools under the default deferral budget. */
  toolSet?: ToolSet;
  /** What capabilities add to the system prompt now (the MCP servers' instructions, MCP-8). */
  systemExtra?(): string;
  /** The other hosts on the same database (SCALE-2, SCALE-3); absent when this host is alone with it (SQLite). */
  link?: SessionLink;
}

/**
 * How the sessions of several hosts on one database stay consistent (SCALE-2, SCALE-3): a turn runs
 * only on the host holding the session's lease, and live events reach the pages of every host.
 */
export interface SessionLink {
  /** Takes the right to run the session's turns; conflict:session when another host runs one. */
  claim(sessionId: string): Promise<{ release(): Promise<void> }>;
  /** Shares a session's event (or, with nulls, "the list changed") with the other hosts. */
  share(sessionId: string | null, event: SessionEvent | null): void;
  onShared(fn: (sessionId: string | null, event: SessionEvent | null) => void): Disposer;
  runningElsewhere(sessionId: string): boolean;
  /** Asks the host running the session's turn to stop it. */
  requestStop(sessionId: string): void;
  onStopRequest(fn: (sessionId: string) => void): Disposer;
  /**
   * A session whose running turns are this host's to mark interrupted: their host stopped answering
   * (`taken_over`), or an earlier run of this host was killed (`restarted`).
   */
  onTakeover(fn: (sessionId: string, why: "taken_over" | "restarted") => Promise<void>): Disposer;
  /** A session this host lost to another: its turn here must stop. */
  onLost(fn: (sessionId: string) => void): Disposer;
}

/** The item writes of a turn, each item written also told to `tell` (the session's model view). */
function toldItems(items: Store["items"], tell: (item: TimelineItem) => void): Store["items"] {
  const told = <A extends unknown[], T extends TimelineItem>(write: (...args: A) => Promise<T>) => async (...args: A) => {
    const item = await write(...args);
    tell(item);
    return item;
  };
  return {
    ...items,
    appendMessage: told(items.appendMessage), updateMessage: told(items.updateMessage),
    appendToolCall: told(items.appendToolCall), finishToolCall: told(items.finishToolCall), appendFact: told(items.appendFact),
  };
}

/** A direct-mode turn: the user runs one tool by hand (CORE-14). */
const directCall = (name: string, args: unknown) => async (d: TurnDeps, ctx: TurnContext): Promise<TurnEnd> => {
  await runToolCall(d, ctx, { callId: `direct-${randomUUID()}`, name, args });
  return ctx.signal.aborted ? { status: "stopped", reason: stopReason(ctx.signal), steps: 1 } : { status: "completed", reason: null, steps: 1 };
};

type Events = { session: { sessionId: string; event: SessionEvent }; list: null };

interface Running { turnId: string; controller: AbortController; done: Promise<void>; release?: () => Promise<void> }

/** What the tRPC layer calls (`HostApi["sessions"]`); session operations (CTX-5) come from `SessionOps`, the paged timeline (CTX-4) from `SessionPages`. */
export interface Api extends SessionOps, SessionPages {
  list(): Promise<SessionInfo[]>;
  create(input: SessionCreateInput): Promise<SessionInfo>;
  rename(id: string, title: string): Promise<SessionInfo>;
  /** The session's permission mode (PERM-1); null follows the default mode. */
  setMode(id: string, mode: SessionInfo["mode"]): Promise<SessionInfo>;
  /** Runs every `beforeRemove` hook (a capability lets go of the session), then deletes it. */
  remove(id: string): Promise<void>;
  send(input: SessionSendInput): Promise<{ turnId: string }>;
  callTool(input: SessionCallToolInput): Promise<{ turnId: string }>;
  stop(id: string): Promise<{ stopped: boolean }>;
  /** The size of the session's next model request: system prompt, tool specs, history, and the window (CTX-1). */
  context(id: string): Promise<ContextUsage>;
}

/** Sessions and their turns (CORE-13): durable history, one running turn per session, stop, live events. */
export interface SessionService extends Api {
  /** One session's events from now on (live topic `session:<id>`). */
  events(id: string, signal: AbortSignal): AsyncIterable<SessionEvent>;
  /** The whole list after every change: created, renamed, removed, running state (live topic `sessions`). */
  listEvents(signal: AbortSignal): AsyncIterable<SessionInfo[]>;
  /** The same moments as `listEvents`, without reading the list (for a capability that reads only what it needs). */
  listChanges(signal: AbortSignal): AsyncIterable<void>;
  /** The sessions' live topics. */
  readonly live: Pick<LiveSources, "sessions" | "session">;
  /** The running turn of a session, if any (capabilities record facts against it). */
  runningTurn(sessionId: string): string | null;
  /** The workspace of a session (not_found:session when it does not exist). */
  workspaceOf(sessionId: string): Promise<string>;
  /** `fn` runs before a session is deleted, e.g. to stop what a capability runs for it (EXT-2). */
  beforeRemove(fn: (sessionId: string) => Promise<void>): Disposer;
  /**
   * `fn` runs when a session is created or opened (its detail is read), so a capability can get ready before the
   * first message (e.g. the workspace's skills catalog). It starts its work and returns; a throw is logged.
   */
  onOpened(fn: (session: { id: string; workspace: string }) => void): Disposer;
  /** Appends a fact outside any turn (e.g. "the user undid a turn's changes"), so the model sees it from the next turn on. */
  appendFact(sessionId: string, fact: { factKind: string; text: string; payload: unknown }): Promise<FactItem>;
  /** `fn` runs when a turn's body has ended (completed, stopped or failed), before the turn is recorded as ended. */
  afterTurn(fn: AfterTurn): Disposer;
  /** The skills catalog the model currently sees in a session, with its digest, or null (SKL-6 after CTX-2). */
  visibleCatalog(sessionId: string): Promise<{ digest: string | null } | null>;
}

/** What an after-turn hook sees (e.g. the turn's Changed files, CODE-5); its facts land at the end of the turn. */
export type AfterTurn = (turn: {
  sessionId: string;
  workspace: string;
  turnId: string;
  appendFact(fact: { factKind: string; text: string; payload: unknown }): Promise<void>;
}) => Promise<void>;

export function createSessionService(scope: Scope, deps: SessionDeps): SessionService {
  const bus = createBus<Events>();
  const running = new Map<string, Running>();
  const removeHooks = new Set<(sessionId: string) => Promise<void>>();
  const openHooks = new Set<(session: { id: string; workspace: string }) => void>();
  const opened = (row: SessionRow) => {
    for (const fn of openHooks) {
      try {
        fn({ id: row.id, workspace: row.workspace });
      } catch (error) {
        log.warn(`getting ready for session ${row.id} failed: ${messageOf(error)}`, { session: row.id });
      }
    }
  };
  const afterTurnHooks = new Set<{ fn: AfterTurn }>();
  const { store, link } = deps;

  const info = (row: SessionRow): SessionInfo => ({
    ...row,
    running: running.has(row.id) || (link?.runningElsewhere(row.id) ?? false),
    waiting: deps.approvals?.waiting(row.id) ?? 0,
  });
  /** The sessions list changed: here and, through the link, on the other hosts. */
  const listChanged = () => {
    bus.emit("list", null);
    link?.share(null, null);
  };
  if (deps.approvals) scope.add(deps.approvals.onChange(() => bus.emit("list", null)), "approvals:listen");
  const emit = (sessionId: string, event: SessionEvent) => {
    bus.emit("session", { sessionId, event });
    link?.share(sessionId, event);
  };
  const window = deps.contextWindow ?? (async (): Promise<ContextWindowInfo> => ({ value: null, source: "unknown" }));
  const toolSet = deps.toolSet ?? createToolSet({
    registry: deps.registry, loaded: createLoadedTools({ items: store.items }), budget: async () => ({ ...DEFAULT_BUDGET, window: (await window()).value }),
  });
  const views = createModelViews(store);
  const meter = createContextMeter({
    view: (id) => views.current(id), lastModelTurn: (id) => store.turns.lastEnded(id, "model"), window, toolSet,
    ...(deps.systemExtra ? { systemExtra: deps.systemExtra } : {}),
  });
  const compactor = createCompactor({ store, views, meter });
  /** Sends the context meter's new reading; a failure to measure never disturbs the turn. */
  const emitContext = async (sessionId: string, workspace: string) => {
    try {
      emit(sessionId, { type: "context", context: await meter.measure(sessionId, workspace) });
    } catch (error) {
      log.warn(`could not measure the context of session ${sessionId}: ${messageOf(error)}`, { session: sessionId });
    }
  };

  const requireSession = async (id: string) => {
    const row = await store.sessions.get(id);
    if (!row) throw new HostError("not_found:session", `No session with id ${id}; it may have been deleted.`);
    return row;
  };

  const canonicalWorkspace = async (path: string) => {
    if (!isAbsolute(path)) throw new HostError("bad_input:session", `Workspace must be an absolute path (got "${path}").`);
    const real = await realpath(path).catch(() => {
      throw new HostError("bad_input:session", `Workspace folder ${path} does not exist. Create it or pick another folder.`);
    });
    if (!(await stat(real)).isDirectory()) throw new HostError("bad_input:session", `Workspace ${path} is not a folder.`);
    return real;
  };

  /** Runs a compaction (CTX-2); a new reading of the meter follows any change. Never throws. */
  const compact = async (
    d: TurnDeps, ctx: TurnContext, opts: { model: LlmModel; trigger: "auto" | "manual"; focus: string | null; compactAt: number },
  ): Promise<CompactOutcome> => {
    let outcome: CompactOutcome;
    try {
      outcome = await compactor.compact({ ...ctx, ...opts, emitItem: d.emitItem });
    } catch (error) {
      log.error(`compaction failed in session ${ctx.sessionId}: ${messageOf(error)}`, { session: ctx.sessionId });
      return { kind: "none", reason: `The compaction could not run: ${messageOf(error)}` };
    }
    if (outcome.kind !== "none") await emitContext(ctx.sessionId, ctx.workspace);
    return outcome;
  };

  /** Starts a turn in the background; the caller gets the turn id at once. */
  const readAttachments = (list: McpResourceAttachment[]) => {
    if (!deps.attachments) throw new HostError("bad_input:session", "This host cannot read MCP resources, so they cannot be attached.", { reason: "attachments_unsupported" });
    return deps.attachments(list);
  };

  /** `session`: its row when the caller has just read it, else its id. */
  const startTurn = async (
    session: SessionRow | string, mode: TurnInfo["mode"], text: string, body: (deps: TurnDeps, ctx: TurnContext) => Promise<TurnEnd>, compactAt?: number,
  ) => {
    if (typeof session === "string") session = await requireSession(session);
    const sessionId = session.id;
    if (running.has(sessionId)) throw new HostError("conflict:session", "A turn is already running in this session; stop it or wait for it to finish.");
    const controller = new AbortController();
    const entry: Running = { turnId: "", controller, done: Promise.resolve() };
    running.set(sessionId, entry); // claimed before any await: two sends cannot both start a turn
    let turn: TurnInfo;
    try {
      // Across hosts (SCALE-2): the lease before the turn's row, so a running turn always has a live lease.
      if (link) entry.release = (await link.claim(sessionId)).release;
      const started = await store.turns.start(sessionId, mode, text);
      turn = started.turn;
      entry.turnId = turn.id;
      views.written(sessionId, started.message, turn);
      emit(sessionId, { type: "turn", turn });
      listChanged();
      emit(sessionId, { type: "item", item: started.message });
    } catch (error) {
      // Neither the turn nor its message was recorded.
      running.delete(sessionId);
      await entry.release?.().catch(() => {});
      throw error;
    }

    /** Auto compaction is not tried again in a turn after a failed summary, or when compacting could not get under the threshold. */
    let autoCompaction = true;
    const local: TurnDeps = {
      store: { ...store, items: toldItems(store.items, (item) => views.written(sessionId, item)) },
      view: (id) => views.current(id),
      beforeStep: async (c, model) => {
        if (!autoCompaction) return;
        const outcome = await compact(local, c, { model, trigger: "auto", focus: null, compactAt: compactAt ?? COMPACT_AT_DEFAULT });
        if (outcome.kind === "failed" || (outcome.kind === "compacted" && outcome.stillOver)) autoCompaction = false;
      },
      registry: deps.registry,
      tools: toolSet,
      ...(deps.systemExtra ? { systemExtra: deps.systemExtra } : {}),
      runtime: deps.runtime,
      hooks: deps.hooks,
      emitItem: (item: TimelineItem) => emit(sessionId, { type: "item", item }),
      emitDelta: (itemId, delta) => emit(sessionId, { type: "delta", itemId, text: delta }),
      emitOutput: (itemId, chunk) => emit(sessionId, { type: "output", itemId, chunk }),
      emitProgress: (itemId, update) => emit(sessionId, { type: "progress", itemId, ...update }),
      stepEnded: async (usage) => {
        meter.reported(sessionId, usage?.inputTokens);
        await emitContext(sessionId, session.workspace);
      },
    };
    const ctx = { sessionId, workspace: session.workspace, turnId: turn.id, signal: controller.signal };
    entry.done = (async () => {
      let end: TurnEnd;
      try {
        end = await body(local, ctx);
      } catch (error) {
        end = controller.signal.aborted ? { status: "stopped", reason: stopReason(controller.signal), steps: 0 } : { status: "failed", reason: messageOf(error), steps: 0 };
      }
      for (const { fn } of [...afterTurnHooks]) {
        try {
          await fn({
            sessionId, workspace: session.workspace, turnId: turn.id,
            appendFact: async (fact) => local.emitItem(await local.store.items.appendFact(sessionId, { turnId: turn.id, ...fact })),
          });
        } catch (error) {
          log.error(`an after-turn hook failed for turn ${turn.id}: ${messageOf(error)}`, { session: sessionId });
        }
      }
      try {
        const finished = await store.turns.finish(turn.id, { status: end.status, reason: end.reason, steps: end.steps, usage: end.usage });
        emit(sessionId, { type: "turn", turn: finished });
      } catch (error) {
        log.error(`could not record the end of turn ${turn.id}: ${messageOf(error)}`, { session: sessionId });
      } finally {
        running.delete(sessionId);
        await entry.release?.().catch((error: unknown) => log.warn(`could not release the lease of session ${sessionId}: ${messageOf(error)}`, { session: sessionId }));
        listChanged();
      }
      await emitContext(sessionId, session.workspace);
    })();
    return { turnId: turn.id };
  };

  // Host shutdown stops running turns; a turn cut short by a crash is marked interrupted at the next start.
  scope.add(async () => {
    const all = [...running.values()];
    for (const r of all) r.controller.abort(new TurnStop("shutdown"));
    await Promise.allSettled(all.map((r) => r.done));
  }, "sessions:turns");

  /** `/compact [focus]` (CTX-2): a turn of its own that summarizes the history; no model answer follows. */
  const compactTurn = async (sessionId: string, text: string, focus: string | null) => {
    const configured = await deps.model();
    if (!configured) {
      throw new HostError("bad_input:session", "No model is configured, so there is no one to write the summary: /compact needs a model. Configure one in Settings.", { reason: "no_model" });
    }
    // A direct turn: its `/compact` line is a command to Seam, never part of what the model sees.
    return startTurn(sessionId, "direct", text, async (d, ctx): Promise<TurnEnd> => {
      const outcome = await compact(d, ctx, { model: configured.model, trigger: "manual", focus, compactAt: configured.compactAt ?? COMPACT_AT_DEFAULT });
      if (ctx.signal.aborted) return { status: "stopped", reason: stopReason(ctx.signal), steps: 1 };
      if (outcome.kind === "failed" || outcome.kind === "none") return { status: "failed", reason: outcome.reason, steps: 1 };
      return { status: "completed", reason: null, steps: 1 };
    });
  };

  const ops = createSessionOps({
    store,
    requireSession,
    canonicalWorkspace,
    runningTurn: (id) => running.get(id)?.turnId || null,
    send: (input) => service.send(input),
    created: (row) => {
      listChanged();
      return info(row);
    },
    remove: (id) => service.remove(id),
  });

  const pages = createSessionPages({ store, requireSession, info, opened });

  /** Asks the host running the turn to stop it and waits (up to 10 s) to hear that it ended. */
  const stopElsewhere = (id: string) => new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => { off?.(); resolve(false); }, 10_000);
    const off = link?.onShared((sessionId, event) => {
      if (sessionId !== id || event?.type !== "turn" || event.turn.status === "running") return;
      clearTimeout(timer);
      off?.();
      resolve(true);
    });
    link?.requestStop(id);
  });

  if (link) {
    // Other hosts' events reach this host's pages; they are not shared again.
    scope.add(link.onShared((sessionId, event) => {
      if (sessionId === null || event === null) bus.emit("list", null);
      else {
        bus.emit("session", { sessionId, event });
        if (event.type === "turn") bus.emit("list", null);
      }
    }), "sessions:shared");
    scope.add(link.onStopRequest((id) => running.get(id)?.controller.abort(new TurnStop("user"))), "sessions:stop-requests");
    scope.add(link.onLost((id) => running.get(id)?.controller.abort(new TurnStop("lease"))), "sessions:lost");
    scope.add(link.onTakeover(async (id, why) => {
      const reason = why === "restarted" ? INTERRUPTED_REASON : TAKEN_OVER_REASON;
      const done = await store.recoverInterrupted({ sessionId: id, reason });
      if (done.turns === 0) return;
      for (const turn of await store.turns.list(id)) {
        if (turn.status === "interrupted" && turn.reason === reason) emit(id, { type: "turn", turn });
      }
      listChanged();
    }), "sessions:takeover");
  }

  const service: SessionService = {
    ...ops,
    ...pages,
    async list() {
      return (await store.sessions.list()).map(info);
    },
    async create(input) {
      const workspace = await canonicalWorkspace(input.workspace);
      const title = input.title?.trim() || workspace.split("/").filter(Boolean).at(-1) || "New session";
      const row = await store.sessions.create({ title, workspace });
      listChanged();
      opened(row);
      return info(row);
    },
    async rename(id, title) {
      await requireSession(id);
      const row = await store.sessions.rename(id, title);
      emit(id, { type: "session", session: info(row) });
      listChanged();
      return info(row);
    },
    async setMode(id, mode) {
      await requireSession(id);
      const row = await store.sessions.setMode(id, mode);
      emit(id, { type: "session", session: info(row) });
      listChanged();
      return info(row);
    },
    async remove(id) {
      await requireSession(id);
      for (const hook of removeHooks) await hook(id);
      const r = running.get(id);
      if (r) {
        r.controller.abort(new TurnStop("deleted"));
        await r.done;
      }
      await store.sessions.remove(id);
      meter.forget(id);
      toolSet.forget(id);
      views.forget(id);
      listChanged();
    },
    async send(input) {
      const call = parseDirectCall(input.text);
      if (call && input.attachments?.length) {
        throw new HostError("bad_input:session", "Resources can be attached to a message, not to a /call: remove the attachments or write a message.", { reason: "attachments_on_call" });
      }
      if (call) {
        return startTurn(input.sessionId, "direct", input.text, directCall(call.name, call.args));
      }
      const session = await requireSession(input.sessionId);
      const command = COMPACT_COMMAND.exec(input.text.trim());
      if (command) return compactTurn(input.sessionId, input.text, command[1]?.trim() || null);
      const invocation = input.text.trimStart().startsWith("/") ? await deps.userInvocation?.(input.text, session.workspace, session.id) : null;
      const configured = await deps.model();
      if (!invocation && !configured) {
        throw new HostError("bad_input:session", "No model is configured, so Seam is in direct mode. Run a tool with /call <tool> {json} or the Tools palette, or configure a model in Settings.", { reason: "no_model" });
      }
      // Attached MCP resources are read before anything is stored: one that cannot be read refuses the message (MCP-9).
      const attached = input.attachments?.length ? await readAttachments(input.attachments) : null;
      const facts = [invocation?.fact, attached].filter((f) => f !== undefined && f !== null);
      if (facts.length > 0) {
        // The skill's instructions, a prompt's messages or the attached resources follow the user's message as user context; with a model the turn goes on.
        return startTurn(session, configured ? "model" : "direct", input.text, async (d, ctx) => {
          for (const f of facts) d.emitItem(await d.store.items.appendFact(ctx.sessionId, { turnId: ctx.turnId, ...f }));
          return configured ? runModelTurn(d, ctx, configured.model, configured.maxSteps) : { status: "completed", reason: null, steps: 0 };
        }, configured?.compactAt);
      }
      if (!configured) throw new HostError("bad_input:session", "No model is configured.", { reason: "no_model" });
      return startTurn(session, "model", input.text, (d, ctx) => runModelTurn(d, ctx, configured.model, configured.maxSteps), configured.compactAt);
    },
    async callTool(input) {
      checkCallArgs(input.name, input.args);
      const text = `/call ${input.name} ${JSON.stringify(input.args)}`;
      return startTurn(input.sessionId, "direct", text, directCall(input.name, input.args));
    },
    async stop(id) {
      await requireSession(id);
      const r = running.get(id);
      if (!r && link?.runningElsewhere(id)) return { stopped: await stopElsewhere(id) };
      if (!r) return { stopped: false };
      r.controller.abort(new TurnStop("user"));
      await r.done;
      return { stopped: true };
    },
    async context(id) {
      const row = await requireSession(id);
      return meter.measure(id, row.workspace);
    },
    events(id, signal) {
      return (async function* () {
        for await (const { sessionId, event } of bus.iterate("session", signal)) {
          if (sessionId === id) yield event;
        }
      })();
    },
    runningTurn(sessionId) {
      return running.get(sessionId)?.turnId || null;
    },
    listEvents(signal) {
      return (async function* () {
        for await (const _ of bus.iterate("list", signal)) yield (await store.sessions.list()).map(info);
      })();
    },
    listChanges(signal) {
      return (async function* () {
        for await (const _ of bus.iterate("list", signal)) yield;
      })();
    },
    live: {
      sessions: (signal) => service.listEvents(signal),
      session: (id, signal) => service.events(id, signal),
    },
    async workspaceOf(sessionId) {
      return (await requireSession(sessionId)).workspace;
    },
    beforeRemove(fn) {
      removeHooks.add(fn);
      return () => void removeHooks.delete(fn);
    },
    onOpened(fn) {
      openHooks.add(fn);
      return () => void openHooks.delete(fn);
    },
    async appendFact(sessionId, fact) {
      await requireSession(sessionId);
      const item = await store.items.appendFact(sessionId, { turnId: null, ...fact });
      emit(sessionId, { type: "item", item });
      return item;
    },
    afterTurn(fn) {
      const entry = { fn };
      afterTurnHooks.add(entry);
      return () => void afterTurnHooks.delete(entry);
    },
    async visibleCatalog(sessionId) {
      const catalog = (await views.current(sessionId)).catalog();
      return catalog ? { digest: catalog.digest } : null;
    },
  };
  return service;
}
