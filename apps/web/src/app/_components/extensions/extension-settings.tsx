"use client";
import type { ExtensionSettings as Settings, ExtensionsSnapshot } from "@seam/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CheckIcon, LoaderCircleIcon } from "lucide-react";
import { Switch } from "radix-ui";
import { useId } from "react";
import { useTRPC } from "@/trpc/react";
import { messageOf } from "./use-extensions";

/** EXT-5: host-only runs ask by default; this switch lets them start without asking. */
export function ExtensionSettings({ settings }: { settings: Settings }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const save = useMutation(
    trpc.extensions.setSettings.mutationOptions({
      onSuccess: (next) =>
        queryClient.setQueryData<ExtensionsSnapshot>(trpc.extensions.snapshot.queryKey(), (s) => (s ? { ...s, settings: next } : s)),
    }),
  );
  const checked = save.isPending ? (save.variables?.autoApproveHostOnly ?? settings.autoApproveHostOnly) : settings.autoApproveHostOnly;

  return (
    <div className="flex flex-col gap-2 rounded-xl border bg-card px-4 py-3">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <label htmlFor={id} className="cursor-pointer text-[13.5px] font-medium">
            Run host-only extensions without asking
          </label>
          <p className="mt-0.5 text-[12.5px] leading-relaxed text-muted-foreground">
            An extension without a browser half then starts as soon as the model runs it. Anything with a browser half always asks.
            Host halves run in a locked-down worker with no file or network access of their own.
          </p>
        </div>
        <Switch.Root
          id={id}
          data-testid="extension-auto-approve-host-only"
          checked={checked}
          disabled={save.isPending}
          onCheckedChange={(on) => save.mutate({ autoApproveHostOnly: on })}
          className="relative mt-0.5 inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full bg-input transition-colors disabled:opacity-60 aria-checked:bg-primary"
        >
          <Switch.Thumb className="block size-4 translate-x-0.5 rounded-full bg-background shadow-sm transition-transform data-[state=checked]:translate-x-[18px]" />
        </Switch.Root>
      </div>
      {save.isPending && (
        <p className="flex items-center gap-1.5 text-[12px] text-muted-foreground">
          <LoaderCircleIcon className="size-3.5 animate-spin" /> Saving…
        </p>
      )}
      {save.isSuccess && (
        <p data-testid="extension-settings-saved" className="flex items-center gap-1.5 text-[12px] text-success">
          <CheckIcon className="size-3.5" /> Saved
        </p>
      )}
      {save.error && (
        <p role="alert" className="text-[12.5px] text-destructive">
          Could not save the setting: {messageOf(save.error)}. It is unchanged; try again.
        </p>
      )}
    </div>
  );
}
