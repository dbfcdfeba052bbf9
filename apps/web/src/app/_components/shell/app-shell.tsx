"use client";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { useConnection } from "@/trpc/connection";
import { useTRPC } from "@/trpc/react";
import { ApprovalTray } from "../extensions/approval-tray";
import { Sidebar } from "./sidebar";
import { NotConnected } from "./not-connected";

const COLLAPSE_KEY = "seam.sidebar.collapsed";

export function AppShell({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const connection = useConnection();
  // The health probe decides the first connection state and keeps polling while the host is down.
  const health = useQuery({
    ...trpc.health.queryOptions(),
    retry: false,
    refetchInterval: connection.state === "unreachable" ? 3_000 : false,
  });

  const [collapsed, setCollapsed] = useState(false);
  const [trayOpen, setTrayOpen] = useState(false);
  useEffect(() => {
    setCollapsed(window.localStorage.getItem(COLLAPSE_KEY) === "1");
  }, []);
  const toggle = useCallback(() => {
    setCollapsed((c) => {
      window.localStorage.setItem(COLLAPSE_KEY, c ? "0" : "1");
      return !c;
    });
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "b") {
        e.preventDefault();
        toggle();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggle]);

  if ("message" in connection) {
    return <NotConnected connection={connection} retrying={health.isFetching} onRetry={() => void health.refetch()} />;
  }

  return (
    <div className="flex h-dvh overflow-hidden">
      <Sidebar collapsed={collapsed} onToggle={toggle} hostVersion={health.data?.version} onOpenApprovals={() => setTrayOpen(true)} />
      <main className="relative flex min-w-0 flex-1 flex-col overflow-hidden">
        {children}
        <ApprovalTray open={trayOpen} onOpenChange={setTrayOpen} />
      </main>
    </div>
  );
}
