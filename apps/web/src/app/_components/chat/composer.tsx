"use client";
import type { McpPromptCommand, McpResourceAttachment, ToolInfo } from "@seam/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { ArrowUpIcon, PaperclipIcon, WrenchIcon } from "lucide-react";
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/trpc/react";
import { clearComposerDraft, readComposerDraft } from "../session-ops/composer-draft";
import { onPendingAttachments, readPendingAttachments, writePendingAttachments } from "../mcp/pending-attachments";
import { AttachmentChips } from "./attachment-chips";
import { PromptArgsDialog } from "./prompt-args-dialog";
import { ResourcePicker } from "./resource-picker";
import { SlashMenu, slashEntries, slashOptionId, type SlashEntry } from "./slash-menu";

export function Composer({
  sessionId,
  running,
  tools,
  onStop,
  onSent,
  onOpenTools,
}: {
  sessionId: string;
  running: boolean;
  tools: ToolInfo[];
  onStop: () => void;
  onSent: () => void;
  onOpenTools: () => void;
}) {
  const trpc = useTRPC();
  // Text handed over by "Restore to here": the fork opens with the message ready to edit (CTX-5).
  const [text, setText] = useState(() => readComposerDraft(sessionId));
  const [active, setActive] = useState(0);
  const [menuDismissed, setMenuDismissed] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const pendingCursor = useRef<number | null>(null);

  useEffect(() => {
    if (!readComposerDraft(sessionId)) return;
    clearComposerDraft(sessionId);
    const el = ref.current;
    el?.focus();
    el?.setSelectionRange(el.value.length, el.value.length);
  }, [sessionId]);

  const send = useMutation(trpc.session.send.mutationOptions({ onSuccess: () => onSent() }));
  // User-invocable skills for `/name` (SKL-8). A failure only means no skills in the menu.
  const skills = useQuery(trpc.skills.completions.queryOptions({ id: sessionId }));
  // Ready MCP servers' prompts as `/mcp__server__prompt` (MCP-9). A failure only means no prompts in the menu.
  const prompts = useQuery(trpc.mcp.promptCommands.queryOptions());
  const [promptForm, setPromptForm] = useState<McpPromptCommand | null>(null);

  // Resources attached to the next message (MCP-9): from the MCP page (sessionStorage) or the picker.
  const [attachments, setAttachmentsState] = useState<McpResourceAttachment[]>(() => readPendingAttachments(sessionId));
  const [picking, setPicking] = useState(false);
  const setAttachments = (next: McpResourceAttachment[]) => {
    setAttachmentsState(next);
    writePendingAttachments(sessionId, next);
  };
  // The chat view is keyed by session, so the initial read above is this session's; later changes arrive as events.
  useEffect(() => onPendingAttachments((id) => id === sessionId && setAttachmentsState(readPendingAttachments(sessionId))), [sessionId]);

  const entries = menuDismissed ? null : slashEntries(text, tools, skills.data ?? [], prompts.data ?? []);
  const menuOpen = entries !== null;
  // Focus stays in the textarea; the highlighted option is its active descendant.
  const menuId = useId();
  const activeIndex = menuOpen ? Math.min(active, Math.max(0, entries.length - 1)) : 0;

  // Skills change on disk: look again whenever the menu opens and the cached list is stale.
  const { refetch, isStale } = skills;
  const { refetch: refetchPrompts, isStale: promptsStale } = prompts;
  useEffect(() => {
    if (menuOpen && isStale) void refetch();
    if (menuOpen && promptsStale) void refetchPrompts();
  }, [menuOpen, isStale, refetch, promptsStale, refetchPrompts]);

  // Auto-grow, and place the cursor after a completion.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`;
    if (pendingCursor.current !== null) {
      el.setSelectionRange(pendingCursor.current, pendingCursor.current);
      pendingCursor.current = null;
    }
  }, [text]);

  const pick = (e: SlashEntry) => {
    // A prompt with arguments opens their form; Run there sends the command line.
    if (e.kind === "prompt" && e.prompt && e.prompt.prompt.arguments.length > 0) {
      setMenuDismissed(true);
      setPromptForm(e.prompt);
      return;
    }
    pendingCursor.current = e.cursor;
    setText(e.insert);
    ref.current?.focus();
  };

  const submit = (override?: string) => {
    if (running) return;
    const body = override ?? text;
    if (!body.trim()) return;
    // Clear at once so nothing typed after sending is lost; put the text back if the host refuses it.
    const sent = body;
    const attached = attachments;
    if (override === undefined) setText("");
    send.mutate(
      { sessionId, text: sent, ...(attached.length > 0 ? { attachments: attached } : {}) },
      {
        onSuccess: () => { if (attached.length > 0) setAttachments([]); },
        onError: () => { if (override === undefined) setText((current) => (current === "" ? sent : current)); },
      },
    );
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (menuOpen && entries.length > 0) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const d = e.key === "ArrowDown" ? 1 : -1;
        setActive((a) => (a + d + entries.length) % entries.length);
        return;
      }
      if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
        e.preventDefault();
        const entry = entries[Math.min(active, entries.length - 1)];
        if (entry) pick(entry);
        return;
      }
    }
    if (e.key === "Escape") {
      if (menuOpen) {
        e.preventDefault();
        setMenuDismissed(true);
        return;
      }
      if (running) {
        e.preventDefault();
        onStop();
      }
      return;
    }
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      submit();
    }
  };

  return (
    <div className="relative">
      {menuOpen && <SlashMenu id={menuId} entries={entries} active={activeIndex} onPick={pick} onHover={setActive} />}
      <div className="rounded-2xl border bg-card shadow-sm transition-colors focus-within:border-ring/60 focus-within:ring-2 focus-within:ring-ring/15">
        <AttachmentChips attachments={attachments} onRemove={(a) => setAttachments(attachments.filter((x) => x !== a))} />
        <textarea
          ref={ref}
          data-testid="composer-input"
          aria-label="Message"
          aria-autocomplete={menuOpen ? "list" : undefined}
          aria-controls={menuOpen ? menuId : undefined}
          aria-activedescendant={menuOpen && entries.length > 0 ? slashOptionId(menuId, activeIndex) : undefined}
          rows={1}
          autoFocus
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
            setMenuDismissed(false);
            if (send.error) send.reset();
          }}
          onKeyDown={onKeyDown}
          placeholder={running ? "The agent is working — Esc to stop" : "Message Seam, or type / for skills and tools"}
          className="scroll-thin block max-h-60 w-full resize-none bg-transparent px-4 pb-1 pt-3 text-[14.5px] leading-relaxed outline-none placeholder:text-muted-foreground/70"
        />
        <div className="flex items-center gap-2 px-2 pb-2">
          <Button variant="subtle" size="sm" data-testid="tools-button" onClick={onOpenTools}>
            <WrenchIcon /> Tools
          </Button>
          <Button variant="subtle" size="sm" data-testid="attach-button" onClick={() => setPicking(true)}>
            <PaperclipIcon /> Attach
          </Button>
          <span className="ml-auto hidden text-[11.5px] text-muted-foreground sm:inline">
            {running ? "Esc stops the turn" : "Enter to send · Shift+Enter for a new line"}
          </span>
          <Button
            size="icon-sm"
            className="rounded-full"
            data-testid="composer-send"
            aria-label="Send"
            disabled={running || !text.trim()}
            onClick={() => submit()}
          >
            <ArrowUpIcon />
          </Button>
        </div>
      </div>
      <ResourcePicker
        open={picking}
        onOpenChange={setPicking}
        onPick={(a) => {
          if (!attachments.some((x) => x.server === a.server && x.uri === a.uri)) setAttachments([...attachments, a]);
          setPicking(false);
          ref.current?.focus();
        }}
      />
      <PromptArgsDialog
        command={promptForm}
        onCancel={() => setPromptForm(null)}
        onRun={(line) => {
          setPromptForm(null);
          setText("");
          submit(line);
        }}
      />
      {send.error && (
        <p data-testid="composer-error" role="alert" className="mt-2 px-1 text-[13px] text-destructive">
          {send.error.message}
        </p>
      )}
    </div>
  );
}
