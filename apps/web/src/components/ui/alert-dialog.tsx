"use client";
import { AlertDialog as A } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";
import { buttonVariants } from "./button";

export const AlertDialog = A.Root;
export const AlertDialogTrigger = A.Trigger;

export function AlertDialogContent({ className, ...props }: ComponentProps<typeof A.Content>) {
  return (
    <A.Portal>
      <A.Overlay className="fixed inset-0 z-50 bg-overlay data-[state=open]:animate-fade-in" />
      <A.Content
        className={cn(
          "fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border bg-popover p-5 shadow-xl outline-none data-[state=open]:animate-pop-in",
          className,
        )}
        {...props}
      />
    </A.Portal>
  );
}

export function AlertDialogTitle({ className, ...props }: ComponentProps<typeof A.Title>) {
  return <A.Title className={cn("text-base font-semibold", className)} {...props} />;
}

export function AlertDialogDescription({ className, ...props }: ComponentProps<typeof A.Description>) {
  return <A.Description className={cn("mt-1.5 text-[13px] leading-relaxed text-muted-foreground", className)} {...props} />;
}

export function AlertDialogFooter({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("mt-5 flex justify-end gap-2", className)} {...props} />;
}

export function AlertDialogCancel({ className, ...props }: ComponentProps<typeof A.Cancel>) {
  return <A.Cancel className={cn(buttonVariants({ variant: "outline" }), className)} {...props} />;
}

export function AlertDialogAction({ className, ...props }: ComponentProps<typeof A.Action>) {
  return <A.Action className={cn(buttonVariants({ variant: "destructive" }), className)} {...props} />;
}
