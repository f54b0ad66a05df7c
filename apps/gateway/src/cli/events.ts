import { parseArgs } from 'node:util';
import type { Runtime } from '../runtime/runtime.js';
import { type Command, type Io, UsageError, WORKSPACE_OPTION, withRuntime } from './command.js';

const HELP = `Usage:
  portico events list [--workspace ID]
  portico events secret <service> --secret SECRET|- [--workspace ID]
  portico events forget <service> [--workspace ID]
  portico events show <service> [--workspace ID]
  portico events subscribe <url> --types TYPE[,TYPE…] [--workspace ID]
  portico events subscriptions [--workspace ID]
  portico events unsubscribe <subscription id> [--workspace ID]

The integrations that receive webhooks (docs/events.md): list shows each one, whether its signing secret is saved and
the path the application delivers to (/api/events/<workspace>/<service>). secret saves the application's signing
secret (Slack's signing secret, CallRail's signing key, Intuit's verifier token), encrypted at rest; '--secret -'
reads it from standard input, which keeps it out of shell history. forget deletes it: deliveries are then refused.

show prints the saved secret, for an application that delivered it in its setup request and asks for it back
(Notion's verification token); only here, on the gateway's host.

subscribe sends the workspace's events from now on to a URL (https), signed per Standard Webhooks: --types takes event
types (call.completed), <service>.* or *. It prints the subscription's signing secret (whsec_…) once: give it to the
subscriber. subscriptions lists them; unsubscribe deletes one with its delivery log.`;

async function events(args: string[], runtime: Runtime, io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const options = { ...WORKSPACE_OPTION, secret: { type: 'string' as const }, types: { type: 'string' as const } };
  const { values, positionals } = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  const workspace = (await runtime.engine.workspaces.require(values.workspace)).id;
  if (sub === 'list') {
    for (const source of await runtime.engine.events.configured(workspace)) {
      // the webhooks the gateway registered, one per topic (Clio's models): each one's id, and the first to expire
      const hooks = source.registered_webhooks ?? [];
      const soonest = hooks.flatMap((h) => (h.expires_at === null ? [] : [h.expires_at])).sort()[0];
      const listed = hooks.map((h) => `${h.topic} ${h.id}`).join(', ');
      const registered = hooks.length > 0 ? `webhooks registered: ${listed}; first expires ${soonest ?? 'never'}` : undefined;
      const state = registered ?? (source.configured ? 'secret saved' : `no secret (${source.secret_hint})`);
      io.out(`${source.service}\t/api/events/${workspace}/${source.service}\t${state}`);
    }
    return 0;
  }
  const service = positionals[0];
  if (sub === 'secret') {
    if (!service || values.secret === undefined) throw new UsageError('events secret needs a service and --secret SECRET (or --secret -)');
    const secret = values.secret === '-' ? io.stdin().trim() : values.secret;
    await runtime.engine.events.setSecret(workspace, service, secret);
    io.out(`Saved the signing secret of ${service}; it delivers to /api/events/${workspace}/${service}`);
    return 0;
  }
  if (sub === 'forget') {
    if (!service) throw new UsageError('events forget needs a service');
    if (!(await runtime.engine.events.deleteSecret(workspace, service))) throw new UsageError(`${service} has no signing secret saved`);
    io.out(`Deleted the signing secret of ${service}; its deliveries are refused from now on`);
    return 0;
  }
  if (sub === 'show') {
    if (!service) throw new UsageError('events show needs a service');
    const secret = await runtime.engine.events.revealSecret(workspace, service);
    if (secret === undefined) throw new UsageError(`${service} has no signing secret saved`);
    io.out(secret);
    return 0;
  }
  if (sub === 'subscribe') {
    if (!positionals[0] || !values.types) throw new UsageError('events subscribe needs a URL and --types (event types, <service>.* or *)');
    const types = values.types.split(',').map((t) => t.trim());
    const created = await runtime.engine.events.outbound.subscribe(workspace, { url: positionals[0], types });
    io.out(`Subscribed ${created.id}: ${created.url} receives ${created.types.join(', ')}`);
    io.out(`Signing secret (shown this once): ${created.secret}`);
    return 0;
  }
  if (sub === 'subscriptions') {
    for (const s of await runtime.engine.events.outbound.list(workspace))
      io.out(`${s.id}\t${s.url}\t${s.types.join(',')}\t${s.created_at}`);
    return 0;
  }
  if (sub === 'unsubscribe') {
    if (!positionals[0]) throw new UsageError('events unsubscribe needs a subscription id');
    await runtime.engine.events.outbound.unsubscribe(workspace, positionals[0]);
    io.out(`Deleted subscription ${positionals[0]}`);
    return 0;
  }
  throw new UsageError('events takes list, secret, forget, show, subscribe, subscriptions or unsubscribe');
}

export const eventsCommand: Command = {
  help: HELP,
  run: (args, env, io) => withRuntime(env, (runtime) => events(args, runtime, io)),
};
