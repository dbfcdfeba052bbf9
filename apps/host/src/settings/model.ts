import { COMPACT_AT_DEFAULT, DEFER_TOOLS_DEFAULT, formatIssues, ModelSettings, type CapabilityRow, type ContextWindowSource, type ModelStatus } from "@seam/shared";
import { capabilityRow } from "../core/capability-row.js";
import { HostError, messageOf } from "../core/errors.js";
import { createModel, type LlmModel } from "../llm/llm.js";
import { contextWindowFor } from "../llm/presets.js";
import type { SecretSource } from "../llm/secrets.js";
import type { Store } from "../persistence/store.js";

const KEY = "model";

/** Model settings from the env, used until the user saves settings in the UI. */
export function modelSettingsFromEnv(env: NodeJS.ProcessEnv): ModelSettings {
  const parsed = ModelSettings.safeParse({
    provider: env.SEAM_MODEL_PROVIDER ?? "none",
    baseURL: env.SEAM_MODEL_BASE_URL || undefined,
    model: env.SEAM_MODEL || undefined,
    apiKeyEnv: env.SEAM_MODEL_KEY_ENV || undefined,
    maxSteps: env.SEAM_MAX_STEPS ? Number(env.SEAM_MAX_STEPS) : undefined,
    contextWindow: env.SEAM_CONTEXT_WINDOW ? Number(env.SEAM_CONTEXT_WINDOW) : undefined,
    compactAt: env.SEAM_COMPACT_AT ? Number(env.SEAM_COMPACT_AT) : undefined,
  });
  if (!parsed.success) {
    throw new HostError("bad_input:llm", `SEAM_MODEL_* environment settings are invalid: ${formatIssues(parsed.error)}`);
  }
  return parsed.data;
}

/** What the tRPC layer calls (`HostApi["settings"]`): the model settings page. */
export interface Api {
  model(): Promise<ModelStatus>;
  setModel(settings: ModelSettings): Promise<ModelStatus>;
}

export interface ModelSettingsService {
  readonly api: Api;
  /** The settings in use with the key's whereabouts, or what is wrong with them. */
  current(): Promise<ModelStatus>;
  /** The capability overview's model row. */
  status(): Promise<CapabilityRow>;
  /** The configured model's context window in tokens (null in direct mode or when unknown) and where it comes from (CTX-1). */
  contextWindow(): Promise<{ value: number | null; source: ContextWindowSource; compactAt: number }>;
  /** The tool deferral budget (CTX-3) with the window it is measured against (null window: only the count applies). */
  toolBudget(): Promise<{ maxTools: number; maxPercent: number; window: number | null }>;
  /** The model for the next turn, or null in direct mode. Throws when configured but unusable. */
  resolve(): Promise<{ model: LlmModel; maxSteps: number; compactAt: number } | null>;
}

/** Where the model is configured (CORE-14): stored settings win over the env defaults; keys never stored (SEC-2). */
export function createModelSettings(deps: { store: Store; secrets: SecretSource; env: NodeJS.ProcessEnv }): ModelSettingsService {
  const fromEnv = modelSettingsFromEnv(deps.env);

  const current = async (): Promise<ModelSettings> => {
    const stored = await deps.store.settings.get(KEY);
    if (stored === undefined) return fromEnv;
    const parsed = ModelSettings.safeParse(stored);
    return parsed.success ? parsed.data : fromEnv;
  };

  const describe = (settings: ModelSettings): ModelStatus => {
    const window = contextWindowFor(settings);
    if (settings.provider === "none") return { settings, mode: "direct", keySource: null, problem: null, window };
    if (!settings.apiKeyEnv) return { settings, mode: "model", keySource: null, problem: null, window };
    try {
      const key = deps.secrets.get(settings.apiKeyEnv);
      return key
        ? { settings, mode: "model", keySource: key.source, problem: null, window }
        : { settings, mode: "model", keySource: null, problem: `${settings.apiKeyEnv} is not set. Export it before starting Seam, or add it to $SEAM_HOME/secrets.json (mode 0600).`, window };
    } catch (error) {
      return { settings, mode: "model", keySource: null, problem: messageOf(error), window };
    }
  };

  const modelStatus = async () => describe(await current());
  return {
    api: {
      model: modelStatus,
      async setModel(input) {
        // The router validates too; this keeps direct callers (tests, other capabilities) to the same rules.
        const parsed = ModelSettings.safeParse(input);
        if (!parsed.success) throw new HostError("bad_input:llm", `Model settings are invalid: ${formatIssues(parsed.error)}`, { reason: "invalid_settings" });
        const settings = parsed.data;
        await deps.store.settings.set(KEY, settings);
        return describe(settings);
      },
    },
    current: modelStatus,
    status: async () => modelRow(await modelStatus()),
    async contextWindow() {
      const settings = await current();
      const compactAt = settings.compactAt ?? COMPACT_AT_DEFAULT;
      if (settings.provider === "none") return { value: null, source: "unknown", compactAt };
      const { value, source } = contextWindowFor(settings);
      return { value, source, compactAt };
    },
    async toolBudget() {
      const settings = await current();
      const { maxTools, maxPercent } = settings.deferTools ?? DEFER_TOOLS_DEFAULT;
      return { maxTools, maxPercent, window: settings.provider === "none" ? null : contextWindowFor(settings).value };
    },
    async resolve() {
      const settings = await current();
      if (settings.provider === "none") return null;
      const status = describe(settings);
      if (status.problem) throw new HostError("bad_input:llm", status.problem, { reason: "model_key_missing" });
      return { model: createModel(settings, deps.secrets), maxSteps: settings.maxSteps, compactAt: settings.compactAt ?? COMPACT_AT_DEFAULT };
    },
  };
}

/** Ready means the key was found here, not that the endpoint answered. */
function modelRow(model: ModelStatus): CapabilityRow {
  return capabilityRow({
    id: "model",
    title: "Model",
    configured: model.mode === "model",
    visible: true,
    ready: model.mode === "model" && model.problem === null,
    note: model.mode === "direct"
      ? "No model is configured: Seam runs in direct mode (/call <tool> {json}). Configure one in Settings."
      : model.problem ?? `${model.settings.provider} · ${model.settings.model ?? ""}`,
    tools: [],
  });
}
