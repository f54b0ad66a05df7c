import type Router from '@koa/router';
import { type Engine, escapeHtml, GatewayError, type Logger, toGatewayError } from '@portico/core';
import type { Context, Next } from 'koa';
import type { GatewayState } from '../http/state.js';

/** What the OAuth connect routes need of the gateway's options. */
export interface ConnectRouteOptions {
  engine: Engine;
  logger: Logger;
  /** The dashboard is served: the result page links back to the integration's page there. */
  dashboard?: unknown;
}

/**
 * The OAuth connect flow. Starting needs an admin key; the callback is reached by the browser coming back from the
 * provider and is authenticated by its single-use state instead.
 */
export function mountConnect(
  router: Router<GatewayState>,
  options: ConnectRouteOptions,
  authenticate: (ctx: Context, next: Next) => Promise<void>,
): void {
  const { engine, logger } = options;
  router.get('/api/connect/:service', authenticate, async (ctx) => {
    if (!ctx.state.principal.scopes.admin) throw new GatewayError('forbidden', 'Only an admin key may connect integrations');
    const service = ctx.params.service as string;
    ctx.state.service = service;
    const started = await engine.beginOAuth(ctx.state.principal.workspaceId, service, ctx.state.principal.keyId);
    ctx.status = 302;
    ctx.set('location', started.authorizeUrl);
    ctx.set('cache-control', 'no-store');
    ctx.body = { authorize_url: started.authorizeUrl, expires_at: started.expiresAt };
  });

  router.get('/api/connect/:service/callback', async (ctx) => {
    const service = ctx.params.service as string;
    ctx.state.service = service;
    ctx.set('cache-control', 'no-store');
    // the page shows the provider's words: no script, no framing, no referrer carrying the code onwards
    ctx.set(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    ctx.set('x-frame-options', 'DENY');
    ctx.set('referrer-policy', 'no-referrer');
    ctx.set('x-content-type-options', 'nosniff');
    ctx.type = 'html';
    const query: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(ctx.querystring)) query[key] = value;
    try {
      const done = await engine.completeOAuth(service, query);
      const name = engine.registry.get(done.service)?.plugin.displayName ?? done.service;
      if (done.memberId) {
        const back = options.dashboard ? '/dashboard/connections' : undefined;
        ctx.body = resultPage(
          `Your ${name} account is connected`,
          `Your assistants now act as you in ${name}. You can close this window.`,
          back,
        );
        return;
      }
      const back = options.dashboard ? `/dashboard/integrations/${done.service}` : undefined;
      ctx.body = resultPage(`${name} is connected`, `Portico can now call ${name} for this workspace. You can close this window.`, back);
    } catch (error) {
      const failure = toGatewayError(error);
      if (failure.code === 'internal_error') logger.error({ err: error, service }, 'OAuth callback failed');
      ctx.status = failure.status;
      ctx.body = resultPage('Not connected', failure.message, options.dashboard ? `/dashboard/integrations/${service}` : undefined);
    }
  });
}

/** The page a person sees at the end of a connect flow: what happened, in one sentence, never a stack trace. */
function resultPage(title: string, message: string, back?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Portico</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2328}h1{font-size:1.4rem}</style>
</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${
    back ? `<p><a href="${escapeHtml(back)}">Back to the dashboard</a></p>` : ''
  }</body></html>`;
}
