"use client";
import {
  SKILL_INVOCATION_FACT, SKILLS_CATALOG_FACT, SkillInvocationPayload, SkillsCatalogPayload, type FactItem,
} from "@seam/shared";
import { BookOpenIcon, InfoIcon, SparklesIcon } from "lucide-react";
import Link from "next/link";
import { memo, type ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { compactionRow } from "./compaction-facts";
import { FactShell, ModelText } from "./fact-shell";
import { MarkdownText } from "./markdown";
import { mcpFactRow } from "./mcp-facts";
import { prettyJson } from "./tool-summary";

const LABELS: Record<string, string> = {
  compaction: "Context compacted",
  auxiliary: "Auxiliary request",
  // MCP-9: resources attached to the message above, and an MCP prompt run as the user's message.
  mcp_resources: "Attached MCP resources",
  mcp_prompt: "From an MCP prompt",
};

function label(kind: string): string {
  return LABELS[kind] ?? kind.replace(/[_-]+/g, " ").replace(/^\w/, (c) => c.toUpperCase());
}

export { FactShell, ModelText } from "./fact-shell";

/** Facts (skills catalog, skill invocations, auxiliary requests): a slim grey row that expands; compaction has its own rows. */
export const FactRow = memo(function FactRow({ fact }: { fact: FactItem }) {
  if (fact.factKind === SKILLS_CATALOG_FACT) {
    const payload = SkillsCatalogPayload.safeParse(fact.payload);
    if (payload.success) return <SkillsCatalogFact fact={fact} names={payload.data.names} />;
  }
  if (fact.factKind === SKILL_INVOCATION_FACT) {
    const payload = SkillInvocationPayload.safeParse(fact.payload);
    if (payload.success) return <SkillInvocationFact fact={fact} payload={payload.data} />;
  }
  // CTX-2: the compaction divider, a failed compaction's warning, pruned results; MCP-9: attached resources, prompts.
  return compactionRow(fact) ?? mcpFactRow(fact) ?? <GenericFact fact={fact} />;
});

function SectionLabel({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-2">
      <span className="text-[11px] font-medium uppercase tracking-wide">{children}</span>
      {action}
    </div>
  );
}

/** SKL-6: the catalog the model was shown before a step; an empty list is an explicit replacement. */
function SkillsCatalogFact({ fact, names }: { fact: FactItem; names: string[] }) {
  const cleared = names.length === 0;
  return (
    <FactShell
      fact={fact}
      icon={BookOpenIcon}
      title={cleared ? "Skills catalog cleared" : `Skills available (${names.length})`}
      summary={cleared ? "earlier skills can no longer be loaded" : names.join(", ")}
    >
      {cleared ? (
        <p className="leading-relaxed">The model was told that no skills are available any more.</p>
      ) : (
        <div className="space-y-1.5">
          <SectionLabel>Skills the model can load</SectionLabel>
          <ul className="flex flex-wrap gap-1" aria-label="Skills in the catalog">
            {names.map((n) => (
              <li key={n} data-testid="skills-catalog-name" className="rounded-md bg-muted px-1.5 py-0.5 font-mono text-[11.5px] text-foreground/85">
                {n}
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="space-y-1.5">
        <SectionLabel action={<CopyButton text={fact.text} />}>What the model saw</SectionLabel>
        <ModelText text={fact.text} />
      </div>
      <Link href="/skills" className="inline-block text-[12px] text-primary hover:underline">
        Where these come from → Skills
      </Link>
    </FactShell>
  );
}

/** The skill's own instructions inside the `<skill_content>` framing, for the rendered view. */
export function skillBody(text: string): string {
  const usageEnd = text.indexOf("</usage>");
  const start = usageEnd >= 0 ? usageEnd + "</usage>".length : 0;
  const end = text.lastIndexOf("</skill_content>");
  return text.slice(start, end > start ? end : undefined).trim();
}

/** SKL-8: `/name args` loaded a skill; its instructions follow the user's message. */
function SkillInvocationFact({ fact, payload }: { fact: FactItem; payload: SkillInvocationPayload }) {
  const body = skillBody(fact.text);
  return (
    <FactShell fact={fact} icon={SparklesIcon} title={`Skill /${payload.name} loaded`} summary={payload.args || undefined}>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5">
        <dt>Source</dt>
        <dd className="min-w-0 truncate font-mono text-[11.5px] text-foreground/85" title={payload.path ?? undefined}>
          {payload.source}
          {payload.path && <span className="text-muted-foreground"> · {payload.path}</span>}
        </dd>
        {payload.args && (
          <>
            <dt>Arguments</dt>
            <dd className="min-w-0 break-words font-mono text-[11.5px] text-foreground/85">{payload.args}</dd>
          </>
        )}
      </dl>
      <Tabs defaultValue="rendered">
        <div className="flex items-center justify-between gap-2">
          <TabsList>
            <TabsTrigger value="rendered">Instructions</TabsTrigger>
            <TabsTrigger value="raw" data-testid="fact-row-raw-tab">
              As the model saw it
            </TabsTrigger>
          </TabsList>
          <CopyButton text={fact.text} />
        </div>
        <TabsContent value="rendered" className="mt-2">
          <div data-testid="skill-invocation-body" className="scroll-thin max-h-96 overflow-auto rounded-md border bg-card px-3 py-1 text-foreground [&_.prose]:text-[13.5px]">
            <MarkdownText text={body} />
          </div>
        </TabsContent>
        <TabsContent value="raw" className="mt-2">
          <ModelText text={fact.text} />
        </TabsContent>
      </Tabs>
    </FactShell>
  );
}

function GenericFact({ fact }: { fact: FactItem }) {
  const firstLine = fact.text.split("\n").find((l) => l.trim()) ?? "";
  const hasPayload = fact.payload !== null && fact.payload !== undefined;
  return (
    <FactShell fact={fact} icon={InfoIcon} title={label(fact.factKind)} summary={firstLine || undefined}>
      {fact.text && <ModelText text={fact.text} />}
      {hasPayload && (
        <pre className="scroll-thin max-h-72 overflow-auto rounded-md bg-muted p-2 font-mono text-[11.5px] leading-relaxed">
          {prettyJson(fact.payload)}
        </pre>
      )}
    </FactShell>
  );
}
