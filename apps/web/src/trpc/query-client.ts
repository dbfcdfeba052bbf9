import { QueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";

function httpStatus(error: unknown): number | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const meta = error.meta as { response?: { status?: number } } | undefined;
  const data = error.data as { httpStatus?: number } | undefined;
  return data?.httpStatus ?? meta?.response?.status;
}

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        // Client errors (bad input, not found, not authorised) will not fix themselves by retrying.
        retry: (count, error) => {
          const status = httpStatus(error);
          if (status !== undefined && status >= 400 && status < 500) return false;
          return count < 2;
        },
      },
      mutations: { retry: false },
    },
  });
}
