/**
 * Values by a numeric id, for entries taken and dropped once per call: the answers a worker waits for from its primary,
 * and the slots the primary has lent each worker. Not a `Map`: a `Map` (or a `Set`) that takes and drops an entry per
 * call rebuilds its table again and again, and V8 leaves in each old table a pointer to the new one. Once a full
 * collection has moved the current table to the old generation, that pointer keeps every later table alive through
 * the young collections, with what their entries hold (here: the promises of the calls waiting, and all they keep).
 * Two workers and their primary promoted twice the bytes per young collection and ran a full collection every few
 * seconds. A null-prototype object keeps
 * integer keys in a table that is replaced when it grows, never chained: the same churn without the chain. The list
 * of responses a stop closes had the same fault (server/unanswered.ts).
 */
export class IdTable<T> {
  private entries: Record<number, T> = Object.create(null);

  set(id: number, value: T): void {
    this.entries[id] = value;
  }

  get(id: number): T | undefined {
    return this.entries[id];
  }

  /** Removes the entry of `id` and returns its value (undefined when there was none). */
  take(id: number): T | undefined {
    const value = this.entries[id];
    if (value !== undefined) delete this.entries[id];
    return value;
  }

  /** Every value, in ascending order of id. */
  values(): T[] {
    return Object.values(this.entries);
  }

  /** How many entries the table holds (for diagnostics; counted, not kept). */
  get size(): number {
    return Object.keys(this.entries).length;
  }

  clear(): void {
    this.entries = Object.create(null);
  }
}
