"use client";
import { CheckIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FieldError } from "@/components/ui/input";
import { cn } from "@/lib/utils";

/**
 * Save, "Saved" once the host confirmed, and why nothing was saved. Test ids are `<name>-save`,
 * `<name>-saved` and `<name>-error`.
 */
export function SaveBar({
  name,
  pending,
  saved,
  error,
  code,
  errorClassName,
}: {
  name: string;
  pending: boolean;
  saved: boolean;
  error: string | null;
  /** `data-code` on the error: the host's code, or whether it was the host or the form. */
  code?: string;
  errorClassName?: string;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3 border-t pt-4">
      <Button type="submit" data-testid={`${name}-save`} disabled={pending}>
        {pending ? "Saving…" : "Save"}
      </Button>
      {saved && (
        <span data-testid={`${name}-saved`} role="status" className="inline-flex items-center gap-1 text-[13px] text-success">
          <CheckIcon className="size-4" /> Saved
        </span>
      )}
      {error && (
        <FieldError data-testid={`${name}-error`} data-code={code} className={cn("text-[13px]", errorClassName)}>
          {error}
        </FieldError>
      )}
    </div>
  );
}
