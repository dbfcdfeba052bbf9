/**
 * A long session as an export file (`session.importJson`, format `seam.session` v1), for tests and benches of
 * the paged timeline (CTX-4). Turns of 10 items: the user's message, one tool call, eight assistant replies.
 * Texts are numbered by item: "User message #1", "Reply #3"… (compact, so 5,000 items stay under the
 * import limit of 1,000,000 characters).
 */
export function longSessionExport(opts: { items: number; title?: string; workspace: string }): string {
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
  const turns: unknown[] = [];
  const items: unknown[] = [];
  for (let seq = 1; seq <= opts.items; seq++) {
    const k = Math.floor((seq - 1) / 10);
    const turnId = `t${k}`;
    const pos = (seq - 1) % 10;
    if (pos === 0) {
      const last = Math.min(opts.items, seq + 9);
      turns.push({ id: turnId, status: "completed", steps: 2, reason: null, mode: "model", inputTokens: null, outputTokens: null, startedAt: at(seq), endedAt: at(last) });
    }
    const base = { id: `i${seq}`, seq, turnId, createdAt: at(seq) };
    if (pos === 0) items.push({ ...base, kind: "message", role: "user", text: `User message #${seq}`, state: "complete" });
    else if (pos === 1) items.push({ ...base, kind: "tool_call", callId: `c${seq}`, name: "list_dir", args: {}, status: "ok", rendered: "a.txt", error: null, startedAt: at(seq), endedAt: at(seq) });
    else items.push({ ...base, kind: "message", role: "assistant", text: `Reply #${seq}`, state: "complete" });
  }
  return JSON.stringify({
    format: "seam.session", version: 1, exportedAt: at(0),
    session: { title: opts.title ?? `${opts.items} items`, workspace: opts.workspace, mode: null, createdAt: at(0) },
    turns, items,
  });
}
