"use client";
import type { PermissionMode, PermissionSettings } from "@seam/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { FieldHint, Label, NativeSelect } from "@/components/ui/input";
import { useSettingsForm } from "@/lib/use-settings-form";
import { useTRPC } from "@/trpc/react";
import { SaveBar } from "../settings/save-bar";
import { QueryNotice, SectionCard } from "../shell/section-card";
import { MODES, modeExplain } from "./modes";

/** The mode of every session that has not chosen its own (PERM-1). */
export function DefaultModeSection() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.permissions.settings.queryOptions());
  return (
    <SectionCard
      headingId="default-mode-heading"
      title="Default mode"
      description="What sessions do before they run an edit, a command or an MCP tool, unless a session picks its own mode in its header."
      data-testid="default-mode-section"
    >
      <div className="px-5 py-5">
        <QueryNotice query={settings} what="the permission settings" />
        {settings.data && <DefaultModeForm settings={settings.data} />}
      </div>
    </SectionCard>
  );
}

function DefaultModeForm({ settings }: { settings: PermissionSettings }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const save = useMutation(trpc.permissions.setSettings.mutationOptions());
  const form = useSettingsForm({
    initial: { mode: settings.defaultMode },
    parse: (d: { mode: PermissionMode }) => ({ ok: true as const, value: d }),
    save: (v) => save.mutateAsync({ defaultMode: v.mode }),
    onSaved: (saved) => {
      queryClient.setQueryData(trpc.permissions.settings.queryKey(), saved);
      return { mode: saved.defaultMode };
    },
  });
  return (
    <form onSubmit={form.submit} className="flex flex-col gap-4">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={id}>Mode</Label>
        <NativeSelect
          id={id}
          data-testid="default-mode-select"
          value={form.draft.mode}
          onChange={(e) => form.update({ mode: e.target.value as PermissionMode })}
          className="max-w-xs"
        >
          {MODES.map((m) => (
            <option key={m.mode} value={m.mode}>
              {m.label}
            </option>
          ))}
        </NativeSelect>
        <FieldHint>{modeExplain(form.draft.mode)}</FieldHint>
      </div>
      <SaveBar name="default-mode" pending={form.pending} saved={form.saved} error={form.error ? `Not saved: ${form.error.message}` : null} />
    </form>
  );
}
