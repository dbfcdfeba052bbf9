"use client";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";

/** What a form's `parse` returns: the value to send, or messages by field. */
export type Parsed<V, E> = { ok: true; value: V } | { ok: false; errors: E };

/** Field (or field path) → message. */
export type FieldErrors = Partial<Record<string, string>>;

export interface SettingsFormOptions<D, V, E extends FieldErrors, R> {
  initial: D | (() => D);
  /** Validates a draft; runs on submit, then on every change once the user has tried to submit. */
  parse: (draft: D) => Parsed<V, E>;
  /** Sends the value to the host; the returned promise settles when the host confirms or refuses. */
  save: (value: V) => Promise<R>;
  /** The draft as it is sent (say, typed chip text turned into chips), shown while saving. */
  sent?: (draft: D, value: V) => D;
  /** Runs once the host confirmed. A returned draft (the host's normalized copy) replaces the draft unless it was edited meanwhile. */
  onSaved?: (result: R) => D | void;
  /** Runs when a submit stops at validation. */
  onInvalid?: (errors: E) => void;
}

export interface SettingsForm<D, E extends FieldErrors> {
  draft: D;
  /** Applies a change: clears "Saved" and the host's refusal, and re-validates once errors are shown. */
  update: (patch: Partial<D>) => void;
  /** Validation messages; empty until the first submit (or `showErrors`). */
  errors: E;
  /** Whether validation messages are shown (the user has tried to submit). */
  validating: boolean;
  pending: boolean;
  /** True only once the host confirmed the save of the draft as it stands. */
  saved: boolean;
  /** The host's refusal of the last save; the draft is kept. */
  error: Error | null;
  submit: (event?: FormEvent) => void;
  /** Shows messages before a submit, e.g. a JSON mistake when its field is left. */
  showErrors: (errors: E) => void;
  /** Value, change handler and message of one text field of the draft, to spread onto a TextField. */
  field: (key: TextKey<D>) => { value: string; onChange: (value: string) => void; error: string | undefined };
}

/** The draft's keys that hold text. */
export type TextKey<D> = { [K in keyof D]: D[K] extends string ? K : never }[keyof D] & string;

/**
 * Draft, validation, save and "Saved" for one settings form. Validation messages appear after the
 * first submit and then follow every change; "Saved" appears only once the host has confirmed, and a
 * refusal keeps the draft so nothing typed is lost.
 */
export function useSettingsForm<D, V, E extends FieldErrors, R>(options: SettingsFormOptions<D, V, E, R>): SettingsForm<D, E> {
  const [draft, setDraft] = useState<D>(options.initial);
  const [errors, setErrors] = useState<E>({} as E);
  const [validating, setValidating] = useState(false);
  const [saved, setSaved] = useState(false);
  // Counts edits, so a confirmation for an older draft neither shows "Saved" nor replaces newer typing.
  const edits = useRef(0);
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  const mutation = useMutation({
    mutationFn: ({ value }: { value: V; edit: number }) => latest.current.save(value),
    onSuccess: (result, { edit }) => {
      const next = latest.current.onSaved?.(result);
      if (edit !== edits.current) return;
      if (next !== undefined) setDraft(next);
      setSaved(true);
    },
  });

  const update = (patch: Partial<D>) => {
    const next = { ...draft, ...patch };
    edits.current += 1;
    setDraft(next);
    setSaved(false);
    if (mutation.error) mutation.reset();
    if (validating) {
      const r = options.parse(next);
      setErrors(r.ok ? ({} as E) : r.errors);
    }
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const r = options.parse(draft);
    setValidating(true);
    setSaved(false);
    if (!r.ok) {
      setErrors(r.errors);
      options.onInvalid?.(r.errors);
      return;
    }
    setErrors({} as E);
    if (options.sent) setDraft(options.sent(draft, r.value));
    mutation.mutate({ value: r.value, edit: edits.current });
  };

  const showErrors = (more: E) => {
    setValidating(true);
    setErrors((prev) => ({ ...prev, ...more }));
  };

  const field = (key: TextKey<D>) => ({
    value: draft[key] as string,
    onChange: (value: string) => update({ [key]: value } as Partial<D>),
    error: (errors as FieldErrors)[key],
  });

  return { draft, update, errors, validating, pending: mutation.isPending, saved: saved && !mutation.isPending, error: mutation.error, submit, showErrors, field };
}
