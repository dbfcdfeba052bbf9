"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FolderOpenIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useMemo, useState, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FieldError, FieldHint, Input, Label } from "@/components/ui/input";
import { folderName } from "@/lib/utils";
import { useTRPC } from "@/trpc/react";
import { useSessions } from "./use-sessions";

export function NewSessionDialog({ trigger }: { trigger: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent aria-describedby="new-session-desc">
        {open && <NewSessionForm onDone={() => setOpen(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function NewSessionForm({ onDone }: { onDone: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const sessions = useSessions();
  const ids = { workspace: useId(), title: useId() };
  const [workspace, setWorkspace] = useState("");
  const [title, setTitle] = useState("");
  const [localError, setLocalError] = useState<string | null>(null);

  const recent = useMemo(() => {
    const seen = new Set<string>();
    for (const s of sessions.data ?? []) seen.add(s.workspace);
    return [...seen].slice(0, 4);
  }, [sessions.data]);

  const create = useMutation(
    trpc.session.create.mutationOptions({
      onSuccess: (session) => {
        void queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() });
        onDone();
        router.push(`/s/${session.id}`);
      },
    }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const ws = workspace.trim();
    if (!ws) {
      setLocalError("Enter the absolute path of a folder on this machine.");
      return;
    }
    setLocalError(null);
    create.mutate({ workspace: ws, ...(title.trim() ? { title: title.trim() } : {}) });
  };

  const error = localError ?? create.error?.message ?? null;

  return (
    <form onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>New session</DialogTitle>
        <DialogDescription id="new-session-desc">
          A session works inside one folder. The agent reads and edits files only there.
        </DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-4">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={ids.workspace}>Workspace folder</Label>
          <div className="relative">
            <FolderOpenIcon className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
            <Input
              id={ids.workspace}
              data-testid="session-workspace-input"
              className="pl-8 font-mono text-[13px]"
              placeholder="/home/you/projects/my-app"
              value={workspace}
              onChange={(e) => setWorkspace(e.target.value)}
              autoFocus
              spellCheck={false}
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              required
            />
          </div>
          <FieldHint>Absolute path of an existing folder on the machine running the host.</FieldHint>
          {recent.length > 0 && (
            <div className="flex flex-wrap items-center gap-1.5 pt-0.5">
              <span className="text-xs text-muted-foreground">Recent:</span>
              {recent.map((w) => (
                <button
                  key={w}
                  type="button"
                  title={w}
                  onClick={() => setWorkspace(w)}
                  className="cursor-pointer rounded-md border px-1.5 py-0.5 font-mono text-[11.5px] text-muted-foreground hover:bg-muted hover:text-foreground"
                >
                  {folderName(w)}
                </button>
              ))}
            </div>
          )}
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={ids.title}>
            Title <span className="font-normal text-muted-foreground">(optional)</span>
          </Label>
          <Input
            id={ids.title}
            data-testid="session-title-input"
            placeholder="e.g. Fix the flaky login test"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            autoComplete="off"
          />
        </div>
        {error && (
          <FieldError data-testid="session-create-error" className="rounded-lg bg-destructive-soft px-3 py-2 text-[13px]">
            {error}
          </FieldError>
        )}
      </div>
      <DialogFooter>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" data-testid="session-create-submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create session"}
        </Button>
      </DialogFooter>
    </form>
  );
}
