import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { EventSource } from "eventsource";
import type { AppRouter } from "../../src/trpc/root.js";

/** A tRPC client of a host with its token (queries and mutations over HTTP, subscriptions over SSE). */
export function hostClient(hostUrl: string, token: string) {
  const url = `${hostUrl}/trpc`;
  const headers = { authorization: `Bearer ${token}` };
  return createTRPCClient<AppRouter>({
    links: [splitLink({
      condition: (op) => op.type === "subscription",
      true: httpSubscriptionLink({
        url,
        EventSource: class extends EventSource {
          constructor(u: string | URL, init?: ConstructorParameters<typeof EventSource>[1]) {
            super(u, { ...init, fetch: (input, i) => fetch(input, { ...i, headers: { ...i?.headers, ...headers } }) });
          }
        },
      }),
      false: httpBatchLink({ url, headers }),
    })],
  });
}
