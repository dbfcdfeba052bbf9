"use client";
import type { ReactNode } from "react";
import { TooltipProvider } from "@/components/ui/tooltip";
import { TRPCReactProvider } from "@/trpc/react";

export function Providers({ children }: { children: ReactNode }) {
  return (
    <TRPCReactProvider>
      <TooltipProvider delayDuration={400}>{children}</TooltipProvider>
    </TRPCReactProvider>
  );
}
