"use client";
import type { ExtensionPackageView, ExtensionVersionSummary } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { KeyRoundIcon, LoaderCircleIcon } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataRow, DataTable, type Column } from "@/components/ui/data-table";
import { ExpandButton } from "@/components/ui/expand-button";
import { relativeTime } from "@/lib/time";
import { useNow } from "@/lib/use-now";
import { useTRPC } from "@/trpc/react";
import { DecisionChip } from "./decision-chip";
import { PackageVersions } from "./package-versions";
import { messageOf } from "./use-extensions";

const COLUMNS: Column[] = [
  { header: "Package" },
  { header: "Session" },
  { header: "Versions", className: "text-right" },
  { header: "Latest" },
  { header: "Grant" },
  { header: "Last decision" },
];

/** Every package of every session (EXT-2, EXT-6); a row opens its versions. */
export function PackagesTable({ packages, selected, onSelect }: { packages: ExtensionPackageView[]; selected: string | null; onSelect: (id: string | null) => void }) {
  const now = useNow(30_000);
  return (
    <DataTable
      testId="extension-packages-table"
      columns={COLUMNS}
      rows={packages}
      rowKey={(p) => p.id}
      row={(p) => <PackageRow pkg={p} open={selected === p.id} now={now} onToggle={() => onSelect(selected === p.id ? null : p.id)} />}
      detail={(p) =>
        selected === p.id && (
          // Zero intrinsic width: long source lines scroll inside instead of widening the table.
          <div className="w-0 min-w-full">
            <PackageVersions pkg={p} />
          </div>
        )
      }
      detailCellClassName="bg-muted/20"
    />
  );
}

function PackageRow({ pkg, open, now, onToggle }: { pkg: ExtensionPackageView; open: boolean; now: number; onToggle: () => void }) {
  const latest = pkg.versions[pkg.versions.length - 1];
  const last = lastDecision(pkg.versions);
  return (
    <DataRow data-testid="extension-package" data-package={pkg.name} data-package-id={pkg.id} open={open}>
      <td className="py-2 pr-3 pl-2">
        <ExpandButton data-testid="extension-package-toggle" open={open} onClick={onToggle} className="py-0.5 font-mono text-[13px] font-medium hover:bg-muted hover:text-foreground">
          {pkg.name}
        </ExpandButton>
      </td>
      <td className="max-w-56 px-3 py-2">
        <Link href={`/s/${pkg.sessionId}`} className="block truncate text-primary hover:underline" title={pkg.sessionTitle}>
          {pkg.sessionTitle || "Untitled session"}
        </Link>
      </td>
      <td className="px-3 py-2 text-right tabular-nums">{pkg.versions.length}</td>
      <td className="px-3 py-2">
        {latest ? (
          <span className="flex flex-col">
            <span className="font-mono">v{latest.version}</span>
            <span className="text-[11.5px] text-muted-foreground">{relativeTime(latest.createdAt, now)}</span>
          </span>
        ) : (
          <span className="text-muted-foreground">–</span>
        )}
      </td>
      <td className="px-3 py-2">
        <GrantCell pkg={pkg} now={now} />
      </td>
      <td className="px-3 py-2">
        {last ? (
          <span className="flex flex-wrap items-center gap-1.5">
            <DecisionChip decision={last.decision} />
            <span className="text-[11.5px] text-muted-foreground">
              v{last.version} · {relativeTime(last.decision.at, now)}
            </span>
          </span>
        ) : (
          <span className="text-[12px] text-muted-foreground">never asked</span>
        )}
      </td>
    </DataRow>
  );
}

function GrantCell({ pkg, now }: { pkg: ExtensionPackageView; now: number }) {
  const trpc = useTRPC();
  const revoke = useMutation(trpc.extensions.revokeGrant.mutationOptions());
  if (!pkg.grant) return <span className="text-[12px] text-muted-foreground">none</span>;
  return (
    <div className="flex flex-col items-start gap-1">
      <span className="flex flex-wrap items-center gap-1.5">
        <Badge tone="accent" data-testid="extension-grant">
          <KeyRoundIcon /> future versions allowed
        </Badge>
        <Button
          variant="outline"
          size="xs"
          data-testid="extension-revoke-grant"
          disabled={revoke.isPending}
          onClick={() => revoke.mutate({ packageId: pkg.id })}
        >
          {revoke.isPending && <LoaderCircleIcon className="animate-spin" />}
          Revoke
        </Button>
      </span>
      <span className="text-[11.5px] text-muted-foreground">
        since v{pkg.grant.fromVersion} · {relativeTime(pkg.grant.grantedAt, now)}
      </span>
      {revoke.error && (
        <span role="alert" className="text-[12px] text-destructive">
          Could not revoke: {messageOf(revoke.error)}. Try again.
        </span>
      )}
    </div>
  );
}

function lastDecision(versions: ExtensionVersionSummary[]) {
  let best: { version: number; decision: NonNullable<ExtensionVersionSummary["decision"]> } | null = null;
  for (const v of versions) {
    if (v.decision && (!best || v.decision.at > best.decision.at)) best = { version: v.version, decision: v.decision };
  }
  return best;
}
