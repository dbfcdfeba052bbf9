"use client";
import type { PermissionRuleView } from "@seam/shared";
import { useQuery } from "@tanstack/react-query";
import { FolderIcon, GlobeIcon, MessageSquareIcon } from "lucide-react";
import Link from "next/link";
import { useMemo, type ReactNode } from "react";
import { DataTable } from "@/components/ui/data-table";
import { useTRPC } from "@/trpc/react";
import { QueryNotice, SectionCard } from "../shell/section-card";
import { RuleForm } from "./rule-form";
import { RuleRow, RULE_COLUMNS } from "./rule-row";

interface RuleGroup {
  key: string;
  scope: PermissionRuleView["scope"];
  title: ReactNode;
  rules: PermissionRuleView[];
}

const ORDER = { deny: 0, ask: 1, allow: 2 } as const;

/** Rules grouped by where they apply: global first, then each workspace, then each session. */
export function groupRules(rules: PermissionRuleView[]): RuleGroup[] {
  const groups = new Map<string, RuleGroup>();
  for (const r of rules) {
    const key = `${r.scope}:${r.owner ?? ""}`;
    let g = groups.get(key);
    if (!g) {
      const title =
        r.scope === "global" ? (
          "Everywhere"
        ) : r.scope === "workspace" ? (
          <span className="font-mono">{r.owner}</span>
        ) : (
          <Link href={`/s/${r.owner}`} className="hover:underline">
            {r.ownerLabel ?? r.owner}
          </Link>
        );
      g = { key, scope: r.scope, title, rules: [] };
      groups.set(key, g);
    }
    g.rules.push(r);
  }
  const rank = { global: 0, workspace: 1, session: 2 } as const;
  return [...groups.values()]
    .map((g) => ({ ...g, rules: [...g.rules].sort((a, b) => ORDER[a.action] - ORDER[b.action] || a.pattern.localeCompare(b.pattern)) }))
    .sort((a, b) => rank[a.scope] - rank[b.scope] || a.key.localeCompare(b.key));
}

const SCOPE_ICON = { global: GlobeIcon, workspace: FolderIcon, session: MessageSquareIcon } as const;
const SCOPE_NAME = { global: "Global", workspace: "Workspace", session: "Session" } as const;

/** Rules per scope (PERM-2, PERM-4): add, edit, remove; deny beats ask beats allow beats the mode. */
export function RulesSection() {
  const trpc = useTRPC();
  const rules = useQuery(trpc.permissions.rules.queryOptions());
  const groups = useMemo(() => groupRules(rules.data ?? []), [rules.data]);
  return (
    <SectionCard
      headingId="rules-heading"
      title="Rules"
      description="Patterns on a tool and its arguments, such as bash(npm test), bash(git diff:*), edit_file(src/**) or mcp__github__*. Deny beats ask, ask beats allow, and any rule beats the mode."
      data-testid="rules-section"
    >
      <div className="flex flex-col gap-5 px-5 py-5">
        <RuleForm />
        <QueryNotice query={rules} what="the rules" />
        {rules.data && groups.length === 0 && (
          <p data-testid="rules-empty" className="rounded-xl border border-dashed px-4 py-6 text-center text-[13px] leading-relaxed text-muted-foreground">
            No rules yet, so the mode alone decides. Add one above, or answer an approval card with “Always allow…” and its rule appears here.
          </p>
        )}
        {groups.map((g) => {
          const Icon = SCOPE_ICON[g.scope];
          return (
            <section key={g.key} data-testid="rule-group" data-scope={g.scope} aria-label={`${SCOPE_NAME[g.scope]} rules`} className="flex flex-col gap-2">
              <h3 className="flex min-w-0 items-center gap-1.5 text-[13px] font-medium">
                <Icon className="size-4 shrink-0 text-muted-foreground" />
                <span className="shrink-0 text-muted-foreground">{SCOPE_NAME[g.scope]}</span>
                {g.scope !== "global" && <span className="min-w-0 truncate">{g.title}</span>}
              </h3>
              <DataTable compact testId="rules-table" columns={RULE_COLUMNS} rows={g.rules} rowKey={(r) => r.id} row={(r) => <RuleRow rule={r} />} />
            </section>
          );
        })}
      </div>
    </SectionCard>
  );
}
