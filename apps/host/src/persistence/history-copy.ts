/** Writes a whole session history at once: a fork's prefix or an imported export (CTX-5). */
import { randomUUID } from "node:crypto";
import type { TimelineItem, TurnInfo } from "@seam/shared";
import { HostError } from "../core/errors.js";
import type { Prisma } from "../generated/prisma/client.js";
import { toJson } from "./errors.js";
import { sessionRow, type SessionRow } from "./rows.js";

/** A history to write: turns and items keep their source ids only to link items to turns; all get new ids. */
export interface HistoryInput {
  title: string;
  workspace: string;
  mode: SessionRow["mode"];
  turns: Omit<TurnInfo, "sessionId">[];
  /** In seq order; each seq is kept as it is (so the fork's order is the source's). */
  items: TimelineItem[];
}

const date = (iso: string, what: string) => {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) throw new HostError("bad_input:session", `${what} is not a date: "${iso}".`, { reason: "bad_date" });
  return d;
};

/** Inside one transaction: the session, its turns, its items; nothing is left behind when any row fails. */
export async function writeHistory(t: Prisma.TransactionClient, h: HistoryInput): Promise<SessionRow> {
  const lastSeq = h.items.reduce((max, i) => Math.max(max, i.seq), 0);
  const s = await t.session.create({ data: { title: h.title, workspace: h.workspace, mode: h.mode, lastSeq } });
  const sessionId = s.id;
  // Ids are made here so every table is written with one createMany (a few statements, not one per row).
  const turnIds = new Map(h.turns.map((turn) => [turn.id, randomUUID()]));
  await t.turn.createMany({
    data: h.turns.map((turn) => ({
      id: turnIds.get(turn.id)!, sessionId, status: turn.status, mode: turn.mode, steps: turn.steps, reason: turn.reason,
      inputTokens: turn.inputTokens, outputTokens: turn.outputTokens,
      startedAt: date(turn.startedAt, "A turn's start"), endedAt: turn.endedAt === null ? null : date(turn.endedAt, "A turn's end"),
    })),
  });
  const turnOf = (id: string | null) => {
    if (id === null) return null;
    const mapped = turnIds.get(id);
    if (!mapped) throw new HostError("bad_input:session", `An item refers to turn ${id}, which the history does not have.`, { reason: "unknown_turn" });
    return mapped;
  };
  const base = (item: TimelineItem) => ({ sessionId, turnId: turnOf(item.turnId), seq: item.seq });
  const messages = h.items.flatMap((item) => (item.kind === "message" ? [
    { ...base(item), role: item.role, text: item.text, state: item.state, createdAt: date(item.createdAt, "A message's time") },
  ] : []));
  const calls = h.items.flatMap((item) => (item.kind === "tool_call" ? [{
    ...base(item), callId: item.callId, name: item.name, argsJson: toJson(item.args ?? null, "tool call arguments"), status: item.status,
    canonicalJson: item.canonical === undefined || item.canonical === null ? null : toJson(item.canonical, "tool result"),
    rendered: item.rendered, errorCode: item.error?.code ?? null, errorMessage: item.error?.message ?? null,
    startedAt: date(item.startedAt, "A tool call's start"), endedAt: item.endedAt === null ? null : date(item.endedAt, "A tool call's end"),
  }] : []));
  const facts = h.items.flatMap((item) => (item.kind === "fact" ? [{
    ...base(item), kind: item.factKind, text: item.text, createdAt: date(item.createdAt, "A fact's time"),
    payloadJson: item.payload === undefined || item.payload === null ? null : toJson(item.payload, "fact payload"),
  }] : []));
  if (messages.length > 0) await t.message.createMany({ data: messages });
  if (calls.length > 0) await t.toolCall.createMany({ data: calls });
  if (facts.length > 0) await t.fact.createMany({ data: facts });
  return sessionRow(s);
}
