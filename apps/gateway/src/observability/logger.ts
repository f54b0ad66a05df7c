import { currentTrace } from '@portico/core';
import { pino } from 'pino';
import type { GatewayConfig } from '../config/load.js';

/** Structured JSON logs. Anything that could carry a secret is redacted by path, whatever logged it. */
export function createLogger(level: GatewayConfig['logLevel'], destination?: NodeJS.WritableStream) {
  return pino(
    {
      level,
      base: { app: 'portico' },
      // every line written while answering a request names its W3C trace id (server/middleware.ts)
      mixin: () => {
        const trace = currentTrace();
        return trace ? { traceId: trace.traceId } : {};
      },
      redact: {
        paths: [
          'authorization',
          '*.authorization',
          'headers.authorization',
          '*.headers.authorization',
          'token',
          '*.token',
          'key',
          '*.key',
          'accessToken',
          '*.accessToken',
          'refreshToken',
          '*.refreshToken',
          'secret',
          '*.secret',
          'err.options',
        ],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ sync: false }),
  );
}
