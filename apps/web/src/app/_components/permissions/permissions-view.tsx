"use client";
import { AuditSection } from "./audit-section";
import { DefaultModeSection } from "./default-mode-section";
import { RulesSection } from "./rules-section";

/** The permissions page (PERM-4): the default mode, rules per scope, and the audit log. */
export function PermissionsView() {
  return (
    <div className="flex flex-col gap-6">
      <DefaultModeSection />
      <RulesSection />
      <AuditSection />
    </div>
  );
}
