"use client";
import Form from "@rjsf/core";
import type { RJSFSchema, RJSFValidationError } from "@rjsf/utils";
import validator from "@rjsf/validator-ajv8";
import type { ToolInfo } from "@seam/shared";
import { PlayIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";

/** RJSF's ajv8 validator is draft-07; the host's zod-generated schemas name draft 2020-12. */
/** ajv's wording ("must have required property 'path'") sits under the field already; say it plainly. */
function plainErrors(errors: RJSFValidationError[]): RJSFValidationError[] {
  return errors.map((e) => (e.name === "required" ? { ...e, message: "Required" } : e));
}

function formSchema(input: Record<string, unknown>): RJSFSchema {
  const { $schema: _ignored, ...rest } = input;
  return { type: "object", ...rest } as RJSFSchema;
}

export function ToolForm({
  tool,
  pending,
  error,
  onSubmit,
}: {
  tool: ToolInfo;
  pending: boolean;
  error: string | null;
  onSubmit: (args: Record<string, unknown>) => void;
}) {
  const schema = useMemo(() => formSchema(tool.inputSchema), [tool.inputSchema]);
  const [data, setData] = useState<Record<string, unknown>>({});
  return (
    <Form
      className="rjsf"
      schema={schema}
      validator={validator}
      formData={data}
      onChange={(e) => setData((e.formData ?? {}) as Record<string, unknown>)}
      onSubmit={(e) => onSubmit((e.formData ?? {}) as Record<string, unknown>)}
      noHtml5Validate
      showErrorList={false}
      transformErrors={plainErrors}
      onError={() => undefined}
      uiSchema={{ "ui:submitButtonOptions": { norender: false } }}
    >
      {error && (
        <p data-testid="tool-form-error" role="alert" className="mb-3 rounded-lg bg-destructive-soft px-3 py-2 text-[13px] text-destructive">
          {error}
        </p>
      )}
      <div className="flex items-center justify-end gap-2 border-t pt-3">
        <span className="mr-auto font-mono text-[11.5px] text-muted-foreground">
          /call {tool.name} {JSON.stringify(data)}
        </span>
        <Button type="submit" data-testid="tool-form-submit" disabled={pending}>
          <PlayIcon /> {pending ? "Starting…" : "Run tool"}
        </Button>
      </div>
    </Form>
  );
}
