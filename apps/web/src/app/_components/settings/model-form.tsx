"use client";
import { COMPACT_AT_DEFAULT, COMPACT_AT_MAX, COMPACT_AT_MIN, DEFER_TOOLS_DEFAULT, type ModelProvider, type ModelStatus } from "@seam/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormField, TextField } from "@/components/ui/field";
import { FieldHint, NativeSelect } from "@/components/ui/input";
import { useInvalidate } from "@/lib/use-invalidate";
import { useSettingsForm } from "@/lib/use-settings-form";
import { cn } from "@/lib/utils";
import { useTRPC, useTRPCClient } from "@/trpc/react";
import { KeyStatus } from "./key-status";
import { draftFrom, parseDraft } from "./model-form-state";
import { PRESETS, PROVIDER_LABELS, type Preset } from "./presets";
import { SaveBar } from "./save-bar";

export function ModelForm({ status }: { status: ModelStatus }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  const providerId = useId();
  const modelInput = useRef<HTMLInputElement>(null);
  const [presetNote, setPresetNote] = useState<string | null>(null);
  const form = useSettingsForm({
    initial: () => draftFrom(status),
    parse: parseDraft,
    save: (value) => client.settings.setModel.mutate(value),
    onSaved: (next) => {
      queryClient.setQueryData(trpc.settings.model.queryKey(), next);
      invalidate(trpc.capabilities.list.queryKey(), trpc.tools.list.queryKey(), trpc.session.context.pathKey());
    },
  });
  const { draft, update, errors } = form;

  const applyPreset = (p: Preset) => {
    update({ provider: p.provider, baseURL: p.baseURL, model: p.model ?? "", apiKeyEnv: p.apiKeyEnv ?? "" });
    setPresetNote(p.model ? null : `${p.label}: enter the model id you want to use.${p.note ? ` ${p.note}` : ""}`);
    if (!p.model) setTimeout(() => modelInput.current?.focus(), 0);
  };

  const none = draft.provider === "none";
  const clientErrors = Object.values(errors).filter(Boolean);
  const serverError = form.error?.message ?? null;

  return (
    <form onSubmit={form.submit} noValidate className="flex flex-col gap-5">
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

      <FormField id={providerId} label="Provider">
        <NativeSelect
          id={providerId}
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
      </FormField>

      <div className={cn("flex flex-col gap-5", none && "opacity-60")}>
        <TextField
          code
          label="Base URL"
          testId="model-base-url"
          inputClassName="text-[13px]"
          placeholder="https://api.deepseek.com/v1"
          {...form.field("baseURL")}
        />
        <TextField
          code
          ref={modelInput}
          label="Model id"
          testId="model-id"
          inputClassName="max-w-sm text-[13px]"
          placeholder="e.g. deepseek-chat, gpt-4.1-mini, qwen2.5-coder"
          {...form.field("model")}
        />
        <TextField
          label="API key environment variable"
          hint={
            <>
              The <em>name</em> of a variable, never the key. Seam reads the key from the host&apos;s environment or from{" "}
              <code className="font-mono">$SEAM_HOME/secrets.json</code> (a JSON object of name → key, file mode 0600). Leave empty for
              local servers that need no key.
            </>
          }
          testId="model-key-env"
          inputClassName="max-w-sm text-[13px]"
          placeholder="DEEPSEEK_API_KEY"
          {...form.field("apiKeyEnv")}
          code
        />
        <KeyStatus status={status} />
      </div>

      <TextField
        label="Max steps per turn"
        hint="Model calls in one turn before Seam stops it (1–200)."
        testId="model-max-steps"
        type="number"
        min={1}
        max={200}
        inputClassName="w-28 tabular-nums"
        {...form.field("maxSteps")}
      />

      <TextField
        label="Context window (tokens)"
        optional
        hint={windowHint(status)}
        testId="model-context-window"
        inputMode="numeric"
        placeholder={status.window?.default ? String(status.window.default) : "e.g. 32768"}
        inputClassName="w-36 tabular-nums"
        {...form.field("contextWindow")}
      />

      <TextField
        label="Compact at (% of the window)"
        optional
        hint={`Before a model step whose request would reach this share of the context window, Seam prunes old large tool results and, if that is not enough, summarizes the earlier conversation (${COMPACT_AT_MIN}–${COMPACT_AT_MAX} %; empty: ${COMPACT_AT_DEFAULT} %). Type /compact in the chat to compact by hand.`}
        testId="model-compact-at"
        inputMode="numeric"
        placeholder={String(COMPACT_AT_DEFAULT)}
        inputClassName="w-20 tabular-nums"
        {...form.field("compactAt")}
      />

      <fieldset className="flex flex-col gap-2" data-testid="model-defer-tools">
        <legend className="text-[13px] font-medium">Deferred tools</legend>
        <FieldHint>
          When the tools pass either limit, MCP tools are left out of each request and the model finds the ones it needs with{" "}
          <code className="font-mono">tool_search</code>; the ones it loads stay for the rest of the session. Leave empty for the
          defaults ({DEFER_TOOLS_DEFAULT.maxTools} tools, {DEFER_TOOLS_DEFAULT.maxPercent}% of the window).
        </FieldHint>
        <div className="flex flex-wrap gap-4">
          <TextField
            label="Max tools"
            optional
            testId="model-defer-max-tools"
            inputMode="numeric"
            placeholder={String(DEFER_TOOLS_DEFAULT.maxTools)}
            inputClassName="w-28 tabular-nums"
            {...form.field("deferMaxTools")}
          />
          <TextField
            label="Max % of the window"
            optional
            testId="model-defer-max-percent"
            inputMode="decimal"
            placeholder={String(DEFER_TOOLS_DEFAULT.maxPercent)}
            inputClassName="w-28 tabular-nums"
            {...form.field("deferMaxPercent")}
          />
        </div>
      </fieldset>

      <SaveBar
        name="model"
        pending={form.pending}
        saved={form.saved}
        error={serverError ?? (clientErrors.length > 0 ? `Not saved — ${clientErrors.join("; ")}.` : null)}
      />
    </form>
  );
}

/** What the window field falls back to when left empty (CTX-1). */
function windowHint(status: ModelStatus): string {
  const known = status.window?.default ?? null;
  const base = "How many tokens the model reads at once; the chat header's meter measures against it.";
  return known === null
    ? `${base} No documented window is known for this model or endpoint: set it to what your server is configured for (e.g. Ollama's num_ctx, vLLM's --max-model-len).`
    : `${base} Leave empty for the documented ${known.toLocaleString("en-US")} tokens of the saved model.`;
}
