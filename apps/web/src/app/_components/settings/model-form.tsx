"use client";
import type { ModelProvider, ModelStatus } from "@seam/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CheckIcon } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FieldError, FieldHint, Input, Label, NativeSelect } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import { useTRPC } from "@/trpc/react";
import { KeyStatus } from "./key-status";
import { draftFrom, parseDraft, type DraftErrors, type ModelDraft } from "./model-form-state";
import { PRESETS, PROVIDER_LABELS, type Preset } from "./presets";

export function ModelForm({ status }: { status: ModelStatus }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ids = { provider: useId(), baseURL: useId(), model: useId(), key: useId(), steps: useId() };
  const [draft, setDraft] = useState<ModelDraft>(() => draftFrom(status));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [showErrors, setShowErrors] = useState(false);
  const [saved, setSaved] = useState(false);
  const [presetNote, setPresetNote] = useState<string | null>(null);

  const save = useMutation(
    trpc.settings.setModel.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.settings.model.queryKey(), next);
        void queryClient.invalidateQueries({ queryKey: trpc.capabilities.list.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.tools.list.queryKey() });
        setSaved(true);
      },
    }),
  );

  const update = (patch: Partial<ModelDraft>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    setSaved(false);
    if (save.error) save.reset();
    if (showErrors) {
      const r = parseDraft(next);
      setErrors(r.ok ? {} : r.errors);
    }
  };

  const applyPreset = (p: Preset) => {
    update({ provider: p.provider, baseURL: p.baseURL, model: p.model ?? "", apiKeyEnv: p.apiKeyEnv ?? "" });
    setPresetNote(p.model ? null : `${p.label}: enter the model id you want to use.${p.note ? ` ${p.note}` : ""}`);
    if (!p.model) setTimeout(() => document.getElementById(ids.model)?.focus(), 0);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = parseDraft(draft);
    setShowErrors(true);
    if (!r.ok) {
      setErrors(r.errors);
      setSaved(false);
      return;
    }
    setErrors({});
    save.mutate(r.value);
  };

  const none = draft.provider === "none";
  const clientErrors = Object.values(errors).filter(Boolean);
  const serverError = save.error?.message ?? null;

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <div className="flex flex-col gap-2">
        <span className="text-[13px] font-medium">Presets</span>
        <div className="flex flex-wrap gap-1.5">
          {PRESETS.map((p) => (
            <Button key={p.id} type="button" variant="outline" size="sm" data-testid="model-preset" data-preset={p.id} onClick={() => applyPreset(p)}>
              {p.label}
            </Button>
          ))}
        </div>
        {presetNote && <FieldHint>{presetNote}</FieldHint>}
      </div>

      <Field id={ids.provider} label="Provider">
        <NativeSelect
          id={ids.provider}
          data-testid="model-provider"
          value={draft.provider}
          onChange={(e) => update({ provider: e.target.value as ModelProvider })}
          className="max-w-xs"
        >
          {(Object.keys(PROVIDER_LABELS) as ModelProvider[]).map((p) => (
            <option key={p} value={p}>
              {PROVIDER_LABELS[p]}
            </option>
          ))}
        </NativeSelect>
        {none && <FieldHint>Without a model Seam runs in direct mode: you call tools yourself from the chat.</FieldHint>}
      </Field>

      <div className={cn("flex flex-col gap-5", none && "opacity-60")}>
        <Field id={ids.baseURL} label="Base URL" error={showErrors ? errors.baseURL : undefined}>
          <Input
            id={ids.baseURL}
            data-testid="model-base-url"
            className="font-mono text-[13px]"
            placeholder="https://api.deepseek.com/v1"
            value={draft.baseURL}
            onChange={(e) => update({ baseURL: e.target.value })}
            aria-invalid={showErrors && errors.baseURL ? true : undefined}
            spellCheck={false}
          />
        </Field>
        <Field id={ids.model} label="Model id" error={showErrors ? errors.model : undefined}>
          <Input
            id={ids.model}
            data-testid="model-id"
            className="max-w-sm font-mono text-[13px]"
            placeholder="e.g. deepseek-chat, gpt-4.1-mini, qwen2.5-coder"
            value={draft.model}
            onChange={(e) => update({ model: e.target.value })}
            aria-invalid={showErrors && errors.model ? true : undefined}
            spellCheck={false}
          />
        </Field>
        <Field
          id={ids.key}
          label="API key environment variable"
          error={showErrors ? errors.apiKeyEnv : undefined}
          hint={
            <>
              The <em>name</em> of a variable, never the key. Seam reads the key from the host&apos;s environment or from{" "}
              <code className="font-mono">$SEAM_HOME/secrets.json</code> (a JSON object of name → key, file mode 0600). Leave empty for
              local servers that need no key.
            </>
          }
        >
          <Input
            id={ids.key}
            data-testid="model-key-env"
            className="max-w-sm font-mono text-[13px]"
            placeholder="DEEPSEEK_API_KEY"
            value={draft.apiKeyEnv}
            onChange={(e) => update({ apiKeyEnv: e.target.value })}
            aria-invalid={showErrors && errors.apiKeyEnv ? true : undefined}
            spellCheck={false}
            autoComplete="off"
          />
        </Field>
        <KeyStatus status={status} />
      </div>

      <Field id={ids.steps} label="Max steps per turn" error={showErrors ? errors.maxSteps : undefined} hint="Model calls in one turn before Seam stops it (1–200).">
        <Input
          id={ids.steps}
          data-testid="model-max-steps"
          type="number"
          min={1}
          max={200}
          className="w-28 tabular-nums"
          value={draft.maxSteps}
          onChange={(e) => update({ maxSteps: e.target.value })}
          aria-invalid={showErrors && errors.maxSteps ? true : undefined}
        />
      </Field>

      <div className="flex flex-wrap items-center gap-3 border-t pt-4">
        <Button type="submit" data-testid="model-save" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </Button>
        {saved && !save.isPending && (
          <span data-testid="model-saved" role="status" className="inline-flex items-center gap-1 text-[13px] text-success">
            <CheckIcon className="size-4" /> Saved
          </span>
        )}
        {(serverError || (showErrors && clientErrors.length > 0)) && (
          <FieldError data-testid="model-error" className="text-[13px]">
            {serverError ?? `Not saved — ${clientErrors.join("; ")}.`}
          </FieldError>
        )}
      </div>
    </form>
  );
}

function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: React.ReactNode;
  error?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error ? <FieldError>{error}</FieldError> : hint ? <FieldHint>{hint}</FieldHint> : null}
    </div>
  );
}
