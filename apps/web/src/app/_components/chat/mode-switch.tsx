"use client";
import type { PermissionMode, SessionInfo } from "@seam/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckIcon, ChevronDownIcon, LoaderCircleIcon, ShieldIcon } from "lucide-react";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { cn } from "@/lib/utils";
import { useTRPC } from "@/trpc/react";
import { MODES, modeExplain, modeLabel, modeSwitchLabel } from "../permissions/modes";

export interface ModeMenuProps {
  /** The session's own mode; null follows the default. */
  mode: PermissionMode | null;
  defaultMode: PermissionMode | undefined;
  pending: boolean;
  error: string | null;
  onChange: (mode: PermissionMode | null) => void;
}

/** Plan · Ask · Auto-edit · Auto, each with its one-line explanation, and "follow the default". */
export function ModeMenu({ mode, defaultMode, pending, error, onChange }: ModeMenuProps) {
  const effective = mode ?? defaultMode;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        data-testid="mode-switch"
        data-mode={mode ?? "default"}
        aria-label={`Permission mode: ${modeSwitchLabel(mode, defaultMode)}`}
        title={error ?? (effective ? modeExplain(effective) : undefined)}
        className={cn(
          "inline-flex shrink-0 cursor-pointer items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs transition-colors hover:bg-muted data-[state=open]:bg-muted",
          error && "border-destructive/50 text-destructive",
          effective === "auto" && "border-warning/50",
          effective === "plan" && "border-primary/40",
        )}
      >
        {pending ? <LoaderCircleIcon className="size-3.5 animate-spin" /> : <ShieldIcon className="size-3.5 text-muted-foreground" />}
        <span data-testid="mode-switch-label">{modeSwitchLabel(mode, defaultMode)}</span>
        <ChevronDownIcon className="size-3 text-muted-foreground" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-80" data-testid="mode-menu">
        {MODES.map((m) => (
          <DropdownMenuItem key={m.mode} data-testid={`mode-option-${m.mode}`} onSelect={() => onChange(m.mode)} className="items-start">
            <CheckIcon className={cn("mt-0.5", mode === m.mode ? "opacity-100" : "opacity-0")} />
            <span className="flex flex-col">
              <span className="font-medium">{m.label}</span>
              <span className="text-[12px] text-muted-foreground">{m.explain}</span>
            </span>
          </DropdownMenuItem>
        ))}
        <div className="my-1 h-px bg-border" />
        <DropdownMenuItem data-testid="mode-option-default" onSelect={() => onChange(null)} className="items-start">
          <CheckIcon className={cn("mt-0.5", mode === null ? "opacity-100" : "opacity-0")} />
          <span className="flex flex-col">
            <span className="font-medium">Follow the default{defaultMode ? ` (${modeLabel(defaultMode)})` : ""}</span>
            <span className="text-[12px] text-muted-foreground">The mode set on the Permissions page for every session without its own.</span>
          </span>
        </DropdownMenuItem>
        {error && (
          <p role="alert" className="px-2 py-1.5 text-[12px] text-destructive">
            {error}
          </p>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** The chat header's mode switch: calls `session.setMode` and updates the session list with the answer. */
export function ModeSwitch({ session }: { session: SessionInfo }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.permissions.settings.queryOptions());
  const setMode = useMutation(
    trpc.session.setMode.mutationOptions({
      onSuccess: (s) => queryClient.setQueryData(trpc.session.list.queryKey(), (list) => list?.map((x) => (x.id === s.id ? s : x))),
    }),
  );
  return (
    <ModeMenu
      mode={session.mode}
      defaultMode={settings.data?.defaultMode}
      pending={setMode.isPending}
      error={setMode.error ? `Could not change the mode: ${setMode.error.message}` : null}
      onChange={(mode) => setMode.mutate({ sessionId: session.id, mode })}
    />
  );
}
