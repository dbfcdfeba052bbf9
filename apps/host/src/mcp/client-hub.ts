import {
  elicitFields, formatIssues, issuesOf, McpElicitationAnswer, McpLogsInput, McpSetLogLevelInput, prepareElicitAnswer, type McpElicitationView, type McpLogEvent,
  type McpLogLevel, type McpLogs,
} from "@seam/shared";
import { createChanges } from "../core/changes.js";
import { HostError, messageOf } from "../core/errors.js";
import { iterateEvents } from "../core/events.js";
import type { LiveSources } from "../core/live.js";
import type { Log } from "../core/log.js";
import type { Disposer } from "../core/scope.js";
import type { ApprovalBroker, RequestAbout } from "../permissions/broker.js";
import { LogRing } from "./log-ring.js";
import type { CallContext, ClientSurface, ElicitationAsk, ElicitationReply, McpRoot } from "./surface-types.js";

export const ELICITATION_KIND = "mcp_elicitation";
const ABOUT: RequestAbout = { capability: "mcp", noun: "request for input" };

/** Why an elicitation outside any tool call is declined: there is no session whose person could answer. */
export const NO_SESSION_REASON = "Seam asks a person only during one of this server's tool calls in a chat session; this request came outside any, so it was declined.";

export interface ClientHubDeps {
  broker: Pick<ApprovalBroker, "ask" | "pending" | "answer" | "onChange">;
  /** The workspace roots every server is told (`roots/list`). */
  roots(): Promise<McpRoot[]>;
  /** A connection started listening for roots changes (it may list the roots from now on). */
  rootsWatched?(): void;
  log: Log;
  /** Level asked of servers that log (default `info`). */
  logLevel?: McpLogLevel;
}

/** One run of one server (from start to stop or restart): its surface, its calls in flight and its log ring. */
export interface ServerClient {
  readonly surface: ClientSurface;
  /** Records a tool call in flight until the disposer runs; elicitations meanwhile are asked in its session. */
  track(call: CallContext): Disposer;
}

/**
 * The client side of every MCP server (MCP-12, MCP-13): elicitation requests as pending requests on the approval broker
 * (shown in the tool call's card), each server's log ring, and the roots.
 */
export interface ClientHub {
  /** A new run of server `name`: its log ring starts empty ("cleared on restart"). */
  forServer(name: string): ServerClient;
  /** Forgets a stopped server's logs (it was removed or restarted). */
  forget(name: string): void;
  elicitations(): McpElicitationView[];
  /** Answers a pending elicitation; an accepted form is checked (defaults applied) first, and a bad one changes nothing. */
  answer(input: unknown): void;
  logs(input: unknown): McpLogs;
  /** Asks a running server for another level now (`logging/setLevel`), and on its reconnects until it restarts. */
  setLogLevel(input: unknown): Promise<McpLogs>;
  /** The roots changed: every connection sends `notifications/roots/list_changed`. */
  rootsChanged(): void;
  /** Whether any connection listens for roots changes (none: there is nobody to tell). */
  watchingRoots(): boolean;
  readonly logLevel: McpLogLevel;
  readonly live: Pick<LiveSources, "elicitations" | "mcpLogs">;
}

interface Run {
  ring: LogRing;
  level: McpLogLevel | null;
  supported: boolean;
  wanted: McpLogLevel | null;
  setter: ((level: McpLogLevel) => Promise<McpLogLevel | null>) | null;
}

