"use client";
import type { CapabilityRow } from "@seam/shared";
import { useQuery } from "@tanstack/react-query";
import { CheckIcon, MinusIcon, XIcon } from "lucide-react";
import { CodeChips } from "@/components/ui/badge";
import { DataRow, DataTable, type Column } from "@/components/ui/data-table";
import { cn } from "@/lib/utils";
import { useTRPC } from "@/trpc/react";

const FLAGS = [
  { key: "codePresent", label: "Code present" },
  { key: "configured", label: "Configured" },
  { key: "visible", label: "Visible to agent" },
  { key: "ready", label: "Ready now" },
] as const satisfies readonly { key: keyof CapabilityRow; label: string }[];

const COLUMNS: Column[] = [
  { header: "Capability" },
  ...FLAGS.map((f) => ({ header: f.label, className: "px-2 text-center whitespace-nowrap" })),
  { header: "Note" },
  { header: "Tools" },
];

export function CapabilitiesTable() {
  const trpc = useTRPC();
  const caps = useQuery({ ...trpc.capabilities.list.queryOptions(), refetchInterval: 10_000 });

  if (caps.isPending) return <p className="text-[13px] text-muted-foreground">Loading capabilities…</p>;
  if (caps.isError) return <p className="text-[13px] text-destructive">Could not load capabilities: {caps.error.message}</p>;

  return (
    <DataTable
      testId="capabilities-table"
      columns={COLUMNS}
      rows={caps.data}
      rowKey={(c) => c.id}
      empty="The host reports no capabilities."
      row={(c) => (
        <DataRow data-testid="capability-row" data-capability={c.id}>
          <td className="px-3 py-2.5">
            <div className="font-medium">{c.title}</div>
            <div className="font-mono text-[11.5px] text-muted-foreground">{c.id}</div>
          </td>
          {FLAGS.map((f) => (
            <td key={f.key} className="px-2 py-2.5 text-center">
              <Flag on={c[f.key]} label={f.label} planned={!c.codePresent} />
            </td>
          ))}
          <td className={cn("max-w-72 px-3 py-2.5 leading-relaxed", c.note ? "text-foreground/85" : "text-muted-foreground")}>
            {c.note ?? "—"}
          </td>
          <td className="px-3 py-2.5">
            {c.tools.length === 0 ? (
              <MinusIcon className="size-3.5 text-muted-foreground" aria-label="no tools" />
            ) : (
              <CodeChips names={c.tools} className="max-w-72" />
            )}
          </td>
        </DataRow>
      )}
    />
  );
}

/** A missing flag is red when something is wrong now, grey when the capability is simply not built yet. */
function Flag({ on, label, planned }: { on: boolean; label: string; planned: boolean }) {
  if (!on && planned) {
    return (
      <span className="inline-flex size-5 items-center justify-center rounded-full bg-muted text-muted-foreground" aria-label={`${label}: no`} data-flag="no">
        <XIcon className="size-3.5" />
      </span>
    );
  }
  return on ? (
    <span className="inline-flex size-5 items-center justify-center rounded-full bg-success-soft text-success" aria-label={`${label}: yes`} data-flag="yes">
      <CheckIcon className="size-3.5" />
    </span>
  ) : (
    <span className="inline-flex size-5 items-center justify-center rounded-full bg-destructive-soft text-destructive" aria-label={`${label}: no`} data-flag="no">
      <XIcon className="size-3.5" />
    </span>
  );
}
