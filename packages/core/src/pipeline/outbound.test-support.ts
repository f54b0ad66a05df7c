import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { definePlugin } from '../contract/plugin.js';
import { DEFAULT_WORKSPACE } from '../store/types.js';
import { examplePlugin } from '../testing/example-plugin.js';
import type { Engine } from './engine.js';

/** The example plugin with webhooks: `x-sig` is the hex HMAC-SHA256 of the body. */
export const signed = definePlugin({
  ...examplePlugin,
  events: {
    toleranceSeconds: 60,
    secretHint: 'the example app’s secret',
    verify: (delivery, secret) => {
      const mac = createHmac('sha256', secret).update(delivery.body).digest('hex');
      return mac === delivery.headers['x-sig'] ? { outcome: 'signed', replayKey: mac } : { outcome: 'forged', message: 'bad signature' };
    },
    normalise: (body) => {
      const { id, type } = body as { id: string; type: string };
      return { events: [{ type, upstreamId: id, recordId: id, payload: body }] };
    },
  },
});
export const INBOUND_SECRET = 'example-signing-secret';

/** A subscriber: records what it receives; answers `status` (after `delayMs`); listens or not on a fixed port. */
export class Subscriber {
  received: Array<{ body: string; headers: IncomingHttpHeaders }> = [];
  status = 204;
  delayMs = 0;
  /** Requests being answered now, and the most there were at once. */
  inFlight = 0;
  maxInFlight = 0;
  private server: Server | undefined;
  port = 0;

  async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        setTimeout(() => {
          this.inFlight--;
          res.writeHead(this.status).end();
        }, this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Down: the port refuses connections. */
  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }
}

export async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What a subscriber verifies with the reference implementation; throws when the signature does not hold. */
export function verified(secret: string, r: { body: string; headers: IncomingHttpHeaders }) {
  return new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
    type: string;
    data: { id: string; payload: { id: string } };
  };
}

/** Receives an event of the example plugin through `engine`, signed as the example application signs. */
export function receive(engine: Engine, id: string, type = 'call.completed') {
  const body = Buffer.from(JSON.stringify({ id, type }));
  const sig = createHmac('sha256', INBOUND_SECRET).update(body).digest('hex');
  return engine.events.receive(DEFAULT_WORKSPACE, 'example', { body, headers: { 'x-sig': sig }, query: {} });
}
