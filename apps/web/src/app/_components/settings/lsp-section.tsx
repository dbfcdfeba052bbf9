"use client";
import type { LspPreset, LspServerView } from "@seam/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { CheckIcon, InfoIcon, LoaderCircleIcon, PlusIcon } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/trpc/react";
import { QueryNotice, SectionCard, StatusPill } from "../shell/section-card";
import { draftFrom, emptyDraft, type LspDraft } from "./lsp-draft";
import { LspForm } from "./lsp-form";
import { LspServerCard } from "./lsp-server";
import { useInvalidateLsp, useLspServers } from "./lsp-use";

/** Settings → Language servers (LSP-7): configured servers with their workspace processes, presets, add/edit/remove. */
export function LspSection() {
  const trpc = useTRPC();
  const { servers } = useLspServers();
  const presets = useQuery(trpc.lsp.presets.queryOptions());
  const [adding, setAdding] = useState<{ key: number; draft: LspDraft; note?: ReactNode } | null>(null);
  const [savedId, setSavedId] = useState<string | null>(null);
  const list = servers.data ?? [];
  const enabled = list.filter((s) => s.config.enabled);
  const inactive = enabled.filter((s) => !s.active);

  const openForm = (draft: LspDraft, note?: ReactNode) => {
    setSavedId(null);
    setAdding({ key: Date.now(), draft, note });
  };

  return (
    <SectionCard
      id="lsp"
      data-testid="lsp-section"
      className="mt-6 scroll-mt-6"
      headingId="lsp-heading"
      title="Language servers"
      description={
        <>
          Answer <span className="font-mono text-[12.5px]">lsp</span> — go to definition, references, implementations, hover — with real language
          servers. Each starts once per workspace on first use and is replaced if it crashes.
        </>
      }
      status={
        servers.data &&
        (enabled.length === 0 ? (
          <StatusPill tone="muted">None active</StatusPill>
        ) : inactive.length > 0 ? (
          <StatusPill tone="warning">Needs attention</StatusPill>
        ) : (
          <StatusPill tone="success">{enabled.length === 1 ? "1 active" : `${enabled.length} active`}</StatusPill>
        ))
      }
    >
      <div className="flex flex-col gap-6 px-5 py-5">
        <QueryNotice query={servers} what="the language servers" />
        {servers.data && (
          <div className="flex flex-col gap-3">
            {list.length === 0 && !adding && (
              <p data-testid="lsp-empty" className="rounded-lg bg-muted/60 px-3 py-2.5 text-[13px] text-muted-foreground">
                No language server is configured, so the model is not offered <span className="font-mono">lsp</span>. Add a preset below or your own server.
              </p>
            )}
            {list.map((s) => (
              <LspServerCard
                key={s.config.id}
                server={s}
                servers={list}
                saved={savedId === s.config.id}
                onSaved={setSavedId}
                onEditing={() => setSavedId(null)}
              />
            ))}
            {adding ? (
              <LspForm
                key={adding.key}
                mode="add"
                initial={adding.draft}
                note={adding.note}
                servers={list}
                onSaved={(view) => {
                  setAdding(null);
                  setSavedId(view.config.id);
                }}
                onCancel={() => setAdding(null)}
              />
            ) : (
              <div>
                <Button variant="outline" size="sm" data-testid="lsp-add" onClick={() => openForm(emptyDraft())}>
                  <PlusIcon /> Add server
                </Button>
              </div>
            )}
          </div>
        )}

        <div className="flex flex-col gap-2 border-t pt-5">
          <div>
            <span className="text-[13px] font-medium">Presets</span>
            <p className="mt-0.5 text-xs leading-relaxed text-muted-foreground">
              Ready-made configurations. Availability is checked on this machine: the command must resolve before a server can be turned on.
            </p>
          </div>
          {presets.isPending && <p className="text-[13px] text-muted-foreground">Loading presets…</p>}
          {presets.isError && <p className="text-[13px] text-destructive">Could not load the presets: {presets.error.message}</p>}
          {presets.data && (
            <div className="grid gap-2 sm:grid-cols-3">
              {presets.data.map((p) => (
                <PresetCard
                  key={p.id}
                  preset={p}
                  configured={list.find((s) => s.config.id === p.config.id)}
                  onAdded={(id) => setSavedId(id)}
                  onConfigure={() =>
                    openForm(
                      draftFrom(p.config, { enabled: false }),
                      <>
                        <span className="font-medium text-foreground">{p.label}</span> is not installed here, so it is added switched off.
                        {p.hint ? <> {p.hint}</> : null} Then turn it on.
                      </>,
                    )
                  }
                />
              ))}
            </div>
          )}
        </div>
      </div>
    </SectionCard>
  );
}

function PresetCard({
  preset: p,
  configured,
  onAdded,
  onConfigure,
}: {
  preset: LspPreset;
  configured: LspServerView | undefined;
  onAdded: (id: string) => void;
  onConfigure: () => void;
}) {
  const trpc = useTRPC();
  const invalidate = useInvalidateLsp();
  const add = useMutation(
    trpc.lsp.add.mutationOptions({
      onSuccess: (view) => {
        invalidate();
        onAdded(view.config.id);
      },
    }),
  );
  return (
    <div data-testid="lsp-preset" data-id={p.id} data-available={p.available} className="flex flex-col gap-2 rounded-lg border bg-muted/25 px-3 py-2.5">
      <div className="flex flex-col gap-0.5">
        <span className="text-[13px] font-medium">{p.label}</span>
        <span className="truncate font-mono text-[11.5px] text-muted-foreground" title={[p.config.command, ...p.config.args].join(" ")}>
          {[p.config.command, ...p.config.args].map((a, i) => (i === 0 || a.startsWith("/") ? basename(a) : a)).join(" ")}
        </span>
      </div>
      <div className="flex flex-wrap gap-1">
        {p.config.extensions.map((e) => (
          <Badge key={e} tone="outline" className="font-mono font-normal">
            {e}
          </Badge>
        ))}
      </div>
      {p.available ? (
        <span className="inline-flex items-center gap-1 text-[11.5px] text-success">
          <CheckIcon className="size-3" /> Installed
        </span>
      ) : (
        <p data-testid="lsp-preset-hint" className="flex items-start gap-1 text-[11.5px] leading-relaxed text-warning">
          <InfoIcon className="mt-0.5 size-3 shrink-0" />
          <span>Not installed{p.hint ? ` — ${p.hint}` : ""}</span>
        </p>
      )}
      <div className="mt-auto pt-0.5">
        {configured ? (
          <span data-testid="lsp-preset-added" className="inline-flex items-center gap-1 text-[12px] text-muted-foreground">
            <CheckIcon className="size-3.5" /> Added
          </span>
        ) : p.available ? (
          <Button
            variant="outline"
            size="xs"
            data-testid="lsp-preset-add"
            data-id={p.id}
            disabled={add.isPending}
            onClick={() => add.mutate(p.config)}
          >
            {add.isPending ? <LoaderCircleIcon className="animate-spin" /> : <PlusIcon />} Add
          </Button>
        ) : (
          <Button variant="outline" size="xs" data-testid="lsp-preset-add" data-id={p.id} onClick={onConfigure}>
            <PlusIcon /> Add switched off…
          </Button>
        )}
      </div>
      {add.error && (
        <p data-testid="lsp-preset-error" role="alert" className="text-[12px] text-destructive">
          Not added — {add.error.message}
        </p>
      )}
    </div>
  );
}

const basename = (cmd: string) => cmd.split(/[\\/]/).pop() || cmd;
