"use client";
import type { ContextUsage, ModelStatus, SessionInfo } from "@seam/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CpuIcon, SquareIcon, Trash2Icon, ZapOffIcon } from "lucide-react";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Tip } from "@/components/ui/tooltip";
import { useTRPC } from "@/trpc/react";
import { SessionMenu } from "../session-ops/session-menu";
import { DeleteSessionDialog } from "../sessions/delete-session-dialog";
import { ContextMeter } from "./context-meter";
import { ModeSwitch } from "./mode-switch";

export function ChatHeader({
  session,
  model,
  context,
  running,
  stopping,
  onStop,
}: {
  session: SessionInfo;
  model: ModelStatus | undefined;
  /** The next request's size (CTX-1); not shown in direct mode, where no model reads it. */
  context?: ContextUsage | null;
  running: boolean;
  stopping: boolean;
  onStop: () => void;
}) {
  const [deleting, setDeleting] = useState(false);
  // pr-14 leaves the top-right corner to the approval tray bell.
  return (
    <header className="flex min-h-13 shrink-0 items-center gap-3 border-b py-2 pl-4 pr-14">
      <div className="min-w-0 flex-1">
        <EditableTitle session={session} />
        <div className="truncate font-mono text-[11.5px] text-muted-foreground" title={session.workspace}>
          {session.workspace}
        </div>
      </div>
      <ModeSwitch session={session} />
      {context && model?.mode === "model" && <ContextMeter context={context} />}
      <ModelChip model={model} />
      {running && (
        <Button variant="outline" size="sm" data-testid="stop-button" onClick={onStop} disabled={stopping}>
          <SquareIcon className="fill-current" /> {stopping ? "Stopping…" : "Stop"}
        </Button>
      )}
      <SessionMenu session={session} />
      <Tip label="Delete session">
        <Button variant="subtle" size="icon-sm" data-testid="session-delete" aria-label="Delete session" onClick={() => setDeleting(true)}>
          <Trash2Icon />
        </Button>
      </Tip>
      {deleting && <DeleteSessionDialog session={session} open onOpenChange={setDeleting} />}
    </header>
  );
}

function ModelChip({ model }: { model: ModelStatus | undefined }) {
  if (!model) return null;
  if (model.mode === "direct") {
    return (
      <Link
        href="/settings"
        data-testid="model-chip"
        data-mode="direct"
        className="inline-flex shrink-0 items-center gap-1.5 rounded-full border border-dashed px-2.5 py-1 text-xs text-muted-foreground transition-colors hover:border-solid hover:bg-muted hover:text-foreground"
      >
        <ZapOffIcon className="size-3.5" /> No model — direct mode
      </Link>
    );
  }
  return (
    <Link
      href="/settings"
      data-testid="model-chip"
      data-mode="model"
      title={model.problem ?? model.settings.baseURL}
      className="inline-flex max-w-56 shrink-0 items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs transition-colors hover:bg-muted"
    >
      <CpuIcon className="size-3.5 text-muted-foreground" />
      <span className="truncate font-mono">{model.settings.model}</span>
      {model.problem && <span className="size-1.5 rounded-full bg-warning" aria-label="Model problem" />}
    </Link>
  );
}

function EditableTitle({ session }: { session: SessionInfo }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(session.title);
  const inputRef = useRef<HTMLInputElement>(null);
  const rename = useMutation(
    trpc.session.rename.mutationOptions({
      onSuccess: (s) => {
        queryClient.setQueryData(trpc.session.list.queryKey(), (list) => list?.map((x) => (x.id === s.id ? s : x)));
        setEditing(false);
      },
    }),
  );

  useEffect(() => {
    if (editing) inputRef.current?.select();
  }, [editing]);

  const commit = () => {
    const next = value.trim();
    if (!next || next === session.title) {
      setEditing(false);
      rename.reset();
      return;
    }
    rename.mutate({ id: session.id, title: next });
  };

  if (editing) {
    return (
      <div className="flex items-center gap-2">
        <input
          ref={inputRef}
          data-testid="session-title-input-inline"
          aria-label="Session title"
          value={value}
          maxLength={200}
          disabled={rename.isPending}
          onChange={(e) => setValue(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              commit();
            } else if (e.key === "Escape") {
              e.preventDefault();
              setEditing(false);
              rename.reset();
            }
          }}
          className="-mx-1 w-full max-w-md rounded-md border border-input bg-background px-1 text-[15px] font-semibold outline-none focus:border-ring"
        />
        {rename.error && <span className="shrink-0 text-xs text-destructive">{rename.error.message}</span>}
      </div>
    );
  }
  return (
    <h1 className="min-w-0">
      <button
        type="button"
        data-testid="session-title"
        title="Click to rename"
        onClick={() => {
          setValue(session.title);
          setEditing(true);
        }}
        className="-mx-1 max-w-full cursor-text truncate rounded-md px-1 text-left text-[15px] font-semibold hover:bg-muted"
      >
        {session.title}
      </button>
    </h1>
  );
}
