"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { FieldError } from "@/components/ui/input";
import { useTRPC } from "@/trpc/react";

/** Confirm-then-delete, shared by the session list and the chat header. */
export function DeleteSessionDialog({
  session,
  open,
  onOpenChange,
}: {
  session: { id: string; title: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.session.remove.mutationOptions({
      onSuccess: () => {
        queryClient.setQueryData(trpc.session.list.queryKey(), (list) => list?.filter((s) => s.id !== session.id));
        void queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() });
        onOpenChange(false);
        if (pathname === `/s/${session.id}`) router.push("/");
      },
    }),
  );
  return (
    <AlertDialog open={open} onOpenChange={(o) => { if (!o) remove.reset(); onOpenChange(o); }}>
      <AlertDialogContent>
        <AlertDialogTitle>Delete “{session.title}”?</AlertDialogTitle>
        <AlertDialogDescription>
          The conversation and its tool-call history are removed from Seam. Files in the workspace are not touched.
        </AlertDialogDescription>
        {remove.error && <FieldError className="mt-3">{remove.error.message}</FieldError>}
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          {/* A plain button, so the dialog stays open until the host confirmed. */}
          <Button
            variant="destructive"
            data-testid="session-delete-confirm"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ id: session.id })}
          >
            {remove.isPending ? "Deleting…" : "Delete session"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
