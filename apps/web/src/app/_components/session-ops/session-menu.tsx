"use client";
import { SESSION_IMPORT_MAX_CHARS, type SessionInfo } from "@seam/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { EllipsisIcon, FileDownIcon, FileJsonIcon, FileUpIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { hostCodeOf } from "@/lib/host-error";
import { useTRPC } from "@/trpc/react";
import { downloadText } from "./download";

/** What went wrong with an import, in words; a missing workspace offers this session's folder instead. */
export function importAdvice(code: string | null, message: string): string {
  if (code === "workspace_missing") return `${message} Use “Import into this workspace” to open it in this session's folder.`;
  return message;
}

/** A file picked for import, read as text, or why it cannot be (too large to send). */
export async function readImportFile(file: Pick<File, "size" | "text" | "name">): Promise<{ text: string } | { error: string }> {
  // A character takes at least one byte, so a larger file is over the limit whatever it holds.
  if (file.size > SESSION_IMPORT_MAX_CHARS * 4) return { error: `${file.name} is too large to import (the limit is ${SESSION_IMPORT_MAX_CHARS.toLocaleString("en-US")} characters).` };
  const text = await file.text();
  if (text.length > SESSION_IMPORT_MAX_CHARS) return { error: `${file.name} is too large to import (the limit is ${SESSION_IMPORT_MAX_CHARS.toLocaleString("en-US")} characters).` };
  return { text };
}

/** The session menu in the chat header (CTX-5): Export Markdown, Export JSON (downloads) and Import… (a file picker). */
export function SessionMenu({ session }: { session: SessionInfo }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const picker = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<{ code: string | null; message: string; text?: string } | null>(null);
  const importJson = useMutation(trpc.session.importJson.mutationOptions({
    onSuccess: (s) => {
      setError(null);
      void queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() });
      router.push(`/s/${s.id}`);
    },
  }));
  const save = async (kind: "exportMarkdown" | "exportJson") => {
    setError(null);
    try {
      const options = kind === "exportMarkdown" ? trpc.session.exportMarkdown.queryOptions({ id: session.id }) : trpc.session.exportJson.queryOptions({ id: session.id });
      downloadText(await queryClient.fetchQuery({ ...options, staleTime: 0 }));
    } catch (e) {
      setError({ code: hostCodeOf(e), message: `Could not export: ${(e as Error).message}` });
    }
  };
  const send = (text: string, workspace?: string) =>
    importJson.mutate({ text, workspace }, { onError: (e) => setError({ code: hostCodeOf(e), message: importAdvice(hostCodeOf(e), e.message), text }) });

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="subtle" size="icon-sm" data-testid="session-menu" aria-label="Session menu">
            <EllipsisIcon />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem data-testid="session-export-markdown" onSelect={() => void save("exportMarkdown")}>
            <FileDownIcon /> Export Markdown
          </DropdownMenuItem>
          <DropdownMenuItem data-testid="session-export-json" onSelect={() => void save("exportJson")}>
            <FileJsonIcon /> Export JSON
          </DropdownMenuItem>
          <DropdownMenuItem data-testid="session-import" onSelect={() => picker.current?.click()}>
            <FileUpIcon /> Import…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <input
        ref={picker}
        type="file"
        accept="application/json,.json"
        hidden
        data-testid="session-import-file"
        onChange={async (e) => {
          const file = e.target.files?.[0];
          e.target.value = "";
          if (!file) return;
          const read = await readImportFile(file);
          if ("error" in read) setError({ code: null, message: read.error });
          else send(read.text);
        }}
      />
      {error && (
        <div role="alert" data-testid="session-menu-error" data-code={error.code ?? undefined} className="flex max-w-sm items-center gap-2 text-xs text-destructive">
          <span className="min-w-0">{error.message}</span>
          {error.code === "workspace_missing" && error.text && (
            <Button variant="outline" size="xs" data-testid="session-import-here" onClick={() => send(error.text!, session.workspace)}>
              Import into this workspace
            </Button>
          )}
          <Button variant="ghost" size="xs" onClick={() => setError(null)}>Dismiss</Button>
        </div>
      )}
    </>
  );
}
