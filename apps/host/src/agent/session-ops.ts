/**
 * Session operations (CTX-5): fork at an item, edit a past user message (fork before it and resend),
 * retry the last turn, export as Markdown or JSON, import a JSON export as a new session, search
 * across all sessions.
 */
import {
  formatIssues, MCP_RESOURCES_FACT, McpResourcesFactPayload, SESSION_EXPORT_FORMAT, SESSION_EXPORT_VERSION, SessionExport, SessionImportInput, SessionSearchInput,
  type SearchHit, type SessionEditInput, type SessionExportFile, type SessionForkInput, type SessionInfo, type SessionSendInput, type TimelineItem, type TurnInfo,
} from "@seam/shared";
import { HostError } from "../core/errors.js";
import type { HistoryInput, SessionRow, Store } from "../persistence/store.js";
import { sessionMarkdown } from "./session-markdown.js";

export interface OpsDeps {
  store: Store;
  requireSession(id: string): Promise<SessionRow>;
  /** The real path of an existing folder, or bad_input:session. */
  canonicalWorkspace(path: string): Promise<string>;
  runningTurn(sessionId: string): string | null;
  send(input: SessionSendInput): Promise<{ turnId: string }>;
  /** A session was created: announce it and return its info. */
  created(row: SessionRow): SessionInfo;
  remove(id: string): Promise<void>;
}

export interface SessionOps {
  /** A new session "<title> (fork)" holding the history up to and including `itemId` (finished turns only). */
  fork(input: SessionForkInput): Promise<SessionInfo>;
  /**
   * A new session "<title> (fork)" holding the history before the user message `itemId` — the fork
   * `editAndResend` makes, without sending ("Restore to here", CTX-5).
   */
  forkBefore(sessionId: string, itemId: string): Promise<SessionInfo>;
  /** Forks before the user message `itemId` and sends `text` in the fork. */
  editAndResend(input: SessionEditInput): Promise<{ session: SessionInfo; turnId: string }>;
  /** Sends the session's last user message again (a `/call` turn runs the same call). */
  retry(sessionId: string): Promise<{ turnId: string }>;
  exportMarkdown(sessionId: string): Promise<SessionExportFile>;
  exportJson(sessionId: string): Promise<SessionExportFile>;
  /** A new session from an exported JSON text; nothing is created when any part of it is refused. */
  importJson(input: SessionImportInput): Promise<SessionInfo>;
  /** Full-text search over every session's messages and tool calls (or one session's): best match first, then the most recent. */
  search(input: SessionSearchInput): Promise<SearchHit[]>;
}

const TITLE_MAX = 200;
const forkTitle = (title: string) => `${title.slice(0, TITLE_MAX - " (fork)".length)} (fork)`;
const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "session";
const bad = (message: string, reason: string) => new HostError("bad_input:session", message, { reason });
const withoutSession = (turn: TurnInfo): Omit<TurnInfo, "sessionId"> => {
  const copy: Partial<TurnInfo> = { ...turn };
  delete copy.sessionId;
  return copy as Omit<TurnInfo, "sessionId">;
};

/** The MCP resources attached to user message `message` (its turn's `mcp_resources` fact), as send attachments. */
function attachmentsOf(items: TimelineItem[], message: TimelineItem): { server: string; uri: string }[] {
  const fact = items.find((i) => i.kind === "fact" && i.factKind === MCP_RESOURCES_FACT && i.turnId !== null && i.turnId === message.turnId && i.seq > message.seq);
  const payload = fact?.kind === "fact" ? McpResourcesFactPayload.safeParse(fact.payload) : null;
  return payload?.success ? payload.data.attachments.map(({ server, uri }) => ({ server, uri })) : [];
}

