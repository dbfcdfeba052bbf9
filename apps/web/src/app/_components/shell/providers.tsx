"use client";
import type { ReactNode } from "react";
import { TooltipProvider } from "@/components/ui/tooltip";
import { LiveProvider } from "@/trpc/live";
import { TRPCReactProvider } from "@/trpc/react";

export function Providers({ children }: { children: ReactNode }) {
  return (
    <TRPCReactProvider>
      <LiveProvider>
        <TooltipProvider delayDuration={400}>{children}</TooltipProvider>
      </LiveProvider>
    </TRPCReactProvider>
  );
}
