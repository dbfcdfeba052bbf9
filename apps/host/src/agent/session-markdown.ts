/** A session as readable Markdown (CTX-5 export): messages, tool calls with arguments and results, facts as notes. */
import type { SessionExport, TimelineItem } from "@seam/shared";

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
  return quote(`**Note (${item.factKind}):** ${item.text}`);
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
  return [head, ...doc.items.map(itemMarkdown)].join("\n\n") + "\n";
}