export function createSessionOps(d: OpsDeps): SessionOps {
  /** The items before (or through) `itemId` that belong to no running turn, and their turns. */
  const prefix = async (sessionId: string, itemId: string, through: boolean) => {
    const session = await d.requireSession(sessionId);
    const [items, turns] = await Promise.all([d.store.items.list(sessionId), d.store.turns.list(sessionId)]);
    const at = items.findIndex((i) => i.id === itemId);
    if (at < 0) throw new HostError("not_found:session", `Session ${sessionId} has no item ${itemId}; reload the session and pick a message again.`, { reason: "item_not_found" });
    const running = d.runningTurn(sessionId);
    const target = items[at]!;
    if (running && target.turnId === running) {
      throw new HostError("conflict:session", "That message belongs to the turn that is still running; wait for it to finish or stop it, then fork.", { reason: "turn_running" });
    }
    const kept = items.slice(0, through ? at + 1 : at).filter((i) => running === null || i.turnId !== running);
    const used = new Set(kept.map((i) => i.turnId));
    return { session, target, kept, turns: turns.filter((t) => used.has(t.id)) };
  };

  const copy = async (session: SessionRow, items: TimelineItem[], turns: TurnInfo[]) =>
    d.created(await d.store.sessions.createWithHistory({
      title: forkTitle(session.title), workspace: session.workspace, mode: session.mode, turns: turns.map(withoutSession), items,
    }));

  const exportDoc = async (sessionId: string): Promise<SessionExport> => {
    const session = await d.requireSession(sessionId);
    const [items, turns] = await Promise.all([d.store.items.list(sessionId), d.store.turns.list(sessionId)]);
    return {
      format: SESSION_EXPORT_FORMAT, version: SESSION_EXPORT_VERSION, exportedAt: new Date().toISOString(),
      session: { title: session.title, workspace: session.workspace, mode: session.mode, createdAt: session.createdAt },
      turns: turns.map(withoutSession), items,
    };
  };

  return {
    async fork(input) {
      const { session, kept, turns } = await prefix(input.sessionId, input.itemId, true);
      return copy(session, kept, turns);
    },
    async forkBefore(sessionId, itemId) {
      const { session, target, kept, turns } = await prefix(sessionId, itemId, false);
      if (target.kind !== "message" || target.role !== "user") throw bad("Only a user message can start a fork before it; pick one of your messages.", "not_user_message");
      return copy(session, kept, turns);
    },
    async editAndResend(input) {
      const { session, target, kept, turns } = await prefix(input.sessionId, input.itemId, false);
      if (target.kind !== "message" || target.role !== "user") throw bad("Only a user message can be edited; pick one of your messages.", "not_user_message");
      const fork = await copy(session, kept, turns);
      try {
        const { turnId } = await d.send({ sessionId: fork.id, text: input.text });
        return { session: fork, turnId };
      } catch (error) {
        await d.remove(fork.id).catch(() => {}); // the edit did not run: leave no half-made fork behind
        throw error;
      }
    },
    async retry(sessionId) {
      await d.requireSession(sessionId);
      if (d.runningTurn(sessionId)) throw new HostError("conflict:session", "A turn is still running in this session; stop it or wait for it to finish, then retry.", { reason: "turn_running" });
      const items = await d.store.items.list(sessionId);
      const last = items.findLast((i) => i.kind === "message" && i.role === "user");
      if (!last || last.kind !== "message") throw bad("This session has no message to retry yet; send one first.", "nothing_to_retry");
      // Resources attached to that message (MCP-9) are attached again, and read afresh.
      const attachments = attachmentsOf(items, last);
      return d.send({ sessionId, text: last.text, ...(attachments.length > 0 ? { attachments } : {}) });
    },
    async exportMarkdown(sessionId) {
      const doc = await exportDoc(sessionId);
      return { filename: `${slug(doc.session.title)}.md`, mimeType: "text/markdown", text: sessionMarkdown(doc) };
    },
    async exportJson(sessionId) {
      const doc = await exportDoc(sessionId);
      return { filename: `${slug(doc.session.title)}.seam.json`, mimeType: "application/json", text: JSON.stringify(doc, null, 2) };
    },
    async importJson(raw) {
      const input = SessionImportInput.safeParse(raw);
      if (!input.success) throw bad(formatIssues(input.error), "bad_import");
      const history = parseExport(input.data.text);
      const workspace = await d.canonicalWorkspace(input.data.workspace ?? history.workspace).catch((error: unknown) => {
        if (input.data.workspace !== undefined) throw error;
        throw bad(`The export's workspace ${history.workspace} does not exist on this machine; pick a workspace folder for the imported session.`, "workspace_missing");
      });
      return d.created(await d.store.sessions.createWithHistory({ ...history, workspace }));
    },
    async search(raw) {
      const input = SessionSearchInput.safeParse(raw);
      if (!input.success) throw bad(formatIssues(input.error), "bad_query");
      const { query, limit, sessionId } = input.data;
      if (sessionId !== undefined) await d.requireSession(sessionId);
      return d.store.search(query, { limit, ...(sessionId !== undefined && { sessionId }) });
    },
  };
}

/** An export's text → the history to write, or bad_input:session saying what is wrong. Running work is marked as cut short. */
export function parseExport(text: string): HistoryInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw bad(`The file is not JSON (${(error as Error).message}); pick a file made by "Export JSON".`, "bad_json");
  }
  const head = (typeof value === "object" && value !== null ? value : {}) as { format?: unknown; version?: unknown };
  if (head.format !== SESSION_EXPORT_FORMAT) throw bad(`The file is not a Seam session export (its "format" is not "${SESSION_EXPORT_FORMAT}").`, "not_an_export");
  if (head.version !== SESSION_EXPORT_VERSION) {
    throw bad(`The export is version ${JSON.stringify(head.version)}; this Seam reads version ${SESSION_EXPORT_VERSION}. Export it again from a matching Seam.`, "unsupported_version");
  }
  const parsed = SessionExport.safeParse(value);
  if (!parsed.success) throw bad(`The export is malformed: ${formatIssues(parsed.error)}`, "bad_import");
  const doc = parsed.data;
  const turnIds = new Set<string>();
  for (const t of doc.turns) {
    if (turnIds.has(t.id)) throw bad(`The export lists turn ${t.id} twice.`, "bad_import");
    turnIds.add(t.id);
  }
  const seqs = new Set<number>();
  for (const i of doc.items) {
    if (i.seq < 1 || seqs.has(i.seq)) throw bad(`The export's item ${i.id} has a repeated or invalid seq ${i.seq}.`, "bad_import");
    seqs.add(i.seq);
    if (i.turnId !== null && !turnIds.has(i.turnId)) throw bad(`The export's item ${i.id} refers to turn ${i.turnId}, which it does not list.`, "bad_import");
  }
  const cut = "was running when the session was exported";
  return {
    title: doc.session.title,
    workspace: doc.session.workspace,
    mode: doc.session.mode,
    turns: doc.turns.map((t) => (t.status === "running" ? { ...t, status: "interrupted", reason: cut, endedAt: t.endedAt ?? doc.exportedAt } : t)),
    items: [...doc.items].sort((a, b) => a.seq - b.seq).map((i): TimelineItem => {
      if (i.kind === "message" && i.state === "streaming") return { ...i, state: "interrupted" };
      if (i.kind === "tool_call" && i.status === "running") return { ...i, status: "cancelled", error: { code: "interrupted", message: cut }, endedAt: i.endedAt ?? i.startedAt };
      return i;
    }),
  };
}
