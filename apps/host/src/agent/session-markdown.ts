/** A session as readable Markdown (CTX-5 export): messages, tool calls with arguments and results, facts as notes. */
import { COMPACTION_FAILED_FACT, CompactionFailedPayload, CONTEXT_PRUNED_FACT, ContextPrunedPayload, type FactItem, type SessionExport, type TimelineItem } from "@seam/shared";

/** A fence longer than any run of backticks in `text`, so a result holding ``` cannot close it early. */
const fence = (text: string) => "`".repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
const block = (text: string, lang = "") => {
  const f = fence(text);
  return `${f}${lang}\n${text}\n${f}`;
};
const quote = (text: string) => text.split("\n").map((line) => (line ? `> ${line}` : ">")).join("\n");

function itemMarkdown(item: TimelineItem): string {
  if (item.kind === "message") {
    const who = item.role === "user" ? "User" : "Assistant";
    const note = item.state === "complete" ? "" : ` (${item.state})`;
    return `## ${who}${note}\n\n${item.text || "_(empty)_"}`;
  }
  if (item.kind === "tool_call") {
    const parts = [`### Tool call \`${item.name}\` — ${item.status}`, "Arguments:", block(JSON.stringify(item.args ?? {}, null, 2), "json")];
    if (item.error) parts.push(`Error \`${item.error.code}\`: ${item.error.message}`);
    if (item.rendered !== null) parts.push("Result:", block(item.rendered));
    return parts.join("\n\n");
  }
  const text = item.text || recordText(item);
  return text === null ? "" : quote(`**Note (${item.factKind}):** ${text}`);
}

/** Facts without model-visible text are records for the UI: the ones people care about are told in words, the rest left out. */
function recordText(fact: FactItem): string | null {
  if (fact.factKind === COMPACTION_FAILED_FACT) {
    const p = CompactionFailedPayload.safeParse(fact.payload);
    return `Compaction failed; the history was left as it was.${p.success ? ` ${p.data.reason}` : ""}`;
  }
  if (fact.factKind === CONTEXT_PRUNED_FACT) {
    const p = ContextPrunedPayload.safeParse(fact.payload);
    return p.success ? `${p.data.itemIds.length} old tool result${p.data.itemIds.length === 1 ? "" : "s"} replaced by stubs in the model's view.` : "Old tool results replaced by stubs in the model's view.";
  }
  return null;
}

export function sessionMarkdown(doc: SessionExport): string {
  const head = [
    `# ${doc.session.title}`,
    "",
    `- Workspace: \`${doc.session.workspace}\``,
    `- Created: ${doc.session.createdAt}`,
    `- Exported: ${doc.exportedAt}`,
    `- Turns: ${doc.turns.length}, items: ${doc.items.length}`,
  ].join("\n");
  return [head, ...doc.items.map(itemMarkdown).filter(Boolean)].join("\n\n") + "\n";
}
