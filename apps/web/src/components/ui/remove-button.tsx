"use client";
import { Trash2Icon } from "lucide-react";
import type { ReactNode } from "react";
import {
  AlertDialog, AlertDialogAction, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogTitle, AlertDialogTrigger,
} from "./alert-dialog";
import { Button } from "./button";
import { Tip } from "./tooltip";

/** A row's trash button that asks first: "Remove <title>?", what removing does, then Cancel or Remove. */
export function RemoveButton({
  name,
  title,
  description,
  testId,
  dialogTestId,
  disabled,
  onRemove,
}: {
  /** For the button's accessible name: "Remove <name>". */
  name: string;
  title: string;
  description: ReactNode;
  /** The button's test id; the confirm button's is `<testId>-confirm`. */
  testId: string;
  dialogTestId?: string;
  disabled?: boolean;
  onRemove: () => void;
}) {
  return (
    <AlertDialog>
      <Tip label="Remove">
        <AlertDialogTrigger asChild>
          <Button variant="subtle" size="icon-sm" data-testid={testId} aria-label={`Remove ${name}`} disabled={disabled}>
            <Trash2Icon />
          </Button>
        </AlertDialogTrigger>
      </Tip>
      <AlertDialogContent data-testid={dialogTestId}>
        <AlertDialogTitle>Remove {title}?</AlertDialogTitle>
        <AlertDialogDescription>{description}</AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction data-testid={`${testId}-confirm`} onClick={onRemove}>
            Remove
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
