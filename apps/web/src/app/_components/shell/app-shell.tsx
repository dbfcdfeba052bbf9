"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore, type ReactNode } from "react";
import { useConnection } from "@/trpc/connection";
import { useTRPC } from "@/trpc/react";
import { ApprovalTray } from "../extensions/approval-tray";
import { Sidebar } from "./sidebar";
import { NotConnected } from "./not-connected";

const COLLAPSE_KEY = "seam.sidebar.collapsed";

// Whether the sidebar is collapsed lives in localStorage; this page's toggles tell the shell when it changes.
const collapseListeners = new Set<() => void>();
function subscribeCollapsed(listener: () => void): () => void {
  collapseListeners.add(listener);
  return () => collapseListeners.delete(listener);
}
const readCollapsed = () => window.localStorage.getItem(COLLAPSE_KEY) === "1";
// The server renders the sidebar expanded; hydration then takes the stored choice.
const serverCollapsed = () => false;
function toggleCollapsed(): void {
  window.localStorage.setItem(COLLAPSE_KEY, readCollapsed() ? "0" : "1");
  for (const listener of [...collapseListeners]) listener();
}

export function AppShell({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const connection = useConnection();
  // The health probe decides the first connection state and keeps polling while the host is down.
  const health = useQuery({
    ...trpc.health.queryOptions(),
    retry: false,
    refetchInterval: connection.state === "unreachable" ? 3_000 : false,
  });

  const collapsed = useSyncExternalStore(subscribeCollapsed, readCollapsed, serverCollapsed);
  const [trayOpen, setTrayOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "b") {
        e.preventDefault();
        toggleCollapsed();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  if ("message" in connection) {
    return <NotConnected connection={connection} retrying={health.isFetching} onRetry={() => void health.refetch()} />;
  }

  return (
    <div className="flex h-dvh overflow-hidden">
      <Sidebar collapsed={collapsed} onToggle={toggleCollapsed} hostVersion={health.data?.version} onOpenApprovals={() => setTrayOpen(true)} />
      <main className="relative flex min-w-0 flex-1 flex-col overflow-hidden">
        {children}
        <ApprovalTray open={trayOpen} onOpenChange={setTrayOpen} />
      </main>
    </div>
  );
}