export function createClientHub(deps: ClientHubDeps): ClientHub {
  const runs = new Map<string, Run>();
  const logListeners = new Set<(e: McpLogEvent) => void>();
  const rootWatchers = new Set<() => void>();
  const emitLog = (e: McpLogEvent) => {
    for (const fn of [...logListeners]) fn(e);
  };
  const level = deps.logLevel ?? "info";
  const elicitations = () => deps.broker.pending<McpElicitationView>(ELICITATION_KIND).map((r) => r.view);
  const changes = createChanges(elicitations, { throttleMs: 0 });
  deps.broker.onChange(() => changes.changed());

  function forServer(name: string): ServerClient {
    const run: Run = { ring: new LogRing(), level: null, supported: false, wanted: null, setter: null };
    const hadLogs = runs.get(name)?.ring.size;
    runs.set(name, run);
    if (hadLogs) emitLog({ server: name, cleared: true });
    const calls: CallContext[] = [];

    /** The newest call still running: with several in flight, the request cannot say which it belongs to. */
    const currentCall = () => [...calls].reverse().find((c) => !c.signal.aborted);

    const surface: ClientSurface = {
      async elicit(ask: ElicitationAsk, signal: AbortSignal): Promise<ElicitationReply> {
        const call = currentCall();
        if (!call) {
          deps.log.warn(`mcp ${name}: declined an elicitation request outside any tool call`);
          return { action: "decline", reason: NO_SESSION_REASON };
        }
        const resume = call.pauseDeadline?.();
        try {
          return await deps.broker.ask<McpElicitationView, ElicitationReply>({
            kind: ELICITATION_KIND,
            sessionId: call.sessionId,
            about: ABOUT,
            view: (id, requestedAt) => ({
              id, kind: ELICITATION_KIND, sessionId: call.sessionId, callId: call.callId, server: name, tool: call.tool, mode: ask.mode,
              message: ask.message,
              requestedSchema: ask.mode === "form" ? ask.requestedSchema : null,
              url: ask.mode === "url" ? ask.url : null,
              elicitationId: ask.mode === "url" ? ask.elicitationId : null,
              requestedAt,
            }),
          }, AbortSignal.any([signal, call.signal]));
        } catch (error) {
          // Withdrawn: the turn stopped or ended, the call was cancelled or the server went away.
          return { action: "cancel", reason: messageOf(error) };
        } finally {
          resume?.();
        }
      },
      completed(elicitationId) {
        // The server saw the browser step finish: its card is answered for the person (accept), if still open.
        const open = elicitations().find((v) => v.server === name && v.mode === "url" && v.elicitationId === elicitationId);
        if (open) deps.broker.answer(open.id, { action: "accept" } satisfies ElicitationReply, ABOUT);
      },
      roots: () => deps.roots(),
      watchRoots(fn) {
        rootWatchers.add(fn);
        deps.rootsWatched?.();
        return () => void rootWatchers.delete(fn);
      },
      log(message) {
        const entry = run.ring.push(message);
        emitLog({ server: name, entry });
      },
      logLevel(next) {
        run.level = next;
        run.supported = next !== null;
      },
      wantedLogLevel: () => run.wanted ?? level,
      levelSetter(fn) {
        run.setter = fn;
        return () => {
          if (run.setter === fn) run.setter = null;
        };
      },
    };
    return {
      surface,
      track(call) {
        calls.push(call);
        return () => {
          const i = calls.indexOf(call);
          if (i >= 0) calls.splice(i, 1);
        };
      },
    };
  }

  return {
    forServer,
    forget(name) {
      if (runs.get(name)?.ring.size) emitLog({ server: name, cleared: true });
      runs.delete(name);
    },
    elicitations,
    answer(input) {
      const parsed = McpElicitationAnswer.safeParse(input);
      if (!parsed.success) throw new HostError("bad_input:mcp", `Invalid answer: ${formatIssues(issuesOf(parsed.error))}`, { issues: issuesOf(parsed.error) });
      const a = parsed.data;
      if (deps.broker.pending().some((r) => r.id === a.id && r.kind !== ELICITATION_KIND)) {
        throw new HostError("not_found:mcp", "No such request for input: that id is another kind of request.", { reason: "not_found" });
      }
      const view = elicitations().find((v) => v.id === a.id);
      let reply: ElicitationReply;
      if (a.action !== "accept") reply = { action: a.action };
      else if (view?.mode === "form") {
        const check = prepareElicitAnswer(elicitFields(view.requestedSchema).fields, a.content);
        if (!check.ok) {
          const fields = Object.entries(check.errors).map(([field, message]) => `${field}: ${message}`).join("; ");
          throw new HostError("bad_input:mcp", `The form has problems, fix them and accept again: ${fields}`, { reason: "invalid_form", errors: check.errors });
        }
        reply = { action: "accept", content: check.content };
      } else reply = { action: "accept" };
      // An unknown, already answered or withdrawn id is refused by the broker with what happened.
      deps.broker.answer(a.id, reply, ABOUT);
    },
    logs(input) {
      const parsed = McpLogsInput.safeParse(input);
      if (!parsed.success) throw new HostError("bad_input:mcp", `Invalid logs query: ${formatIssues(issuesOf(parsed.error))}`, { issues: issuesOf(parsed.error) });
      const run = runs.get(parsed.data.name);
      if (!run) return { server: parsed.data.name, level: null, supported: false, entries: [] };
      return { server: parsed.data.name, level: run.level, supported: run.supported, entries: run.ring.list(parsed.data.minLevel) };
    },
    async setLogLevel(input) {
      const parsed = McpSetLogLevelInput.safeParse(input);
      if (!parsed.success) throw new HostError("bad_input:mcp", `Invalid log level: ${formatIssues(issuesOf(parsed.error))}`, { issues: issuesOf(parsed.error) });
      const { name, level: wanted } = parsed.data;
      const run = runs.get(name);
      if (!run) throw new HostError("not_found:mcp", `The MCP server "${name}" is not running: start it, then choose its log level.`, { name });
      if (!run.supported) {
        throw new HostError("bad_input:mcp", `The MCP server "${name}" does not declare logging (or is not connected yet), so it cannot be asked for a level.`, { reason: "logging_unsupported" });
      }
      run.wanted = wanted;
      if (run.setter) {
        try {
          run.level = await run.setter(wanted);
        } catch (error) {
          throw new HostError("unavailable:mcp", `The MCP server "${name}" refused logging/setLevel ${wanted}: ${messageOf(error)}. Its previous level stays.`, { reason: "mcp_request_failed" });
        }
      }
      return { server: name, level: run.level, supported: run.supported, entries: run.ring.list() };
    },
    rootsChanged() {
      for (const fn of [...rootWatchers]) fn();
    },
    watchingRoots: () => rootWatchers.size > 0,
    logLevel: level,
    live: {
      elicitations: (signal) => changes.snapshots(signal),
      mcpLogs: (signal) => iterateEvents<McpLogEvent>((fn) => {
        const entry = (e: McpLogEvent) => void fn(e);
        logListeners.add(entry);
        return () => void logListeners.delete(entry);
      }, signal, 1_000),
    },
  };
}
