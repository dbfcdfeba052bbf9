"use client";
import type { ExtensionPackageView, ExtensionVersionSummary } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { ChevronRightIcon, KeyRoundIcon, LoaderCircleIcon } from "lucide-react";
import Link from "next/link";
import { Fragment } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { relativeTime } from "@/lib/time";
import { useNow } from "@/lib/use-now";
import { cn } from "@/lib/utils";
import { useTRPC } from "@/trpc/react";
import { DecisionChip } from "./decision-chip";
import { PackageVersions } from "./package-versions";
import { messageOf } from "./use-extensions";

const COLUMNS = 6;

/** Every package of every session (EXT-2, EXT-6); a row opens its versions. */
export function PackagesTable({ packages, selected, onSelect }: { packages: ExtensionPackageView[]; selected: string | null; onSelect: (id: string | null) => void }) {
  const now = useNow(30_000);
  return (
    <div className="overflow-x-auto rounded-xl border bg-card">
      <table data-testid="extension-packages-table" className="w-full border-collapse text-[13px]">
        <thead>
          <tr className="border-b bg-muted/50 text-left text-[12px] text-muted-foreground">
            <th className="py-2 pr-3 pl-3 font-medium">Package</th>
            <th className="px-3 py-2 font-medium">Session</th>
            <th className="px-3 py-2 text-right font-medium">Versions</th>
            <th className="px-3 py-2 font-medium">Latest</th>
            <th className="px-3 py-2 font-medium">Grant</th>
            <th className="px-3 py-2 font-medium">Last decision</th>
          </tr>
        </thead>
        <tbody>
          {packages.map((p) => {
            const open = selected === p.id;
            return (
              <Fragment key={p.id}>
                <PackageRow pkg={p} open={open} now={now} onToggle={() => onSelect(open ? null : p.id)} />
                {open && (
                  <tr className="border-b last:border-b-0">
                    <td colSpan={COLUMNS} className="bg-muted/20 p-0">
                      {/* Zero intrinsic width: long source lines scroll inside instead of widening the table. */}
                      <div className="w-0 min-w-full">
                        <PackageVersions pkg={p} />
                      </div>
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function PackageRow({ pkg, open, now, onToggle }: { pkg: ExtensionPackageView; open: boolean; now: number; onToggle: () => void }) {
  const latest = pkg.versions[pkg.versions.length - 1];
  const last = lastDecision(pkg.versions);
  return (
    <tr
      data-testid="extension-package"
      data-package={pkg.name}
      data-package-id={pkg.id}
      className={cn("border-b align-top last:border-b-0", open && "border-b-0 bg-muted/30")}
    >
      <td className="py-2 pr-3 pl-2">
        <button
          type="button"
          aria-expanded={open}
          data-testid="extension-package-toggle"
          onClick={onToggle}
          className="flex cursor-pointer items-center gap-1.5 rounded-md px-1 py-0.5 text-left font-mono text-[13px] font-medium hover:bg-muted"
        >
          <ChevronRightIcon className={cn("size-3.5 shrink-0 text-muted-foreground transition-transform", open && "rotate-90")} />
          {pkg.name}
        </button>
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
    </tr>
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
