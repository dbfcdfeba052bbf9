import type { ModelStatus } from "@seam/shared";
import { AlertTriangleIcon, KeyRoundIcon } from "lucide-react";

/** What the host found for the saved settings: where the key comes from, or what is wrong. */
export function KeyStatus({ status }: { status: ModelStatus }) {
  const s = status.settings;
  if (s.provider === "none" && !status.problem) return null;
  return (
    <div data-testid="model-key-status" className="flex flex-col gap-1.5 rounded-lg bg-muted/60 px-3 py-2.5 text-[13px]">
      <div className="flex items-center gap-2">
        <KeyRoundIcon className="size-3.5 shrink-0 text-muted-foreground" />
        {status.keySource ? (
          <span>
            Key: <span className="font-medium text-success">from {status.keySource}</span>
          </span>
        ) : s.apiKeyEnv ? (
          <span className="text-warning">
            No key found for <span className="font-mono">{s.apiKeyEnv}</span> in the host&apos;s environment or secrets file.
          </span>
        ) : (
          <span className="text-muted-foreground">No API key configured (fine for local servers).</span>
        )}
      </div>
      {status.problem && (
        <div className="flex items-start gap-2 text-warning">
          <AlertTriangleIcon className="mt-0.5 size-3.5 shrink-0" />
          <span>{status.problem}</span>
        </div>
      )}
      <span className="text-[11.5px] text-muted-foreground">Status of the saved settings, as the host sees them.</span>
    </div>
  );
}
