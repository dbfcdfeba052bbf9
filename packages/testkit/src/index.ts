export { startScriptedModel, MAX_BODY_BYTES } from "./scripted-model/server.js";
export type { ScriptedModel, ScriptedModelOptions, RecordedRequest } from "./scripted-model/server.js";
export { Script, Step, Turn, ScriptError, parseScript, loadScriptFile, loadScripts, select } from "./scripted-model/script.js";
export type { ScriptInput, Selection } from "./scripted-model/script.js";
export { longSessionExport } from "./long-session.js";
export { startOAuthMcpFixture } from "./oauth-mcp/protected-mcp.js";
export type { OAuthMcpFixture, OAuthMcpFixtureOptions } from "./oauth-mcp/protected-mcp.js";
export { startAuthorizationServer } from "./oauth-mcp/authorization-server.js";
export type { AuthorizationServer, AuthorizationServerOptions, IssuedToken } from "./oauth-mcp/authorization-server.js";
