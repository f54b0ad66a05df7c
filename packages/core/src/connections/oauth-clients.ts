import type { RegisteredIntegration } from '../contract/registry.js';
import { GatewayError } from '../errors.js';
import type { OAuthClient, OAuthClientConfig } from './oauth-protocol.js';

/** The OAuth clients the operator configured, combined with each plugin's endpoints. */
export class OAuthClients {
  constructor(
    private readonly configs: Readonly<Record<string, OAuthClientConfig>>,
    /** Public base URL of the gateway as of now: it may be set after start-up, once the server knows its address. */
    private readonly publicUrl: () => string | undefined,
  ) {}

  /** Whether the operator configured an OAuth client for `service`. */
  configured(service: string): boolean {
    return Boolean(this.configs[service]);
  }

  /**
   * The OAuth client of a service: the plugin's endpoints, the operator's credentials and overrides; `personal`: as a
   * person connecting their own account uses it (the plugin's `personal` settings over the rest).
   */
  client(integration: RegisteredIntegration, personal = false): OAuthClient {
    const declared = integration.plugin.auth.oauth2;
    const settings = declared && personal && declared.personal ? { ...declared, ...declared.personal } : declared;
    if (!settings) throw new GatewayError('bad_request', `${integration.service} does not connect with OAuth; store a token instead`);
    const config = this.configs[integration.service];
    if (!config) {
      const prefix = `PORTICO_${integration.service.toUpperCase()}`;
      throw new GatewayError(
        'bad_request',
        `OAuth is not configured for ${integration.service}: set ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET`,
      );
    }
    const publicUrl = this.publicUrl();
    const redirectUri = config.redirectUri ?? (publicUrl ? `${publicUrl}/api/connect/${integration.service}/callback` : undefined);
    if (!redirectUri)
      throw new GatewayError('bad_request', `No OAuth redirect URL for ${integration.service}: set PORTICO_PUBLIC_URL or a redirect URL`);
    return {
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      redirectUri,
      settings: {
        ...settings,
        ...(config.authorizeUrl ? { authorizeUrl: config.authorizeUrl } : {}),
        ...(config.tokenUrl ? { tokenUrl: config.tokenUrl } : {}),
        ...(config.revokeUrl ? { revokeUrl: config.revokeUrl } : {}),
      },
    };
  }
}
