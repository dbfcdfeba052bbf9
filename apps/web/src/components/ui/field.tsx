import { useId, type ComponentProps, type ReactNode } from "react";
import { cn } from "@/lib/utils";
import { FieldError, FieldHint, Input, Label, Textarea } from "./input";

export interface FormFieldProps {
  id: string;
  label: string;
  /** Adds "(optional)" after the label. */
  optional?: boolean;
  hint?: ReactNode;
  /** Replaces the hint while set. */
  error?: string;
  errorTestId?: string;
  /** `data-field` on the error, for forms that name the field their messages belong to. */
  errorField?: string;
  /** Shown under the hint or error, e.g. a list of conflicts. */
  extra?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A label, its control, and either the control's error or its hint. */
export function FormField({ id, label, optional, hint, error, errorTestId, errorField, extra, className, children }: FormFieldProps) {
  return (
    <div className={cn("flex min-w-0 flex-col gap-1.5", className)}>
      <Label htmlFor={id}>
        {label}
        {optional && <span className="font-normal text-muted-foreground"> (optional)</span>}
      </Label>
      {children}
      {error ? (
        <FieldError data-testid={errorTestId} data-field={errorField}>
          {error}
        </FieldError>
      ) : hint ? (
        <FieldHint>{hint}</FieldHint>
      ) : null}
      {extra}
    </div>
  );
}

export type TextFieldProps = Omit<FormFieldProps, "id" | "children"> &
  Omit<ComponentProps<"input">, "id" | "value" | "onChange" | "className"> & {
    testId: string;
    value: string;
    onChange: (value: string) => void;
    inputClassName?: string;
    /** Makes it a Textarea of this many rows. */
    rows?: number;
    /** For identifiers, commands, paths and URLs: monospace, no spell check, no autofill. */
    code?: boolean;
  };

/** A FormField around one Input (or Textarea, given `rows`), marked invalid while it has an error. */
export function TextField({ label, optional, hint, error, errorTestId, errorField, extra, className, testId, value, onChange, inputClassName, rows, code, ...rest }: TextFieldProps) {
  const id = useId();
  const control = {
    ...(code ? { spellCheck: false, autoComplete: "off" } : {}),
    ...rest,
    id,
    "data-testid": testId,
    className: cn(code && "font-mono", inputClassName),
    value,
    "aria-invalid": error ? true : undefined,
  };
  return (
    <FormField {...{ id, label, optional, hint, error, errorTestId, errorField, extra, className }}>
      {rows === undefined ? (
        <Input {...control} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <Textarea {...(control as ComponentProps<"textarea">)} rows={rows} onChange={(e) => onChange(e.target.value)} />
      )}
    </FormField>
  );
}
