export { startScriptedModel, MAX_BODY_BYTES } from "./scripted-model/server.js";
export type { ScriptedModel, ScriptedModelOptions, RecordedRequest } from "./scripted-model/server.js";
export { Script, Step, Turn, ScriptError, parseScript, loadScriptFile, loadScripts, select } from "./scripted-model/script.js";
export type { ScriptInput, Selection } from "./scripted-model/script.js";
export { longSessionExport } from "./long-session.js";
