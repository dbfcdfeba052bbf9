"use client";
import type { ShellSandboxAvailability, ShellSandboxMode, ShellSettings, ShellSettingsView } from "@seam/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertTriangleIcon, CheckIcon, LoaderCircleIcon, RefreshCwIcon, XIcon } from "lucide-react";
import { Switch } from "radix-ui";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint } from "@/components/ui/input";
import { hostCodeOf } from "@/lib/host-error";
import { relativeTime } from "@/lib/time";
import { useInvalidate } from "@/lib/use-invalidate";
import { useNow } from "@/lib/use-now";
import { useSettingsForm } from "@/lib/use-settings-form";
import { cn } from "@/lib/utils";
import { useTRPC, useTRPCClient } from "@/trpc/react";
import { QueryNotice, SectionCard, StatusPill } from "../shell/section-card";
import { SaveBar } from "./save-bar";

/** The sandbox modes in the order shown, with what each means in one line. */
export const SANDBOX_MODES: readonly { mode: ShellSandboxMode; label: string; explain: string; sandboxed: boolean }[] = [
  { mode: "workspace-write", label: "Workspace write", explain: "Commands can change the workspace and a private /tmp; the rest of the disk is read-only and Seam's data is hidden.", sandboxed: true },
  { mode: "read-only", label: "Read-only", explain: "Commands can read but not change anything, the workspace included (a private /tmp still works).", sandboxed: true },
  { mode: "off", label: "Off", explain: "Commands run as your user, with everything your user can reach — no sandbox.", sandboxed: false },
];

/** "bubblewrap 0.8.0 works", or why it cannot run. */
export function availabilityText(a: ShellSandboxAvailability): string {
  if (a.available) return `${a.version ?? "bubblewrap"} works`;
  return a.reason ?? "bubblewrap cannot run here.";
}

/** Settings → Shell (CODE-4): the sandbox for bash, network inside it, and whether bubblewrap works here. */
export function ShellSection() {
  const trpc = useTRPC();
  const view = useQuery(trpc.shell.settings.queryOptions());
  const a = view.data?.availability;
  return (
    <SectionCard
      id="shell"
      data-testid="shell-section"
      className="mt-6 scroll-mt-6"
      headingId="shell-heading"
      title="Shell"
      description={
        <>
          Where <span className="font-mono text-[12.5px]">bash</span> commands run. A sandbox (bubblewrap) keeps them inside the workspace and away from
          Seam&apos;s data and secrets.
        </>
      }
      status={a && (a.available ? <StatusPill tone="success">Sandbox available</StatusPill> : <StatusPill tone="warning">No sandbox</StatusPill>)}
    >
      <div className="px-5 py-5">
        <QueryNotice query={view} what="the shell settings" />
        {view.data && <ShellForm view={view.data} />}
      </div>
    </SectionCard>
  );
}

function ShellForm({ view }: { view: ShellSettingsView }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  const key = trpc.shell.settings.queryKey();
  const probe = useMutation(
    trpc.shell.probe.mutationOptions({
      onSuccess: (availability) => {
        queryClient.setQueryData(key, (v) => (v ? { ...v, availability } : v));
        invalidate(trpc.capabilities.list.queryKey());
      },
    }),
  );
  return (
    <ShellSettingsForm
      view={view}
      save={(value) => client.shell.setSettings.mutate(value)}
      onSaved={(next) => {
        queryClient.setQueryData(key, next);
        invalidate(trpc.capabilities.list.queryKey());
      }}
      probing={probe.isPending}
      probeError={probe.error?.message ?? null}
      onProbe={() => probe.mutate()}
    />
  );
}

export interface ShellSettingsFormProps {
  view: ShellSettingsView;
  save: (value: ShellSettings) => Promise<ShellSettingsView>;
  onSaved?: (next: ShellSettingsView) => void;
  probing: boolean;
  probeError: string | null;
  onProbe: () => void;
}

