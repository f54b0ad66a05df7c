import { cacheKey } from '../store/changes.js';

/**
 * What a connection's ciphertext is bound to: its workspace, service and (a personal connection) member, so that a
 * secret copied into another row — another person's — cannot be opened there.
 */
export function connectionAad(workspaceId: string, service: string, memberId?: string | null): string {
  return memberId ? `portico/connection/${workspaceId}/${service}/member/${memberId}` : `portico/connection/${workspaceId}/${service}`;
}

/** What a workspace's webhook signing secret for a service is bound to (pipeline/inbound-events.ts). */
export function eventSecretAad(workspaceId: string, service: string): string {
  return `portico/events/${workspaceId}/${service}`;
}

/** What an event subscription's signing secret is bound to: its workspace and subscription. */
export function subscriptionSecretAad(workspaceId: string, subscriptionId: string): string {
  return `portico/subscriptions/${workspaceId}/${subscriptionId}`;
}

/** The connection lock's name: one refresh at a time per connection, personal ones apart from the shared one. */
export function connectionLockName(service: string, memberId: string | null): string {
  return memberId ? `${service}\u0000member\u0000${memberId}` : service;
}

/** Where a connection's credentials are cached: the shared one's key, then the member's id for a personal one. */
export function credentialKey(workspaceId: string, service: string, memberId: string | null | undefined): string {
  return `${cacheKey(workspaceId, service)}\u0000${memberId ?? ''}`;
}

/**
 * What the secret of a webhook subscription a plugin registered is bound to: its workspace, service and topic (one
 * topic's secret cannot be passed off as another's).
 */
export function registrationSecretAad(key: { workspaceId: string; service: string; topic: string }): string {
  return `portico/registrations/${key.workspaceId}/${key.service}/${encodeURIComponent(key.topic)}`;
}
