import { z } from "zod";
import { envVarName, URL_MAX } from "./limits.js";

/**
 * OAuth settings of one Streamable HTTP server (MCP-11). All optional: without them Seam registers itself
 * dynamically (or through a Client ID Metadata Document) when the server asks for authorization.
 * A client secret is never stored: `clientSecretEnv` names an environment variable or a key of the 0600
 * secrets file.
 */
export const McpOAuthSettings = z.strictObject({
  /** A client id registered with the authorization server beforehand. */
  clientId: z.string().trim().min(1, "Enter the client id, or remove the field").max(1_024).optional(),
  /** Where the pre-registered client's secret is read from (env var or secrets-file key); absent for a public client. */
  clientSecretEnv: envVarName("MY_SERVER_CLIENT_SECRET").optional(),
  /** An https URL of a Client ID Metadata Document describing Seam, used where the authorization server supports it. */
  clientMetadataUrl: z.url({ protocol: /^https$/, error: "Enter an https URL with a path, e.g. https://example.com/seam-client.json" }).max(URL_MAX).optional(),
  /** Scopes to ask for when neither the server's challenge nor its metadata names any (space-separated). */
  scope: z.string().trim().max(2_000).optional(),
  /**
   * `authorization_code` (when absent): a person signs in in the browser. `client_credentials` (SEP-1046): a machine
   * client with no person, authenticated by `clientSecretEnv` (client_secret_basic/post) or `privateKeyEnv` (private_key_jwt).
   */
  grant: z.enum(["authorization_code", "client_credentials", "jwt_bearer"]).optional(),
  /**
   * `jwt_bearer` (SEP-990, enterprise-managed authorization): the user's ID token from the enterprise identity provider
   * is exchanged there (RFC 8693) for an identity assertion grant, which the server's authorization server trades for
   * an access token (RFC 7523). The IdP's token endpoint, Seam's client id there (and its secret, if any), and where the
   * ID token is read from (env var or secrets-file key; never stored).
   */
  idpTokenEndpoint: z.url({ protocol: /^https?$/, error: "Enter the identity provider's token endpoint URL" }).max(URL_MAX).optional(),
  idpClientId: z.string().trim().min(1).max(1_024).optional(),
  idpClientSecretEnv: envVarName("MY_IDP_CLIENT_SECRET").optional(),
  idTokenEnv: envVarName("MY_IDP_ID_TOKEN").optional(),
  /** private_key_jwt: where the PEM (PKCS#8) private key is read from (env var or secrets-file key); never stored. */
  privateKeyEnv: envVarName("MY_SERVER_CLIENT_KEY").optional(),
  /** The JWT signing algorithm of `privateKeyEnv`'s key (ES256 when absent). */
  signingAlgorithm: z.enum(["ES256", "ES384", "RS256", "RS384", "PS256"]).optional(),
  /**
   * Accept authorization-server metadata whose `issuer` is not the URL it was fetched from (RFC 8414 §3.3). Some
   * servers written for the 2025-03-26 revision publish such metadata; accepting it weakens the protection against
   * mix-up attacks, so it is off unless set for one server.
   */
  allowIssuerMismatch: z.boolean().optional(),
})
  .refine((o) => !o.clientSecretEnv || o.clientId, { message: "A client secret needs the client id it belongs to", path: ["clientSecretEnv"] })
  .refine((o) => !o.privateKeyEnv || o.clientId, { message: "A private key needs the client id it belongs to", path: ["privateKeyEnv"] })
  .refine((o) => o.grant !== "client_credentials" || (o.clientId && (o.clientSecretEnv || o.privateKeyEnv)), {
    message: "client_credentials needs clientId and either clientSecretEnv or privateKeyEnv", path: ["grant"],
  })
  .refine((o) => o.grant !== "jwt_bearer" || (o.clientId && o.idpTokenEndpoint && o.idpClientId && o.idTokenEnv), {
    message: "jwt_bearer needs clientId, idpTokenEndpoint, idpClientId and idTokenEnv", path: ["grant"],
  });
export type McpOAuthSettings = z.infer<typeof McpOAuthSettings>;

/** Where a server stands with OAuth (MCP-11), for the Authorization tab. Never carries a token. */
export const McpAuthStatus = z.object({
  name: z.string(),
  /** `not_needed`: no OAuth seen (stdio, static bearer, or the server never asked). */
  state: z.enum(["not_needed", "needs_authorization", "signed_in"]),
  /** Why authorization is needed, in words (first sign-in, expired refresh, more scope, sign-in error). */
  reason: z.string().nullable(),
  /** The token's subject (id_token `sub`, else the client id), when signed in. */
  signedInAs: z.string().nullable(),
  clientId: z.string().nullable(),
  /** How the client is registered: pre-registered, metadata document URL, dynamic registration. */
  registration: z.enum(["pre_registered", "metadata_document", "dynamic"]).nullable(),
  /** Granted scopes (space-separated list split), else the requested ones. */
  scopes: z.array(z.string()),
  /** ISO time the access token expires, null when unknown. */
  expiresAt: z.string().nullable(),
  /** The authorization server in use, when discovered. */
  authorizationServer: z.string().nullable(),
  /** A sign-in started and not yet finished (the browser tab is open). */
  pending: z.boolean(),
  /** The last sign-in error in words (denied, bad state, token endpoint), null after a success. */
  lastError: z.string().nullable(),
});
export type McpAuthStatus = z.infer<typeof McpAuthStatus>;

/** What "Authorize" returns: the URL to open in a new tab, bound to this server by its `state`. */
export const McpAuthorizeResult = z.object({ name: z.string(), url: z.string(), expiresAt: z.string() });
export type McpAuthorizeResult = z.infer<typeof McpAuthorizeResult>;
