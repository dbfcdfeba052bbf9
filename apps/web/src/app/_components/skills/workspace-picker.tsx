"use client";
import type { SessionInfo } from "@seam/shared";
import { FolderSearchIcon } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FieldError, Input, Label, NativeSelect } from "@/components/ui/input";
import { folderName } from "@/lib/utils";

/** Which workspace the page inspects: a session's (its layer included) or any absolute folder. */
export type SkillsWhere = { sessionId: string } | { workspace: string };

const OTHER = "__folder";

/** The host resolves the folder as given, so `~` is not expanded here (unlike custom roots). */
export function workspacePathError(path: string): string | null {
  const p = path.trim();
  if (!p) return "Enter the folder to inspect";
  if (p.startsWith("~")) return "Spell out the home folder: the workspace path is not expanded";
  if (!p.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(p)) return "Use an absolute path, e.g. /home/me/project";
  if (p.includes("\0")) return "The path contains a NUL character";
  return null;
}

export function WorkspacePicker({
  sessions,
  where,
  onChange,
}: {
  sessions: SessionInfo[];
  where: SkillsWhere | null;
  onChange: (where: SkillsWhere) => void;
}) {
  const ids = { select: useId(), path: useId() };
  const [choosingFolder, setChoosingFolder] = useState(false);
  const [draft, setDraft] = useState(where && "workspace" in where ? where.workspace : "");
  const [error, setError] = useState<string | null>(null);
  const folderMode = choosingFolder || (where !== null && "workspace" in where) || sessions.length === 0;
  const value = folderMode ? OTHER : where && "sessionId" in where ? where.sessionId : "";

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = workspacePathError(draft);
    setError(problem);
    if (!problem) onChange({ workspace: draft.trim() });
  };

  return (
    <div className="flex flex-wrap items-end gap-x-3 gap-y-2">
      <div className="flex min-w-64 flex-col gap-1.5">
        <Label htmlFor={ids.select}>Workspace</Label>
        <NativeSelect
          id={ids.select}
          data-testid="skills-workspace-select"
          value={value}
          className="h-8 max-w-md text-[13px]"
          onChange={(e) => {
            const v = e.target.value;
            if (v === OTHER) {
              setChoosingFolder(true);
              return;
            }
            setChoosingFolder(false);
            setError(null);
            onChange({ sessionId: v });
          }}
        >
          {sessions.length > 0 && (
            <optgroup label="Sessions">
              {sessions.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.title} — {folderName(s.workspace)}
                </option>
              ))}
            </optgroup>
          )}
          <option value={OTHER}>Another folder…</option>
        </NativeSelect>
      </div>
      {folderMode && (
        <form onSubmit={submit} noValidate className="flex min-w-72 flex-1 flex-col gap-1.5">
          <Label htmlFor={ids.path}>Folder</Label>
          <div className="flex gap-2">
            <Input
              id={ids.path}
              data-testid="skills-workspace-input"
              value={draft}
              placeholder="/home/me/project"
              spellCheck={false}
              autoComplete="off"
              className="h-8 font-mono text-[13px]"
              aria-invalid={error ? true : undefined}
              onChange={(e) => {
                setDraft(e.target.value);
                if (error) setError(workspacePathError(e.target.value));
              }}
            />
            <Button type="submit" size="sm" variant="outline" data-testid="skills-workspace-submit">
              <FolderSearchIcon /> Inspect
            </Button>
          </div>
          {error && <FieldError>{error}</FieldError>}
        </form>
      )}
    </div>
  );
}
