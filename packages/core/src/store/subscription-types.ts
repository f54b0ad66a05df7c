/**
 * Outbound event subscriptions, as the store keeps them (docs/adr/0041-outbound-subscriptions.md): each workspace's
 * subscriber URLs with their sealed signing secrets; one queued delivery per event and subscription, made when the event
 * is stored (a trigger on `events`, so no event is stored without its deliveries); the log of every attempt.
 */
import type { EventRecord } from './event-types.js';

/** A subscriber: where the workspace's events of `types` go, signed with `secret` (a ciphertext, bound to the id). */
export interface SubscriptionRecord {
  /** `sub_…` */
  id: string;
  workspaceId: string;
  url: string;
  /** Exact types (`call.completed`), `{service}.*`, or `*`. */
  types: string[];
  secret: string;
  createdAt: string;
}

/**
 * One event queued for one subscription. `pending`: to deliver, not before `retryAt`; `dead`: given up on after the
 * retry period (a dead letter), until redelivery is asked for. Delivered ones leave the queue.
 */
export interface QueuedDelivery {
  subscriptionId: string;
  workspaceId: string;
  eventSeq: number;
  state: 'pending' | 'dead';
  /** Failed attempts so far. */
  attempts: number;
  /** When the first of the failed attempts was made (the retry period runs from it). */
  failingSince: string | null;
  retryAt: string | null;
  /** The queued event; undefined when it is no longer kept (retention). */
  event?: EventRecord;
}

/** One attempt to deliver an event to a subscriber, as the delivery log shows it; never the secret or the body. */
export interface DeliveryAttemptRecord {
  subscriptionId: string;
  workspaceId: string;
  eventId: string;
  eventSeq: number;
  /** 1 for the first attempt of this event (counted again from 1 after a redelivery). */
  attempt: number;
  at: string;
  /** The subscriber's HTTP status; null when no answer came (refused, timed out). */
  status: number | null;
  error: string | null;
  durationMs: number;
  /** `delivered` (2xx), `failed` (tried again later) or `dead` (the last one: a dead letter). */
  outcome: 'delivered' | 'failed' | 'dead';
}

export interface SubscriptionTable {
  create(record: SubscriptionRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<SubscriptionRecord | undefined>;
  list(workspaceId: string): Promise<SubscriptionRecord[]>;
  /** Every workspace's subscriptions (the delivery loop, re-encryption after a key rotation). */
  all(): Promise<SubscriptionRecord[]>;
  /** Deletes a subscription with its queue and log. */
  delete(workspaceId: string, id: string): Promise<boolean>;
  /** Replaces a secret's ciphertext if it is still `expected` (compare-and-swap). */
  swapSecret(id: string, secret: string, expected: string): Promise<boolean>;
  /**
   * Takes (or extends) the subscription's delivery lease for `owner` until `until`, when it is free, expired at `now`,
   * or the owner's already. False when another owner holds it: one deliverer per subscription across instances.
   */
  lease(id: string, owner: string, until: string, now: string): Promise<boolean>;
  /** Gives the lease up, if `owner` still holds it. */
  release(id: string, owner: string): Promise<void>;
  /** The subscriptions whose next delivery (the oldest pending) is due at `now`, at most `limit`: the loop's work. */
  due(now: string, limit: number): Promise<string[]>;
  /** The oldest pending delivery of the subscription (the next in order), with its event; undefined: nothing queued. */
  head(id: string): Promise<QueuedDelivery | undefined>;
  /**
   * Records the outcome of the head's attempt, if `owner` still holds the lease: `delivered` removes it from the queue,
   * `failed` sets its attempts and next time, `dead` makes it a dead letter. False when the lease was lost meanwhile.
   */
  settle(delivery: QueuedDelivery, owner: string, attempt: DeliveryAttemptRecord, retryAt: string | null): Promise<boolean>;
  /** Removes a queued delivery whose event is no longer kept. */
  drop(id: string, eventSeq: number): Promise<void>;
  /** Keeps the subscription's newest `keep` attempts in the log, deleting older ones. */
  trimLog(id: string, keep: number): Promise<void>;
  /** The subscription's attempts, newest first. */
  attempts(id: string, limit: number): Promise<DeliveryAttemptRecord[]>;
  /** The subscription's dead letters, oldest first. */
  deadLetters(id: string, limit: number): Promise<QueuedDelivery[]>;
  /** Queues dead letters again (all of the subscription's, or the one of `eventId`), from a first attempt; how many. */
  redeliver(id: string, eventId?: string): Promise<number>;
}
