import type { ServerResponse } from 'node:http';

/** One response of the list; unlinked (and emptied) when it is removed. */
interface Entry {
  response: ServerResponse | undefined;
  prev: Entry | undefined;
  next: Entry | undefined;
}

/**
 * The responses not yet closed, so that a shutdown can make each one close its connection: a doubly linked list, not
 * a `Set`. A `Set` that takes and drops every response (thousands a second) rebuilds its table again and again, and
 * V8 leaves in each old table a pointer to the new one. Once a full collection has moved the current table to the old
 * generation, that pointer keeps every later table alive through the young collections, with the responses in them and
 * all their requests hold: they are promoted until the next full collection, which starts it again. A gateway that had
 * run one full collection promoted ten times the bytes per young collection (docs/performance.md, "a full collection,
 * and two rates of promotion"). Here a removed entry is unlinked and emptied, so that nothing dead points to anything
 * young.
 */
export class UnansweredResponses {
  private head: Entry | undefined;

  /** Adds a response; the function returned removes it (once; later calls do nothing). */
  add(response: ServerResponse): () => void {
    const entry: Entry = { response, prev: undefined, next: this.head };
    if (this.head) this.head.prev = entry;
    this.head = entry;
    return () => this.remove(entry);
  }

  /** Every response in the list, newest first. */
  *[Symbol.iterator](): IterableIterator<ServerResponse> {
    for (let entry = this.head; entry?.response; entry = entry.next) yield entry.response;
  }

  /** Empties the list; the removers handed out before do nothing afterwards. */
  clear(): void {
    let entry = this.head;
    while (entry) {
      const next = entry.next;
      entry.response = undefined;
      entry.prev = undefined;
      entry.next = undefined;
      entry = next;
    }
    this.head = undefined;
  }

  private remove(entry: Entry): void {
    if (!entry.response) return;
    if (entry.prev) entry.prev.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    entry.response = undefined;
    entry.prev = undefined;
    entry.next = undefined;
  }
}
