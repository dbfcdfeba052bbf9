"use client";
import type { AppRouter } from "@seam/host/trpc";
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import { trackingFetch } from "./connection";
import { pageEventSource } from "./page-event-source";
import { makeQueryClient } from "./query-client";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

let browserQueryClient: QueryClient | undefined;

function getQueryClient(): QueryClient {
  if (typeof window === "undefined") return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}

/** Same-origin endpoint served by the proxy route in src/app/trpc/[...path]. */
function trpcUrl(): string {
  return typeof window === "undefined" ? "http://127.0.0.1/trpc" : `${window.location.origin}/trpc`;
}

function makeTrpcClient() {
  const url = trpcUrl();
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        // Native EventSource; the seam_token cookie travels with it (same origin).
        true: httpSubscriptionLink({ url, EventSource: pageEventSource(), eventSourceOptions: () => ({ withCredentials: true }) }),
        false: httpBatchLink({ url, fetch: trackingFetch, maxURLLength: 4000 }),
      }),
    ],
  });
}

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(makeTrpcClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
