"use client";
import type { ExtensionPackageView, ExtensionVersionSummary } from "@seam/shared";
import { useQuery } from "@tanstack/react-query";
import { CodeIcon, LoaderCircleIcon } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { relativeTime } from "@/lib/time";
import { useNow } from "@/lib/use-now";
import { useTRPC } from "@/trpc/react";
import { DecisionChip } from "./decision-chip";
import { HALF_LABEL } from "./half-source";
import { SourceView } from "./source-diff";
import { messageOf } from "./use-extensions";
import { VersionDiff } from "./version-diff";

/** A package's immutable versions (EXT-2): newest first, each with its source one click away, and a diff of any two. */
export function PackageVersions({ pkg }: { pkg: ExtensionPackageView }) {
  const newestFirst = [...pkg.versions].reverse();
  return (
    <div data-testid="extension-versions" className="flex flex-col gap-4 px-4 py-3">
      <ol className="flex flex-col divide-y rounded-lg border bg-card">
        {newestFirst.map((v) => (
          <VersionRow key={v.version} packageId={pkg.id} version={v} />
        ))}
      </ol>
      {pkg.versions.length >= 2 && <VersionDiff pkg={pkg} />}
    </div>
  );
}

function VersionRow({ packageId, version: v }: { packageId: string; version: ExtensionVersionSummary }) {
  const now = useNow(30_000);
  const [open, setOpen] = useState(false);
  return (
    <li data-testid="extension-version" data-version={v.version} className="flex flex-col gap-2 px-3 py-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-[12.5px]">
        <span className="font-mono font-medium">v{v.version}</span>
        <span className="text-muted-foreground" title={new Date(v.createdAt).toLocaleString()}>
          {relativeTime(v.createdAt, now)}
        </span>
        <span className="font-mono text-[11.5px] text-muted-foreground" title={`sha256 ${v.hash}`} data-testid="extension-version-hash">
          {v.hash.slice(0, 10)}
        </span>
        <span className="flex gap-1">
          {v.hasHost && <Badge tone="outline">host</Badge>}
          {v.hasBrowser && <Badge tone="outline">browser</Badge>}
        </span>
        {v.decision ? <DecisionChip decision={v.decision} /> : <span className="text-[12px] text-muted-foreground">not decided</span>}
        <span className="flex-1" />
        <Button variant="outline" size="xs" data-testid="extension-view-source" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          <CodeIcon /> {open ? "Hide source" : "View source"}
        </Button>
      </div>
      {v.purpose && <p className="text-[12.5px] leading-relaxed text-muted-foreground">{v.purpose}</p>}
      {open && <VersionSource packageId={packageId} version={v.version} />}
    </li>
  );
}

function VersionSource({ packageId, version }: { packageId: string; version: number }) {
  const trpc = useTRPC();
  const source = useQuery({ ...trpc.extensions.source.queryOptions({ packageId, version }), staleTime: Number.POSITIVE_INFINITY });
  if (source.isPending) {
    return (
      <p className="flex items-center gap-2 text-[12.5px] text-muted-foreground">
        <LoaderCircleIcon className="size-3.5 animate-spin" /> Loading source…
      </p>
    );
  }
  if (source.isError) {
    return (
      <p role="alert" className="text-[12.5px] text-destructive">
        Could not load the source of v{version}: {messageOf(source.error)}. Reload the page and try again.
      </p>
    );
  }
  const halves = [
    ["host", source.data.hostCode],
    ["browser", source.data.browserCode],
  ] as const;
  return (
    <div className="flex flex-col gap-3">
      {halves.map(([half, code]) =>
        code === null ? null : (
          <section key={half} className="flex flex-col gap-1.5">
            <span className="text-[12px] font-medium">{HALF_LABEL[half]}</span>
            <SourceView code={code} testId={`${half}-source`} />
          </section>
        ),
      )}
    </div>
  );
}
