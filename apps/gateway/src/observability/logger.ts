import { currentTrace, type Logger } from '@portico/core';
import { pino } from 'pino';
import type { GatewayConfig } from '../config/load.js';

/** Structured JSON logs. Anything that could carry a secret is redacted by path, whatever logged it. */
export function createLogger(level: GatewayConfig['logLevel'], destination?: NodeJS.WritableStream) {
  const stream = destination ?? pino.destination({ sync: false });
  const logger = pino(
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
    stream,
  );
  // The access line (server/middleware.ts) has fixed fields, none of them a redacted name, and names its trace itself:
  // a sibling on the same stream and level writes it without the redaction pass and the mixin, the same line for less.
  accessLoggers.set(logger, pino({ level, base: { app: 'portico' } }, stream));
  return logger;
}

const accessLoggers = new WeakMap<object, Logger>();

/** The logger that writes `logger`'s access lines: its sibling when {@link createLogger} made it, else itself. */
export function accessLogger(logger: Logger): Logger {
  return accessLoggers.get(logger) ?? logger;
}
