// The unit lane runs its files one after another in shared worker processes (vitest.config.ts, `isolate: false`), so
// that each file does not pay for loading Koa, the MCP SDK, got and the plugins again. What a file may change for the
// whole process is put back after it: the sandbox clock's pin, fake timers, stubbed environment variables and
// globals, and any other environment variable it set.
import { afterAll, vi } from 'vitest';
import { pinSandboxClock } from '../packages/core/src/testing/clock.js';

const environment = { ...process.env };

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  for (const [name, value] of Object.entries(environment)) if (process.env[name] !== value) process.env[name] = value;
  pinSandboxClock();
});
