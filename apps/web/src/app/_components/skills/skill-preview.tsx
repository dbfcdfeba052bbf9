"use client";
import type { SkillCandidateInfo } from "@seam/shared";
import type { ReactNode } from "react";
import { CodeChips } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { MarkdownText } from "../chat/markdown";
import { shadowLabel } from "./flags";

function scalar(v: unknown): string {
  if (typeof v === "string") return v;
  return JSON.stringify(v) ?? String(v);
}

/** The selected skill: frontmatter fields and the body as loaded now (first ~2 KB), rendered or raw. */
export function SkillPreview({ candidate: c }: { candidate: SkillCandidateInfo }) {
  const metadata = c.metadata ? Object.entries(c.metadata) : [];
  return (
    <div data-testid="skill-preview" data-name={c.name} className="grid gap-4 rounded-lg border bg-card p-4 md:grid-cols-[minmax(0,15rem)_minmax(0,1fr)]">
      <dl data-testid="skill-frontmatter" className="flex flex-col gap-2.5 text-[12.5px]">
        <Field label="Description">
          <span className="leading-relaxed">{c.description}</span>
        </Field>
        {c.whenToUse && (
          <Field label="When to use">
            <span className="leading-relaxed">{c.whenToUse}</span>
          </Field>
        )}
        <Field label="License" testId="skill-license">
          {c.license ?? <Missing />}
        </Field>
        <Field label="Compatibility" testId="skill-compatibility">
          {c.compatibility ?? <Missing />}
        </Field>
        <Field label="Allowed tools" testId="skill-allowed-tools">
          {c.allowedTools && c.allowedTools.length > 0 ? (
            <CodeChips names={c.allowedTools} />
          ) : (
            <Missing />
          )}
        </Field>
        <Field label="Metadata" testId="skill-metadata">
          {metadata.length > 0 ? (
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-0.5 font-mono text-[11.5px]">
              {metadata.map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className="text-muted-foreground">{k}</dt>
                  <dd className="break-words">{scalar(v)}</dd>
                </div>
              ))}
            </dl>
          ) : (
            <Missing />
          )}
        </Field>
        {c.extraFields.length > 0 && (
          <Field label="Other fields">
            <span className="font-mono text-[11.5px]">{c.extraFields.join(", ")}</span>
          </Field>
        )}
        <Field label="Loaded from">
          <span className="break-all font-mono text-[11.5px]">{c.path ?? `${c.provider} (no file)`}</span>
        </Field>
        {c.shadowedBy && (
          <Field label="Shadowed by">
            <span className="break-all text-[12px]">
              {shadowLabel(c.shadowedBy, c)}
              {c.shadowedBy.path && <span className="block font-mono text-[11.5px] text-muted-foreground">{c.shadowedBy.path}</span>}
            </span>
          </Field>
        )}
      </dl>

      <div className="min-w-0">
        {c.previewError ? (
          <p data-testid="skill-preview-error" role="alert" className="text-[13px] text-destructive">
            The body could not be loaded: {c.previewError}
          </p>
        ) : (
          <Tabs defaultValue="rendered">
            <div className="flex items-center justify-between gap-2">
              <TabsList>
                <TabsTrigger value="rendered" data-testid="skill-preview-rendered-tab">
                  Rendered
                </TabsTrigger>
                <TabsTrigger value="raw" data-testid="skill-preview-raw-tab">
                  Raw
                </TabsTrigger>
              </TabsList>
              <div className="flex items-center gap-2">
                {c.bodyTruncated && <span className="text-[11.5px] text-muted-foreground">first 2 KB</span>}
                {c.bodyPreview && <CopyButton text={c.bodyPreview} />}
              </div>
            </div>
            <TabsContent value="rendered" className="mt-2">
              <div data-testid="skill-preview-body" className="scroll-thin max-h-96 overflow-auto [&_.prose]:text-[13.5px]">
                {c.bodyPreview?.trim() ? <MarkdownText text={c.bodyPreview} /> : <p className="text-[13px] text-muted-foreground">(empty body)</p>}
              </div>
            </TabsContent>
            <TabsContent value="raw" className="mt-2">
              <pre
                data-testid="skill-preview-raw"
                className="scroll-thin max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md bg-code p-3 font-mono text-[12px] leading-relaxed"
              >
                {c.bodyPreview ?? ""}
              </pre>
            </TabsContent>
            {c.bodyTruncated && (
              <p className="mt-2 text-[12px] text-muted-foreground">The preview stops here; the agent gets the whole body when it loads the skill.</p>
            )}
          </Tabs>
        )}
      </div>
    </div>
  );
}

function Field({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <div data-testid={testId} className="flex flex-col gap-0.5">
      <dt className="text-[11px] font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-foreground/90">{children}</dd>
    </div>
  );
}

function Missing() {
  return <span className="text-muted-foreground">—</span>;
}
