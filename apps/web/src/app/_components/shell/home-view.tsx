"use client";
import { useQuery } from "@tanstack/react-query";
import { ArrowRightIcon, BlocksIcon, PlusIcon, SettingsIcon } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/trpc/react";
import { NewSessionDialog } from "../sessions/new-session-dialog";
import { useSessions } from "../sessions/use-sessions";

export function HomeView() {
  const trpc = useTRPC();
  const sessions = useSessions();
  const model = useQuery(trpc.settings.model.queryOptions());
  const latest = [...(sessions.data ?? [])].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0];

  return (
    <div className="scroll-thin flex flex-1 items-center justify-center overflow-y-auto p-8">
      <div className="w-full max-w-xl">
        <h1 className="text-2xl font-semibold tracking-tight">Seam</h1>
        <p className="mt-2 text-[15px] leading-relaxed text-muted-foreground">
          An agent workbench for your code. Open a session on a folder, chat with the agent, and watch every tool
          call it makes — arguments, results and timings, one click away.
        </p>
        <div className="mt-6 flex flex-wrap gap-2">
          <NewSessionDialog
            trigger={
              <Button data-testid="new-session-cta">
                <PlusIcon /> New session
              </Button>
            }
          />
          {latest && (
            <Button asChild variant="outline">
              <Link href={`/s/${latest.id}`}>
                Continue “{latest.title}” <ArrowRightIcon />
              </Link>
            </Button>
          )}
        </div>
        <div className="mt-10 grid gap-3 sm:grid-cols-2">
          <Link href="/settings" className="rounded-xl border bg-card p-4 transition-colors hover:bg-muted">
            <div className="flex items-center gap-2 text-[13.5px] font-medium">
              <SettingsIcon className="size-4 text-muted-foreground" /> Model
            </div>
            <p className="mt-1.5 text-[13px] leading-relaxed text-muted-foreground">
              {model.data
                ? model.data.mode === "direct"
                  ? "No model configured — direct mode: you run tools yourself. Configure one to chat."
                  : `Using ${model.data.settings.model ?? "a model"} at ${model.data.settings.baseURL ?? model.data.settings.provider}.`
                : "Provider, base URL, model id and where the API key comes from."}
            </p>
          </Link>
          <Link href="/capabilities" className="rounded-xl border bg-card p-4 transition-colors hover:bg-muted">
            <div className="flex items-center gap-2 text-[13.5px] font-medium">
              <BlocksIcon className="size-4 text-muted-foreground" /> Capabilities
            </div>
            <p className="mt-1.5 text-[13px] leading-relaxed text-muted-foreground">
              What is built in, configured, visible to the agent and ready right now — with the reason when not.
            </p>
          </Link>
        </div>
      </div>
    </div>
  );
}
