// autocannon ships no types: the part of its API the benchmark and the soak test use.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface Options {
    /** several: the connections are dealt to them in turn */
    url: string | string[];
    connections?: number;
    /** seconds */
    duration?: number;
    pipelining?: number;
    /** seconds */
    timeout?: number;
    /** requests per second over all connections */
    overallRate?: number;
    requests?: Request[];
  }
  export interface Result {
    errors: number;
    timeouts: number;
    requests: { total: number };
  }
  export interface Instance extends EventEmitter {
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
  }

  export default function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance;
}