/** The form itself: sandbox mode, network, the availability line with "Check again", Save. */
export function ShellSettingsForm({ view, save, onSaved, probing, probeError, onProbe }: ShellSettingsFormProps) {
  const a = view.availability;
  const form = useSettingsForm({
    initial: () => ({ ...view.settings }),
    parse: (d: ShellSettings) => ({ ok: true as const, value: d }),
    save,
    onSaved: (next: ShellSettingsView) => {
      onSaved?.(next);
      return { ...next.settings };
    },
  });
  const { draft } = form;
  const groupId = useId();
  const now = useNow(30_000);
  const savedBroken = view.settings.sandbox !== "off" && !a.available;
  const code = hostCodeOf(form.error);
  return (
    <form onSubmit={form.submit} noValidate className="flex flex-col gap-5" data-testid="shell-form">
      <div
        data-testid="shell-availability"
        data-available={a.available}
        role="status"
        className={cn("flex flex-wrap items-start gap-x-3 gap-y-1.5 rounded-lg px-3 py-2 text-[13px]", a.available ? "bg-success-soft/60" : "bg-warning-soft/60")}
      >
        <span className={cn("flex min-w-0 flex-1 items-start gap-1.5", a.available ? "text-success" : "text-warning")}>
          {a.available ? <CheckIcon className="mt-0.5 size-4 shrink-0" /> : <XIcon className="mt-0.5 size-4 shrink-0" />}
          <span className="min-w-0">
            <span data-testid="shell-availability-text" className="font-medium">
              {availabilityText(a)}
            </span>
            <span className="block text-[11.5px] text-muted-foreground">
              <span className="font-mono">{a.path}</span> · checked {relativeTime(a.checkedAt, now)}
            </span>
          </span>
        </span>
        <Button type="button" variant="outline" size="xs" data-testid="shell-probe" disabled={probing} onClick={onProbe}>
          {probing ? <LoaderCircleIcon className="animate-spin" /> : <RefreshCwIcon />}
          {probing ? "Checking…" : "Check again"}
        </Button>
        {probeError && (
          <p data-testid="shell-probe-error" role="alert" className="basis-full text-[12.5px] text-destructive">
            The check could not run: {probeError}
          </p>
        )}
      </div>

      {savedBroken && (
        <p data-testid="shell-saved-broken" className="flex items-start gap-1.5 rounded-lg border border-warning/40 px-3 py-2 text-[12.5px] text-warning">
          <AlertTriangleIcon className="mt-0.5 size-3.5 shrink-0" />
          <span>
            The saved sandbox ({view.settings.sandbox}) cannot run right now, so bash refuses commands rather than run them unsandboxed. Fix bubblewrap and
            press Check again, or choose Off.
          </span>
        </p>
      )}

      <fieldset className="flex flex-col gap-2" aria-describedby={`${groupId}-hint`}>
        <legend className="mb-1.5 text-[13px] font-medium">Sandbox</legend>
        {SANDBOX_MODES.map((m) => {
          const disabled = m.sandboxed && !a.available;
          return (
            <label
              key={m.mode}
              data-testid="shell-sandbox-option"
              data-mode={m.mode}
              data-disabled={disabled || undefined}
              className={cn(
                "flex items-start gap-2.5 rounded-lg border px-3 py-2 transition-colors",
                draft.sandbox === m.mode ? "border-primary/50 bg-primary-soft/30" : "hover:bg-muted/50",
                disabled ? "cursor-not-allowed opacity-60" : "cursor-pointer",
              )}
            >
              <input
                type="radio"
                name={`${groupId}-sandbox`}
                value={m.mode}
                data-testid={`shell-sandbox-${m.mode}`}
                checked={draft.sandbox === m.mode}
                disabled={disabled}
                onChange={() => form.update({ sandbox: m.mode })}
                className="mt-1 accent-primary"
              />
              <span className="min-w-0">
                <span className="text-[13.5px] font-medium">{m.label}</span>
                <span className="ml-1.5 font-mono text-[11.5px] text-muted-foreground">{m.mode}</span>
                <span className="block text-[12.5px] text-muted-foreground">{m.explain}</span>
                {disabled && (
                  <span data-testid="shell-sandbox-disabled-reason" className="block text-[12px] text-warning">
                    Not available: {a.reason ?? "bubblewrap cannot run here."}
                  </span>
                )}
              </span>
            </label>
          );
        })}
        <FieldHint id={`${groupId}-hint`}>
          Seam never falls back to running a command unsandboxed: if the chosen sandbox cannot start, bash refuses and says why.
        </FieldHint>
      </fieldset>

      <div className="flex items-start justify-between gap-4">
        <div>
          <span className="text-[13px] font-medium">Network inside the sandbox</span>
          <FieldHint className="mt-0.5">
            {draft.sandbox === "off"
              ? "Only applies inside a sandbox; without one, commands reach the network like any program of yours."
              : draft.network
                ? "On: package installs, git fetch and documentation lookups work."
                : "Off: commands get their own empty network (no loopback either); anything that downloads fails."}
          </FieldHint>
        </div>
        <label className="flex shrink-0 cursor-pointer items-center gap-2 text-[12.5px] text-muted-foreground">
          {draft.network ? "On" : "Off"}
          <Switch.Root
            data-testid="shell-network"
            aria-label="Network inside the sandbox"
            checked={draft.network}
            disabled={draft.sandbox === "off"}
            onCheckedChange={(network) => form.update({ network })}
            className="relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full bg-input transition-colors disabled:cursor-not-allowed disabled:opacity-50 aria-checked:bg-primary"
          >
            <Switch.Thumb className="block size-4 translate-x-0.5 rounded-full bg-background shadow-sm transition-transform data-[state=checked]:translate-x-[18px]" />
          </Switch.Root>
        </label>
      </div>

      {view.source === "default" && (
        <p className="text-[12.5px] text-muted-foreground">Nothing is saved yet: these are the defaults for this machine.</p>
      )}

      <SaveBar
        name="shell"
        pending={form.pending}
        saved={form.saved}
        code={code ?? (form.error ? "error" : undefined)}
        errorClassName="max-w-xl"
        error={form.error ? `Not saved — ${form.error.message}` : null}
      />
    </form>
  );
}
