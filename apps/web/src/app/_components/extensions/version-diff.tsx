"use client";
import type { ExtensionPackageView } from "@seam/shared";
import { useQuery } from "@tanstack/react-query";
import { ArrowRightIcon, LoaderCircleIcon } from "lucide-react";
import { useId, useState } from "react";
import { Label, NativeSelect } from "@/components/ui/input";
import { useTRPC } from "@/trpc/react";
import { HALF_LABEL } from "./half-source";
import { SourceDiff } from "./source-diff";
import { messageOf } from "./use-extensions";

/** Diff any two versions of a package, half by half (EXT-2). Defaults to the last change. */
export function VersionDiff({ pkg }: { pkg: ExtensionPackageView }) {
  const trpc = useTRPC();
  const id = useId();
  const versions = pkg.versions.map((v) => v.version);
  const latest = versions[versions.length - 1] ?? 1;
  const [from, setFrom] = useState(versions[versions.length - 2] ?? latest);
  const [to, setTo] = useState(latest);
  const before = useQuery({ ...trpc.extensions.source.queryOptions({ packageId: pkg.id, version: from }), staleTime: Number.POSITIVE_INFINITY });
  const after = useQuery({ ...trpc.extensions.source.queryOptions({ packageId: pkg.id, version: to }), staleTime: Number.POSITIVE_INFINITY });
  const error = before.error ?? after.error;

  return (
    <section data-testid="extension-version-diff" className="flex flex-col gap-3 rounded-lg border bg-card p-3">
      <div className="flex flex-wrap items-end gap-2">
        <VersionSelect id={`${id}-from`} label="Diff from" testId="extension-diff-from" versions={versions} value={from} onChange={setFrom} />
        <ArrowRightIcon className="mb-2 size-4 text-muted-foreground" />
        <VersionSelect id={`${id}-to`} label="to" testId="extension-diff-to" versions={versions} value={to} onChange={setTo} />
      </div>
      {from === to ? (
        <p className="text-[12.5px] text-muted-foreground">Pick two different versions to see what changed.</p>
      ) : error ? (
        <p role="alert" className="text-[12.5px] text-destructive">
          Could not load the sources to compare: {messageOf(error)}. Reload the page and try again.
        </p>
      ) : !before.data || !after.data ? (
        <p className="flex items-center gap-2 text-[12.5px] text-muted-foreground">
          <LoaderCircleIcon className="size-3.5 animate-spin" /> Loading both versions…
        </p>
      ) : (
        (["host", "browser"] as const).map((half) => {
          const a = half === "host" ? before.data.hostCode : before.data.browserCode;
          const b = half === "host" ? after.data.hostCode : after.data.browserCode;
          if (a === null && b === null) return null;
          return (
            <div key={half} className="flex flex-col gap-1.5">
              <span className="text-[12px] font-medium">
                {HALF_LABEL[half]}
                <span className="font-normal text-muted-foreground">
                  {a === null ? ` · only in v${to}` : b === null ? ` · only in v${from}` : ` · v${from} → v${to}`}
                </span>
              </span>
              <SourceDiff before={a ?? ""} after={b ?? ""} testId={`${half}-diff`} />
            </div>
          );
        })
      )}
    </section>
  );
}

function VersionSelect(props: { id: string; label: string; testId: string; versions: number[]; value: number; onChange: (v: number) => void }) {
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={props.id}>{props.label}</Label>
      <NativeSelect id={props.id} data-testid={props.testId} className="h-8 w-28 text-[13px]" value={props.value} onChange={(e) => props.onChange(Number(e.target.value))}>
        {props.versions.map((v) => (
          <option key={v} value={v}>
            v{v}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
