"use client";
import type { McpAuthStatus, McpServerView } from "@seam/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { CheckIcon, KeyRoundIcon, LogOutIcon, MinusIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { StateBadge, type StateLook } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/trpc/react";
import { useInvalidateMcp } from "./use-mcp";

const LOOK: Record<McpAuthStatus["state"], StateLook> = {
  not_needed: { tone: "neutral", icon: MinusIcon, label: "not needed" },
  needs_authorization: { tone: "warning", icon: KeyRoundIcon, label: "needs authorization" },
  signed_in: { tone: "success", icon: CheckIcon, label: "signed in" },
};

const REGISTRATION: Record<NonNullable<McpAuthStatus["registration"]>, string> = {
  pre_registered: "pre-registered client",
  metadata_document: "Client ID Metadata Document",
  dynamic: "dynamic registration",
};

function expiry(iso: string | null): string {
  if (!iso) return "—";
  const left = Math.round((Date.parse(iso) - Date.now()) / 60_000);
  const when = new Date(iso).toLocaleString();
  return left > 0 ? `${when} (in ${left < 120 ? `${left} min` : `${Math.round(left / 60)} h`}; refreshed before then)` : `${when} (expired; refreshed on the next request)`;
}

/**
 * The Authorization tab of an HTTP server (MCP-11): whether it needs a sign-in, who is signed in, scopes,
 * expiry; Authorize opens the authorization server's page in a new tab, whose redirect comes back to the
 * host; Sign out deletes the tokens and disconnects.
 */
export function ServerAuthorization({ server }: { server: McpServerView }) {
  const trpc = useTRPC();
  const invalidateMcp = useInvalidateMcp();
  const name = server.config.name;
  const [opened, setOpened] = useState<string | null>(null);
  const status = useQuery({
    ...trpc.mcp.authStatus.queryOptions({ name }),
    // While a sign-in is open in another tab, look for its outcome.
    refetchInterval: (q) => (q.state.data?.pending ? 1_500 : false),
  });
  const { refetch } = status;
  useEffect(() => {
    void refetch();
  }, [server.status.state, refetch]);

  const authorize = useMutation(trpc.mcp.authorize.mutationOptions());
  const signOut = useMutation(trpc.mcp.signOut.mutationOptions({ onSettled: () => { setOpened(null); void refetch(); invalidateMcp(); } }));

  const start = () => {
    // Opened during the click so no popup blocker stops it; it gets its address once the host has built it.
    const tab = window.open("", "_blank");
    authorize.mutate({ name }, {
      onSuccess: (r) => {
        setOpened(r.url);
        if (tab) {
          tab.opener = null;
          tab.location.href = r.url;
        }
        void refetch();
      },
      onError: () => tab?.close(),
    });
  };

  const s = status.data;

  if (!s) {
    return <p className="text-[12.5px] text-muted-foreground">{status.error ? status.error.message : "Loading…"}</p>;
  }
  const busy = authorize.isPending || signOut.isPending;
  const machine = server.config.transport.type === "http" && (server.config.transport.oauth?.grant === "client_credentials" || server.config.transport.oauth?.grant === "jwt_bearer");
  return (
    <section data-testid="mcp-auth" data-auth-state={s.state} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-[13px] font-semibold">Authorization</h3>
        <StateBadge look={LOOK[s.state]} data-testid="mcp-auth-state" />
        <div className="ml-auto flex gap-2">
          {!machine && (
            <Button size="sm" variant={s.state === "needs_authorization" ? "default" : "outline"} disabled={busy} onClick={start} data-testid="mcp-authorize">
              <KeyRoundIcon /> {s.state === "signed_in" ? "Re-authorize" : "Authorize"}
            </Button>
          )}
          {s.state === "signed_in" && (
            <Button size="sm" variant="outline" disabled={busy} onClick={() => signOut.mutate({ name })} data-testid="mcp-sign-out">
              <LogOutIcon /> Sign out
            </Button>
          )}
        </div>
      </div>

      {s.reason && <p data-testid="mcp-auth-reason" className="text-[12.5px] text-foreground/85">{s.reason}</p>}
      {machine && (
        <p className="text-[12.5px] text-muted-foreground">
          A machine client (client credentials): Seam gets its token from the authorization server when it connects; no browser sign-in.
        </p>
      )}
      {opened && s.pending && (
        <p data-testid="mcp-auth-pending" className="text-[12.5px] text-muted-foreground">
          Finish signing in in the new tab; this page updates when it is done. If no tab opened,{" "}
          <a href={opened} target="_blank" rel="noopener noreferrer" className="text-primary underline underline-offset-4">open the sign-in page</a>.
        </p>
      )}
      {(authorize.error || signOut.error || s.lastError) && (
        <p data-testid="mcp-auth-error" className="rounded-lg bg-destructive-soft px-3 py-2 text-[12.5px] leading-relaxed text-destructive">
          {authorize.error?.message ?? signOut.error?.message ?? s.lastError}
        </p>
      )}

      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-[12.5px]">
        <dt className="text-muted-foreground">Signed in as</dt>
        <dd data-testid="mcp-auth-subject" className="font-mono text-[12px]">{s.signedInAs ?? "—"}</dd>
        <dt className="text-muted-foreground">Scopes</dt>
        <dd data-testid="mcp-auth-scopes" className="font-mono text-[12px]">{s.scopes.length > 0 ? s.scopes.join(" ") : "—"}</dd>
        <dt className="text-muted-foreground">Expires</dt>
        <dd data-testid="mcp-auth-expiry">{expiry(s.expiresAt)}</dd>
        <dt className="text-muted-foreground">Client</dt>
        <dd className="font-mono text-[12px]">
          {s.clientId ?? "—"}
          {s.registration && <span className="font-sans text-muted-foreground"> · {REGISTRATION[s.registration]}</span>}
        </dd>
        <dt className="text-muted-foreground">Authorization server</dt>
        <dd className="font-mono text-[12px]">{s.authorizationServer ?? "—"}</dd>
      </dl>
      <p className="text-[12px] text-muted-foreground">
        Tokens are kept only in the host&apos;s secrets file ($SEAM_HOME/secrets.json, mode 0600), never in the database or logs.
      </p>
    </section>
  );
}
