import type { Engine } from '@portico/core';
import type { Context, Next } from 'koa';

/** `Authorization: Bearer <token>` → token. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The middleware that knows who calls: the key's principal on `ctx.state`, or `unauthorized` from the engine. */
export function authenticator(engine: Engine): (ctx: Context, next: Next) => Promise<void> {
  return async (ctx, next) => {
    ctx.state.principal = await engine.authenticate(bearerToken(ctx.get('authorization') || undefined));
    await next();
  };
}
