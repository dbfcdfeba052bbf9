export { ErrorKind, ErrorInfo, messageFor } from "./errors.js";
export { FieldIssue, issuesOf, formatIssues } from "./issues.js";
export type { HasIssues, IssueLimits, FormatOptions } from "./issues.js";
export {
  SessionId, SessionCreateInput, SessionRenameInput, SessionRef, SessionSendInput, SessionCallToolInput,
  TurnStatus, SessionInfo, TurnInfo, ToolCallStatus, MessageItem, ToolCallItem, FactItem, TimelineItem, SessionDetail,
  SESSION_PAGE_DEFAULT, SESSION_PAGE_MAX, ItemPage, SessionDetailInput, SessionItemsInput, SessionItemsAroundInput,
} from "./session.js";
export type { SessionEvent } from "./session.js";
export {
  SEARCH_QUERY_MAX, SEARCH_LIMIT_MAX, SEARCH_LIMIT_DEFAULT, SessionSearchInput, SnippetPart, SearchHit, RestoreAndForkInput, RestoreAndForkResult,
} from "./search.js";
export { ToolEffect, ToolInfo, ToolListInput } from "./tools.js";
export {
  TOOL_SEARCH, TOOL_SEARCH_QUERY_MAX, TOOL_SEARCH_RESULTS_MAX, DEFER_TOOLS_DEFAULT, DEFER_MAX_TOOLS_LIMIT, DeferTools, ToolSearchInput, ToolSearchMatch,
  ToolSearchResult,
} from "./deferred-tools.js";
export {
  CONTEXT_WINDOW_MIN, CONTEXT_WINDOW_MAX, ContextWindow, ContextWindowSource, ContextUsage,
  COMPACT_AT_MIN, COMPACT_AT_MAX, COMPACT_AT_DEFAULT, CompactAt, COMPACTION_FAILED_FACT, CONTEXT_PRUNED_FACT,
  CompactionTrigger, CompactionPayload, CompactionFailedPayload, ContextPrunedPayload,
} from "./context.js";
export { ModelProvider, ModelSettings, ModelStatus, CapabilityRow } from "./settings.js";
export { ProcessInfo } from "./processes.js";
export {
  CREDENTIAL_NAME, MCP_ENV_MAX, MCP_HEADERS_MAX, McpValue, McpServerName, McpStdioTransport, McpHttpTransport, McpTransport, McpServerConfig,
  McpServerState, McpToolInfo, McpServerView, McpApproval, MCP_POLICY_FIELDS, mcpToolEnabled, mcpToolApproval,
} from "./mcp.js";
export type { McpServerConfigInput } from "./mcp.js";
export { McpOAuthSettings, McpAuthStatus, McpAuthorizeResult } from "./mcp-oauth.js";
export {
  McpServerRef, McpUpdateInput, McpSetEnabledInput, McpSetToolInput, McpSetApprovalInput, MCP_IMPORT_MAX_CHARS, McpImportInput, McpImportApplyInput, McpFieldIssue,
  McpImportAction, McpImportEntry, McpImportPreview, McpImportResult, McpExport,
} from "./mcp-import.js";
export {
  McpProbeStep, MCP_PROBE_STEP_LABEL, McpProbeReason, McpProbeSeen, McpProbeFailure, McpProbeId, McpProbeStatus, McpProbeRef, McpSaveOptions,
  McpAddInput, McpSaveResult, MCP_IMPORT_MAX_BYTES, formatSize, utf8Bytes, importSizeError,
} from "./mcp-probe.js";
export {
  SKILL_NAME, SKILL_NAME_MAX, SkillName, SKILLS_CATALOG_FACT, SKILL_INVOCATION_FACT, COMPACTION_FACT, SkillsCatalogPayload,
  SkillInvocationPayload, SkillRootPath, SkillSettings, SkillRootKind, SkillRootInfo, SkillDiagnostic, SkillShadow,
  SkillCandidateInfo, SkillInspection, SkillCompletion, SkillsWhereInput,
} from "./skills.js";
export type { SkillSettingsInput } from "./skills.js";
export {
  WEB_PROVIDERS_MAX, WebProviderId, WebKind, WebProviderOptions, WebAllowlistEntry, WebSettings, WebSource, WebSearchResult, WebFetchResult,
  WebSearchToolResult, WebFetchToolResult, WebToolError, WebCallOutcome, WebProviderHealth, WebSelection, WebKindHealth,
  WebHealth, WebProbeInput, WebProbeResult,
} from "./web.js";
export type { WebSettingsInput } from "./web.js";
export {
  LSP_INIT_OPTIONS_MAX, LSP_SETTINGS_MAX, LspOperation, LspExtension, LspServerConfig, LspSettings, LspProcessView, LspServerView, LspPreset, LspServerRef,
  LspRestartInput, LspUpdateInput,
} from "./lsp.js";
export type { LspServerConfigInput } from "./lsp.js";
export {
  EXTENSION_NAME, ExtensionName, EXTENSION_CODE_MAX, EXTENSION_CALL_PARAMS_MAX, ExtensionRefusal, ExtensionApprovalKind, ExtensionVersionSummary,
  ExtensionVersionSource, ExtensionGrantView, ExtensionRunState, ExtensionBrowserState, ExtensionRunView, ExtensionPackageView,
  ApprovalRequestView, ExtensionSettings, ExtensionsSnapshot, ExtensionSourceInput, ApprovalAnswerInput, ExtensionPackageRef,
  ExtensionRunRef, ExtensionBridgeCallInput, ExtensionBrowserReportInput,
} from "./extensions.js";
export type { ExtensionSettingsInput } from "./extensions.js";
export { LiveTopic, LiveInput, sessionOfTopic } from "./live.js";
export type { LiveEvent, LiveDataEvent, LiveData, LivePayloads, FixedTopic, SessionTopic, TopicKey, BridgeMessage } from "./live.js";
export {
  SESSION_TEXT_MAX, JSON_DEPTH_MAX, ENV_NAME_MAX, ENV_NAME, URL_MAX, envVarName, jsonProblem, boundedJson, boundedJsonObject,
  atMostEntries,
} from "./limits.js";
export type { JsonBounds, JsonProblem } from "./limits.js";
export {
  PermissionMode, RuleAction, RuleScope, RULE_PATTERN_MAX, RulePattern, PermissionRuleView, RuleCreateInput, RuleUpdateInput, RuleRef,
  PatternCheckInput, PatternCheck, PermissionSettings, SessionModeInput, DecisionBy, AuditEntry, AuditQuery, ToolApprovalView, ToolApprovalAnswer,
  ApprovalsSnapshot,
} from "./permissions.js";
export type { PermissionSettingsInput } from "./permissions.js";
export {
  ShellSandboxMode, ShellSettings, ShellSandboxAvailability, ShellSettingsView, ShellJobState, ShellJobView, ShellSessionRef, ShellJobRef,
  ShellJobOutput, ShellJobsChange,
} from "./shell.js";
export type { ShellSettingsInput } from "./shell.js";
export {
  SnapshotTree, SnapshotLabel, SnapshotResult, ChangedFile, TurnChanges, CheckpointConflict, RewindResult, CheckpointsAvailability,
} from "./checkpoints.js";
export {
  SESSION_IMPORT_MAX_CHARS, SESSION_EXPORT_FORMAT, SESSION_EXPORT_VERSION, SessionForkInput, SessionEditInput, SessionExportFile, SessionExport,
  SessionImportInput,
} from "./session.js";
export {
  McpElicitationView, McpElicitationAnswer, MCP_LOG_LEVELS, McpLogLevel, MCP_LOG_RING, McpLogEntry, McpLogsInput, McpLogs, ToolProgress,
  McpSetLogLevelInput,
} from "./mcp-client.js";
export type { McpLogEvent } from "./mcp-client.js";
export { elicitFields, elicitInitialForm, prepareElicitAnswer, applyElicitDefaults } from "./mcp-elicitation.js";
export type { ElicitValue, ElicitContent, ElicitOption, ElicitField, ElicitFormValue, ElicitForm, ElicitCheck } from "./mcp-elicitation.js";
export {
  McpResourceUri, McpCursor, McpResourcesInput, McpReadResourceInput, McpPromptArguments, McpGetPromptInput, McpTryToolInput, McpResourceAttachment,
  McpResourceAttachments, MCP_ATTACHMENTS_MAX, MCP_RESOURCES_FACT, McpResourcesFactPayload, MCP_PROMPT_FACT, McpPromptFactPayload,
  parsePromptArguments, formatPromptArguments, templateVariables, expandTemplate,
} from "./mcp-resources.js";
export type {
  McpResourceInfo, McpResourcesPage, McpResourceTemplateInfo, McpResourceContent, McpReadResult, McpPromptArgumentInfo, McpPromptInfo,
  McpPromptMessage, McpPromptResult, McpPromptCommand,
} from "./mcp-resources.js";
