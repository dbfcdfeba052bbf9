import type { TRPCRouterRecord } from "@trpc/server";
import { AuditQuery, PatternCheckInput, PermissionSettings, RuleCreateInput, RuleRef, RuleUpdateInput, ToolApprovalAnswer } from "@seam/shared";
import { procedure } from "../trpc.js";

/** Permissions (PERM-2..4): the default mode, rules, tool-call approvals and the audit log. Pending requests stream on live topic `approvals`. */
export const permissionsRouter = {
  settings: procedure.query(({ ctx }) => ctx.host.permissions.settings.get()),
  setSettings: procedure.input(PermissionSettings).mutation(({ ctx, input }) => ctx.host.permissions.settings.set(input)),
  rules: procedure.query(({ ctx }) => ctx.host.permissions.rules.list()),
  createRule: procedure.input(RuleCreateInput).mutation(({ ctx, input }) => ctx.host.permissions.rules.create(input)),
  updateRule: procedure.input(RuleUpdateInput).mutation(({ ctx, input }) => ctx.host.permissions.rules.update(input)),
  removeRule: procedure.input(RuleRef).mutation(({ ctx, input }) => ctx.host.permissions.rules.remove(input.id)),
  checkPattern: procedure.input(PatternCheckInput).query(({ ctx, input }) => ctx.host.permissions.rules.check(input.pattern)),
  pending: procedure.query(({ ctx }) => ctx.host.permissions.approvals.pending()),
  answer: procedure.input(ToolApprovalAnswer).mutation(({ ctx, input }) => ctx.host.permissions.approvals.answer(input)),
  audit: procedure.input(AuditQuery).query(({ ctx, input }) => ctx.host.permissions.audit(input)),
} satisfies TRPCRouterRecord;
