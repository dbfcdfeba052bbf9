import { z } from "zod";
import { boundedJson } from "./limits.js";

/** SPEC EXT-1..6: what the host and the UI exchange about dynamic extensions. */

export const EXTENSION_NAME = /^[a-z][a-z0-9-]{0,47}$/;
export const ExtensionName = z.string().trim()
  .regex(EXTENSION_NAME, "Use 1–48 lowercase letters, digits or '-', starting with a letter (e.g. counter-widget)");
/** Characters of one half's source. */
export const EXTENSION_CODE_MAX = 200_000;
/** Characters of a browser half's call parameters as JSON. */
export const EXTENSION_CALL_PARAMS_MAX = 1_000_000;

/** `rejected`…`not_running` are the model-facing refusal set of EXT-1. */
export const ExtensionRefusal = z.enum([
  "definition_missing", "host_half_failed", "browser_half_failed", "rejected", "cancelled", "not_running",
]);
export type ExtensionRefusal = z.infer<typeof ExtensionRefusal>;

/** How a version was allowed to run; `null` = never allowed. */
export const ExtensionApprovalKind = z.enum(["user", "grant", "setting"]);
export type ExtensionApprovalKind = z.infer<typeof ExtensionApprovalKind>;

/** The package, and the session it belongs to, that a grant, run or run request is about. */
const PackageInSession = z.object({ packageId: z.string(), packageName: z.string(), sessionId: z.string() });

/** One version's code; a half is null when the version does not have it. */
const VersionCode = z.object({ version: z.number().int(), hostCode: z.string().nullable(), browserCode: z.string().nullable() });

export const ExtensionVersionSummary = z.object({
  version: z.number().int().positive(),
  /** sha256 of the definition (purpose, host and browser code), hex. */
  hash: z.string(),
  purpose: z.string(),
  hasHost: z.boolean(),
  hasBrowser: z.boolean(),
  createdAt: z.string(),
  /** The most recent decision about this version, if any. */
  decision: z.object({ decision: z.enum(["allow", "deny"]), by: ExtensionApprovalKind, at: z.string() }).nullable(),
});
export type ExtensionVersionSummary = z.infer<typeof ExtensionVersionSummary>;

export const ExtensionVersionSource = ExtensionVersionSummary.extend({
  packageId: z.string(),
  packageName: z.string(),
  hostCode: z.string().nullable(),
  browserCode: z.string().nullable(),
});
export type ExtensionVersionSource = z.infer<typeof ExtensionVersionSource>;

export const ExtensionGrantView = PackageInSession.extend({
  /** The version whose approval created the grant. */
  fromVersion: z.number().int(),
  grantedAt: z.string(),
});
export type ExtensionGrantView = z.infer<typeof ExtensionGrantView>;

/** waiting_approval → running → stopped | crashed | limit_exceeded; or rejected / cancelled before it ran. */
export const ExtensionRunState = z.enum(["waiting_approval", "starting", "running", "stopped", "crashed", "limit_exceeded", "rejected", "cancelled"]);
export type ExtensionRunState = z.infer<typeof ExtensionRunState>;

export const ExtensionBrowserState = z.enum(["none", "pending", "rendered", "failed"]);
export type ExtensionBrowserState = z.infer<typeof ExtensionBrowserState>;

export const ExtensionRunView = PackageInSession.extend({
  runId: z.string(),
  version: z.number().int(),
  state: ExtensionRunState,
  hasHost: z.boolean(),
  /** `none` without a browser half; else `pending` until a page rendered it, `rendered` or `failed`. */
  browser: ExtensionBrowserState,
  browserFailure: z.string().nullable(),
  /** Tools the host half has registered in its session now. */
  tools: z.array(z.string()),
  logs: z.array(z.string()),
  lastFailure: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
});
export type ExtensionRunView = z.infer<typeof ExtensionRunView>;

export const ExtensionPackageView = z.object({
  id: z.string(),
  name: z.string(),
  sessionId: z.string(),
  sessionTitle: z.string(),
  createdAt: z.string(),
  /** Oldest first. */
  versions: z.array(ExtensionVersionSummary),
  grant: ExtensionGrantView.nullable(),
});
export type ExtensionPackageView = z.infer<typeof ExtensionPackageView>;

/** A pending run request (EXT-5). `previous` is the last version of the package a person or grant allowed. */
export const ApprovalRequestView = PackageInSession.extend({
  ...VersionCode.shape,
  id: z.string(),
  sessionTitle: z.string(),
  purpose: z.string(),
  previous: VersionCode.nullable(),
  requestedAt: z.string(),
});
export type ApprovalRequestView = z.infer<typeof ApprovalRequestView>;

export const ExtensionSettings = z.strictObject({
  /** Runs without a browser half start without asking (EXT-5). Default false. */
  autoApproveHostOnly: z.boolean().default(false),
});
export type ExtensionSettings = z.infer<typeof ExtensionSettings>;

/** Everything the extensions page, the approval tray and the session widgets show; sent whole on each change. */
export const ExtensionsSnapshot = z.object({
  packages: z.array(ExtensionPackageView),
  /** Current runs and the most recent ended ones, newest first. */
  runs: z.array(ExtensionRunView),
  approvals: z.array(ApprovalRequestView),
  settings: ExtensionSettings,
});
export type ExtensionsSnapshot = z.infer<typeof ExtensionsSnapshot>;

// ---- inputs -------------------------------------------------------------------------------------

export const ExtensionSourceInput = z.strictObject({ packageId: z.string().min(1).max(100), version: z.number().int().positive() });
export const ApprovalAnswerInput = z.strictObject({
  id: z.string().min(1).max(100),
  decision: z.enum(["allow", "deny"]),
  /** "Allow future versions of this package" (only with allow). */
  allowFuture: z.boolean().default(false),
});
export type ApprovalAnswerInput = z.input<typeof ApprovalAnswerInput>;
export const ExtensionPackageRef = z.strictObject({ packageId: z.string().min(1).max(100) });
export const ExtensionRunRef = z.strictObject({ runId: z.string().min(1).max(100) });
/** A call from a browser half to its host half's `api.handle(method, …)`. */
export const ExtensionBridgeCallInput = z.strictObject({
  runId: z.string().min(1).max(100),
  method: z.string().min(1).max(100),
  params: boundedJson({ maxChars: EXTENSION_CALL_PARAMS_MAX }).optional(),
});
/** A page reports how rendering a browser half went (EXT-4). */
export const ExtensionBrowserReportInput = z.strictObject({
  runId: z.string().min(1).max(100),
  ok: z.boolean(),
  message: z.string().max(4000).optional(),
});
export type ExtensionSettingsInput = z.input<typeof ExtensionSettings>;
