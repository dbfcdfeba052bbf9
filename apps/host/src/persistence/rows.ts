/** Prisma rows → the shared DTOs (dates as ISO strings, JSON columns parsed). */
import type { FactItem, MessageItem, SessionInfo, ToolCallItem, TurnInfo } from "@seam/shared";
import { HostError } from "../core/errors.js";
import type { Fact, Message, Session, ToolCall, Turn } from "../generated/prisma/client.js";
import { fromJson } from "./errors.js";

export type SessionRow = Omit<SessionInfo, "running" | "waiting">;

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

function oneOf<const T extends readonly string[]>(allowed: T, value: string, column: string): T[number] {
  if ((allowed as readonly string[]).includes(value)) return value as T[number];
  throw new HostError("internal:db", `unexpected ${column} "${value}" in the database`);
}

export const TURN_STATUSES = ["running", "completed", "stopped", "failed", "interrupted"] as const;
const MODES = ["model", "direct"] as const;
const ROLES = ["user", "assistant"] as const;
const MESSAGE_STATES = ["streaming", "complete", "interrupted"] as const;
const CALL_STATUSES = ["running", "ok", "error", "cancelled"] as const;

export const sessionRow = (s: Session): SessionRow => ({
  id: s.id,
  title: s.title,
  workspace: s.workspace,
  mode: s.mode === null ? null : oneOf(["plan", "ask", "auto-edit", "auto"] as const, s.mode, "Session.mode"),
  createdAt: iso(s.createdAt),
  updatedAt: iso(s.updatedAt),
});

export const turnInfo = (t: Turn): TurnInfo => ({
  id: t.id,
  sessionId: t.sessionId,
  status: oneOf(TURN_STATUSES, t.status, "Turn.status"),
  steps: t.steps,
  reason: t.reason,
  mode: oneOf(MODES, t.mode, "Turn.mode"),
  inputTokens: t.inputTokens,
  outputTokens: t.outputTokens,
  startedAt: iso(t.startedAt),
  endedAt: isoOrNull(t.endedAt),
});

export const messageItem = (m: Message): MessageItem => ({
  kind: "message",
  id: m.id,
  seq: m.seq,
  turnId: m.turnId,
  createdAt: iso(m.createdAt),
  role: oneOf(ROLES, m.role, "Message.role"),
  text: m.text,
  state: oneOf(MESSAGE_STATES, m.state, "Message.state"),
});

export const toolCallItem = (c: ToolCall): ToolCallItem => ({
  kind: "tool_call",
  id: c.id,
  seq: c.seq,
  turnId: c.turnId,
  createdAt: iso(c.startedAt),
  callId: c.callId,
  name: c.name,
  args: fromJson(c.argsJson),
  status: oneOf(CALL_STATUSES, c.status, "ToolCall.status"),
  canonical: fromJson(c.canonicalJson),
  rendered: c.rendered,
  error: c.errorCode === null ? null : { code: c.errorCode, message: c.errorMessage ?? "" },
  startedAt: iso(c.startedAt),
  endedAt: isoOrNull(c.endedAt),
});

export const factItem = (f: Fact): FactItem => ({
  kind: "fact",
  id: f.id,
  seq: f.seq,
  turnId: f.turnId,
  createdAt: iso(f.createdAt),
  factKind: f.kind,
  text: f.text,
  payload: fromJson(f.payloadJson),
});
