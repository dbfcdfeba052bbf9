"use client";
import { SkillSettings } from "@seam/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FieldError, FieldHint, Input } from "@/components/ui/input";
import { useTRPC } from "@/trpc/react";
import { QueryNotice, SectionCard } from "../shell/section-card";

interface Check {
  ok: boolean;
  rows: Record<number, string>;
  list: string[];
  value: string[];
}

/** Inline validation with the host's own schema, so the form refuses exactly what the host would. */
export function checkRoots(rows: string[]): Check {
  const parsed = SkillSettings.safeParse({ customRoots: rows });
  if (parsed.success) return { ok: true, rows: {}, list: [], value: parsed.data.customRoots };
  const byRow: Record<number, string> = {};
  const list: string[] = [];
  for (const issue of parsed.error.issues) {
    const index = issue.path[1];
    if (typeof index === "number") byRow[index] ??= issue.message;
    else if (!list.includes(issue.message)) list.push(issue.message);
  }
  return { ok: false, rows: byRow, list, value: [] };
}

/** Custom roots (rank 300, settings key `skills`): searched in the order listed, for every workspace. */
export function CustomRootsForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const headingId = useId();
  const settings = useQuery(trpc.skills.settings.queryOptions());
  const [rows, setRows] = useState<string[] | null>(null);
  const [touched, setTouched] = useState<Set<number>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [saved, setSaved] = useState(false);

  const stored = settings.data?.customRoots;

  const save = useMutation(
    trpc.skills.setSettings.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.skills.settings.queryKey(), next);
        setRows(next.customRoots);
        setTouched(new Set());
        setSubmitted(false);
        setSaved(true);
        // New roots change what every workspace sees.
        void queryClient.invalidateQueries({ queryKey: trpc.skills.inspect.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.skills.completions.queryKey() });
      },
    }),
  );

  // Take the host's list until the user edits; a save replaces the draft with what the host stored.
  const draft = rows ?? stored ?? [];
  const check = checkRoots(draft);
  const dirty = stored !== undefined && JSON.stringify(draft) !== JSON.stringify(stored);

  const edit = (next: string[]) => {
    setRows(next);
    setSaved(false);
    if (save.error) save.reset();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!check.ok) return;
    save.mutate({ customRoots: check.value });
  };

  const rowError = (i: number) => (submitted || touched.has(i) ? check.rows[i] : undefined);

  return (
    <SectionCard
      headingId={headingId}
      title="Custom roots"
      description={
        <>
          Extra folders of skills for every workspace, at rank 300: after the project&apos;s roots, before your home folder&apos;s.
          Earlier entries win over later ones. Absolute paths, or paths starting with <code className="font-mono text-[12px]">~/</code>.
        </>
      }
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-3 px-5 py-4">
        <QueryNotice query={settings} what="the skills settings" />
        {settings.data && draft.length === 0 && (
          <p data-testid="skills-custom-roots-empty" className="text-[13px] text-muted-foreground">
            No custom roots. Skills come from the project, your home folder and the ones Seam ships.
          </p>
        )}
        {draft.length > 0 && (
          <ol className="flex flex-col gap-2">
            {draft.map((value, i) => {
              const error = rowError(i);
              return (
                <li key={i} className="flex flex-col gap-1">
                  <div className="flex items-center gap-2">
                    <span className="w-5 shrink-0 text-right text-[12px] tabular-nums text-muted-foreground">{i + 1}.</span>
                    <Input
                      data-testid="skills-custom-root-input"
                      aria-label={`Custom root ${i + 1}`}
                      value={value}
                      placeholder="~/team-skills"
                      spellCheck={false}
                      autoComplete="off"
                      className="h-8 font-mono text-[13px]"
                      aria-invalid={error ? true : undefined}
                      onChange={(e) => edit(draft.map((v, j) => (j === i ? e.target.value : v)))}
                      onBlur={() => setTouched((t) => new Set(t).add(i))}
                    />
                    <Button
                      variant="subtle"
                      size="icon-sm"
                      data-testid="skills-custom-root-remove"
                      aria-label={`Remove custom root ${i + 1}`}
                      onClick={() => {
                        edit(draft.filter((_, j) => j !== i));
                        setTouched(new Set());
                      }}
                    >
                      <Trash2Icon />
                    </Button>
                  </div>
                  {error && <FieldError className="pl-7">{error}</FieldError>}
                </li>
              );
            })}
          </ol>
        )}
        {(submitted || touched.size > 0) && check.list.length > 0 && <FieldError>{check.list.join("; ")}</FieldError>}
        {settings.data && (
          <div className="flex flex-wrap items-center gap-3 border-t pt-3">
            <Button type="button" variant="outline" size="sm" data-testid="skills-custom-root-add" onClick={() => edit([...draft, ""])}>
              <PlusIcon /> Add root
            </Button>
            <Button type="submit" size="sm" data-testid="skills-custom-roots-save" disabled={save.isPending || !dirty}>
              {save.isPending ? "Saving…" : "Save"}
            </Button>
            {saved && !save.isPending && !dirty && (
              <span data-testid="skills-custom-roots-saved" role="status" className="inline-flex items-center gap-1 text-[13px] text-success">
                <CheckIcon className="size-4" /> Saved
              </span>
            )}
            {dirty && !save.isPending && <FieldHint>Unsaved changes</FieldHint>}
            {save.error && (
              <FieldError data-testid="skills-custom-roots-error" className="text-[13px]">
                Not saved — {save.error.message}
              </FieldError>
            )}
          </div>
        )}
      </form>
    </SectionCard>
  );
}
