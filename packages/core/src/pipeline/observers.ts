import type { AuditRecord } from '../store/types.js';
import type { UpstreamObservation } from '../upstream/send.js';

/** What an audited outcome carries besides its record, for observers only (never stored). */
export interface AuditDetail {
  /** The upstream's HTTP status behind a failure, when the failure came from an upstream answer (a 429, a 500…). */
  upstreamStatus?: number;
}

export type { UpstreamObservation } from '../upstream/send.js';

/**
 * Listens to the engine without being part of it (metrics: core does not depend on any metrics library). One
 * observation point per fact: `audited` sees every audit record as it is queued — each invocation over REST and MCP,
 * and the OAuth events (`oauth_connect`, `oauth_refresh`, protocol `admin`) — and `upstream` every upstream call of
 * an operation. Both run on the request path: they must cost microseconds, and must not throw (an exception is
 * dropped, so that an observer cannot fail a call).
 */
/** Audit records that a write failed for and are held, that reached the store, or that were dropped (hold full). */
export interface AuditTrailCounts {
  held?: number;
  written?: number;
  dropped?: number;
}

export interface EngineObserver {
  audited?(record: AuditRecord, detail: AuditDetail): void;
  auditTrail?(counts: AuditTrailCounts): void;
  upstream?(observation: UpstreamObservation): void;
}

const NO_DETAIL: AuditDetail = Object.freeze({});

/** The observers of one engine; delivery is synchronous, each observer isolated from the others and from the call. */
export class Observers {
  /** Replaced, never mutated, on (un)subscribe: a delivery in progress keeps the list it started with. */
  private list: ReadonlyArray<{ observer: EngineObserver }> = [];

  add(observer: EngineObserver): () => void {
    // A wrapper per subscription: the same observer added twice is two independent subscriptions.
    const entry = { observer };
    this.list = [...this.list, entry];
    return () => {
      this.list = this.list.filter((e) => e !== entry);
    };
  }

  audited(record: AuditRecord, detail: AuditDetail = NO_DETAIL): void {
    for (const { observer } of this.list) {
      try {
        observer.audited?.(record, detail);
      } catch {
        // an observer's failure is its own: the call and the other observers go on
      }
    }
  }

  auditTrail(counts: AuditTrailCounts): void {
    for (const { observer } of this.list) {
      try {
        observer.auditTrail?.(counts);
      } catch {
        // as above
      }
    }
  }

  upstream(observation: UpstreamObservation): void {
    for (const { observer } of this.list) {
      try {
        observer.upstream?.(observation);
      } catch {
        // as above
      }
    }
  }
}
