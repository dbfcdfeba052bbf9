"use client";
import type { LspServerConfig, LspServerView } from "@seam/shared";
import { XIcon } from "lucide-react";
import { useId, useState, type ClipboardEvent, type KeyboardEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FormField, TextField, type FormFieldProps, type TextFieldProps } from "@/components/ui/field";
import { FieldError } from "@/components/ui/input";
import { hostCodeOf } from "@/lib/host-error";
import { useSettingsForm } from "@/lib/use-settings-form";
import { cn } from "@/lib/utils";
import { useTRPCClient } from "@/trpc/react";
import {
  describeField, extensionConflicts, hostErrorFields, normalizeExtension, parseDraft, parseInitOptions, parseSettings, splitExtensions,
  type LspDraft, type LspDraftErrors, type LspField,
} from "./lsp-draft";
import { useInvalidateLsp } from "./lsp-use";
import { ToolSwitch } from "./web-fields";

/**
 * Add or edit one language server (LSP-7). Validated with the shared schema before anything is sent;
 * the host's refusal (conflicting extensions, a command that does not resolve) lands next to its
 * field, and nothing is saved. `onSaved` runs only once the host confirmed.
 */
export function LspForm({
  mode,
  initial,
  servers,
  note,
  onSaved,
  onCancel,
}: {
  mode: "add" | "edit";
  initial: LspDraft;
  servers: readonly LspServerView[];
  note?: ReactNode;
  onSaved: (view: LspServerView) => void;
  onCancel: () => void;
}) {
  const client = useTRPCClient();
  const invalidate = useInvalidateLsp();
  const extId = useId();
  const form = useSettingsForm({
    initial,
    parse: parseDraft,
    save: (value: LspServerConfig) => (mode === "add" ? client.lsp.add.mutate(value) : client.lsp.update.mutate({ id: initial.id, config: value })),
    // Pending chip text becomes chips, so what is shown is what was sent.
    sent: (draft, value) => ({ ...draft, extensions: value.extensions, extensionInput: "" }),
    onSaved: (view) => {
      invalidate();
      onSaved(view);
    },
  });
  const { draft, update: change } = form;

  const hostErrors = form.error ? hostErrorFields(form.error) : {};
  const shown: LspDraftErrors = { ...form.errors, ...hostErrors };
  const err = (f: LspField) => shown[f];
  // A refused extension: name both servers — the one that has it and this one.
  const conflicts = hostErrors.extensions ? extensionConflicts(draft.extensions, initial.id, servers) : [];
  const fieldsWrong = FIELD_ORDER.filter((f) => shown[f]);
  const initState = draft.initOptions.trim() ? parseInitOptions(draft.initOptions) : null;
  const settingsState = draft.settings.trim() ? parseSettings(draft.settings) : null;

  return (
    <form
      onSubmit={form.submit}
      noValidate
      data-testid="lsp-form"
      data-mode={mode}
      className="flex flex-col gap-4 rounded-lg border border-primary/25 bg-muted/25 px-4 py-4"
    >
      <div className="flex items-baseline justify-between gap-3">
        <h3 className="text-[14px] font-semibold">{mode === "add" ? "Add a language server" : <>Edit <span className="font-mono text-[13px]">{initial.id}</span></>}</h3>
        <ToolSwitch testId="lsp-form-enabled" tool="This server" checked={draft.enabled} onChange={(enabled) => change({ enabled })} />
      </div>
      {note && <div className="rounded-md bg-muted/70 px-3 py-2 text-[12.5px] text-muted-foreground">{note}</div>}

      <div className="grid gap-3 sm:grid-cols-2">
        <LspText
          code
          label="Id"
          field="id"
          hint={mode === "edit" ? "The id cannot change; remove and add to rename." : "Lowercase letters, digits and '-', e.g. rust-analyzer."}
          testId="lsp-id"
          inputClassName="h-8 text-[12.5px]"
          {...form.field("id")}
          error={err("id")}
          readOnly={mode === "edit"}
          disabled={mode === "edit"}
          placeholder="rust-analyzer"
        />
        <LspText
          label="Label"
          field="label"
          hint="Optional, shown in this list."
          testId="lsp-label"
          inputClassName="h-8 text-[13px]"
          {...form.field("label")}
          error={err("label")}
          placeholder="Rust"
        />
      </div>

      <LspText
        code
        label="Command"
        field="command"
        hint="An executable on the host's PATH or an absolute path. It must speak LSP over stdio."
        testId="lsp-command"
        inputClassName="h-8 text-[12.5px]"
        {...form.field("command")}
        error={err("command")}
        placeholder="rust-analyzer"
      />

      <LspText
        code
        label="Arguments"
        field="args"
        hint="One per line, passed as they are — no shell, no quoting."
        testId="lsp-args"
        rows={Math.min(6, Math.max(2, draft.args.split("\n").length))}
        inputClassName="resize-y text-[12.5px] leading-relaxed"
        placeholder="--stdio"
        {...form.field("args")}
        error={err("args")}
      />

      <Field
        id={extId}
        label="File extensions"
        field="extensions"
        error={err("extensions")}
        hint="Files are routed by their last extension (foo.d.ts → .ts). Type and press Enter or comma; stored lowercase with a dot."
        extra={
          conflicts.length > 0 && (
            <ul data-testid="lsp-conflicts" className="flex flex-col gap-1 rounded-md bg-destructive-soft/50 px-2.5 py-1.5 text-[12px]">
              {conflicts.map((c) => (
                <li key={`${c.extension}:${c.server.config.id}`} className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
                  <span>
                    <span className="font-mono font-medium">{c.extension}</span> is already routed to{" "}
                    <span className="font-medium">{c.server.config.label || c.server.config.id}</span>
                    {c.server.config.label && <span className="font-mono text-muted-foreground"> ({c.server.config.id})</span>}
                  </span>
                  <Button
                    variant="link"
                    size="xs"
                    className="h-auto text-[12px]"
                    onClick={() => change({ extensions: draft.extensions.filter((x) => x !== c.extension) })}
                  >
                    Remove it from {draft.id || "this server"}
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      >
        <ExtensionChips
          id={extId}
          chips={draft.extensions}
          input={draft.extensionInput}
          invalid={Boolean(err("extensions"))}
          onChange={(extensions, extensionInput) => change({ extensions, extensionInput })}
        />
      </Field>

      <LspText
        code
        label="Initialization options"
        field="initOptions"
        hint={initState?.ok ? "Valid JSON object — sent as initializationOptions in initialize." : "Optional JSON object, sent as initializationOptions in initialize."}
        testId="lsp-init-options"
        rows={Math.min(10, Math.max(3, draft.initOptions.split("\n").length))}
        inputClassName="resize-y text-[12px] leading-relaxed"
        placeholder={'{\n  "tsserver": { "path": "/…/typescript/lib/tsserver.js" }\n}'}
        {...form.field("initOptions")}
        error={err("initOptions")}
        onBlur={() => {
          // Show a JSON mistake as soon as the field is left, not only on save.
          const r = parseInitOptions(draft.initOptions);
          if (!r.ok) form.showErrors({ initOptions: r.message });
        }}
      />

      <LspText
        code
        label="Settings"
        field="settings"
        hint={
          settingsState?.ok
            ? "Valid JSON object — the server's workspace/configuration requests are answered from it by section; saving restarts its processes."
            : "Optional JSON object. Servers ask for sections of it (\"python.analysis\" → python.analysis); it is also pushed after start. Saving restarts the server's processes."
        }
        testId="lsp-settings"
        rows={Math.min(10, Math.max(3, draft.settings.split("\n").length))}
        inputClassName="resize-y text-[12px] leading-relaxed"
        placeholder={'{\n  "python": { "analysis": { "extraPaths": ["vendor"] } }\n}'}
        {...form.field("settings")}
        error={err("settings")}
        onBlur={() => {
          const r = parseSettings(draft.settings);
          if (!r.ok) form.showErrors({ settings: r.message });
        }}
      />

      <LspText
        label="Idle timeout (minutes)"
        field="idleMinutes"
        hint="A workspace's server stops after this long without queries (default 10)."
        className="max-w-xs"
        testId="lsp-idle"
        type="number"
        inputMode="decimal"
        step="any"
        min={0}
        inputClassName="h-8 tabular-nums"
        {...form.field("idleMinutes")}
        error={err("idleMinutes")}
        placeholder="10"
      />

      <div className="flex flex-wrap items-center gap-2 border-t pt-3.5">
        <Button type="submit" size="sm" data-testid="lsp-save" disabled={form.pending}>
          {form.pending ? "Saving…" : mode === "add" ? "Add server" : "Save"}
        </Button>
        <Button type="button" size="sm" variant="ghost" data-testid="lsp-cancel" onClick={onCancel} disabled={form.pending}>
          Cancel
        </Button>
        {fieldsWrong.length > 0 || shown.form ? (
          <FieldError data-testid="lsp-form-error" data-field="form" data-code={hostCodeOf(form.error) ?? (form.error ? "error" : "invalid")} className="max-w-xl text-[12.5px]">
            {shown.form && fieldsWrong.length === 0
              ? `Not saved — ${shown.form}`
              : `Not saved — check ${fieldsWrong.map(describeField).join(", ")}.${shown.form ? ` ${shown.form}` : ""}`}
          </FieldError>
        ) : null}
      </div>
    </form>
  );
}

/** The form's fields top to bottom, for the summary next to Save. */
const FIELD_ORDER: LspField[] = ["id", "label", "command", "args", "extensions", "initOptions", "settings", "idleMinutes", "enabled"];

/** A field whose errors carry `lsp-form-error` and the field's name. */
function Field({ field, ...props }: Omit<FormFieldProps, "errorTestId" | "errorField"> & { field: LspField }) {
  return <FormField errorTestId="lsp-form-error" errorField={field} {...props} />;
}

function LspText({ field, ...props }: Omit<TextFieldProps, "errorTestId" | "errorField"> & { field: LspField }) {
  return <TextField errorTestId="lsp-form-error" errorField={field} {...props} />;
}


/** Extensions as removable chips; Enter, comma, space or leaving the field turns the typed text into chips. */
function ExtensionChips({
  id,
  chips,
  input,
  invalid,
  onChange,
}: {
  id: string;
  chips: string[];
  input: string;
  invalid: boolean;
  onChange: (chips: string[], input: string) => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);

  /** Turns `text` into chips; what cannot be one stays in the input with the reason. */
  const commit = (text: string) => {
    const next = [...chips];
    const rejected: string[] = [];
    let why: string | null = null;
    for (const raw of splitExtensions(text)) {
      const n = normalizeExtension(raw);
      if (!n.ok) {
        rejected.push(raw);
        why ??= n.message;
      } else if (!next.includes(n.value)) next.push(n.value);
    }
    setProblem(why);
    onChange(next, rejected.join(", "));
  };

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" || e.key === "," || e.key === " ") {
      e.preventDefault();
      if (input.trim()) commit(input);
    } else if (e.key === "Backspace" && input === "" && chips.length > 0) {
      onChange(chips.slice(0, -1), "");
    }
  };
  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const text = e.clipboardData.getData("text");
    if (/[\s,;]/.test(text)) {
      e.preventDefault();
      commit(`${input} ${text}`);
    }
  };

  return (
    <>
      <div
        className={cn(
          "flex min-h-8 flex-wrap items-center gap-1 rounded-lg border border-input bg-background px-1.5 py-1 shadow-xs focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/25",
          invalid && "border-destructive",
        )}
      >
        {chips.map((c) => (
          <span key={c} data-testid="lsp-extension-chip" className="inline-flex items-center gap-0.5 rounded-md bg-muted py-0.5 pr-0.5 pl-1.5 font-mono text-[12px]">
            {c}
            <button
              type="button"
              aria-label={`Remove ${c}`}
              onClick={() => onChange(chips.filter((x) => x !== c), input)}
              className="cursor-pointer rounded p-0.5 text-muted-foreground hover:bg-subtle hover:text-foreground"
            >
              <XIcon className="size-3" />
            </button>
          </span>
        ))}
        <input
          id={id}
          data-testid="lsp-extensions"
          value={input}
          placeholder={chips.length === 0 ? ".ts, .tsx" : ""}
          onChange={(e) => {
            setProblem(null);
            onChange(chips, e.target.value);
          }}
          onKeyDown={onKey}
          onPaste={onPaste}
          onBlur={() => input.trim() && commit(input)}
          aria-invalid={invalid || problem ? true : undefined}
          spellCheck={false}
          autoComplete="off"
          className="h-6 min-w-24 flex-1 bg-transparent px-1 font-mono text-[12.5px] outline-none placeholder:text-muted-foreground/70"
        />
      </div>
      {problem && !invalid && (
        <FieldError data-testid="lsp-form-error" data-field="extensions">
          {problem}
        </FieldError>
      )}
    </>
  );
}
