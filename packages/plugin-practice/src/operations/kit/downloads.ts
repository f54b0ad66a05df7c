import { defineOperation, GatewayError, type OperationDefinition, Params, type RunContext, type TSchema, Type } from '@portico/core/plugin';
import { ClioId } from '../../schemas.js';

// Clio's download endpoints (documents, document versions, document archives, document templates, reports) do not
// answer with the file: they answer 303 See Other with a short-lived, pre-signed address of the file in Clio's storage.
// The gateway's upstream client follows no redirects (it would carry the connection's token to another host), so these
// operations answer with that address instead: `{ "download_url": "…" }`. Whoever holds the address can fetch the file
// with a plain GET and no credentials until it expires (minutes), so it is as sensitive as the file itself.

/** The answer of a download operation. */
export const DownloadAnswer = Type.Object(
  {
    download_url: Type.String({
      description: 'Short-lived address of the file (pre-signed; fetch it with a plain GET and no Authorization header).',
    }),
  },
  { description: 'Where to fetch the file: Clio answers 303 See Other with this address.' },
);

export interface DownloadSpec {
  name: string;
  /** Gateway path with `:id`. */
  path: string;
  /** Clio path with `{id}` written as `${id}`, below /api/v4, ending .json. */
  clio: (id: string) => string;
  summary: string;
  description: string;
  /** What the address fetches (`the report file`): the answer's sentence names it. */
  file: string;
  idDescription: string;
  /** Extra query parameters Clio takes (sent as given). */
  query?: Record<string, TSchema>;
}

/** The sentence on the answer, naming what it fetches. */
const explained = (file: string) =>
  `Answers { "download_url": "<address>" }: where to fetch ${file}, a short-lived pre-signed address Clio redirects to (303); fetch it with a plain GET (no Authorization header) within minutes, before it expires.`;

/** The 303's Location, or a 502 that says Clio did not give one (a 200 with a body passes through as it came). */
export async function followDownload(ctx: RunContext, path: string, query?: Record<string, string>): Promise<unknown> {
  const response = await ctx.send({ method: 'GET', path, ...(query && Object.keys(query).length > 0 ? { query } : {}) });
  if (response.status !== 303) return response.body;
  const location = response.headers.location;
  const url = Array.isArray(location) ? location[0] : location;
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) {
    throw new GatewayError('upstream_error', 'Clio answered 303 See Other without the address of the file');
  }
  return { download_url: url };
}

export function downloadOperation(spec: DownloadSpec): OperationDefinition {
  const queryNames = Object.keys(spec.query ?? {});
  return defineOperation({
    name: spec.name,
    method: 'GET',
    path: spec.path,
    summary: spec.summary,
    description: `${spec.description} ${explained(spec.file)}`,
    params: Params({
      id: ClioId(spec.idDescription),
      ...Object.fromEntries(Object.entries(spec.query ?? {}).map(([name, schema]) => [name, Type.Optional(schema)])),
    }),
    response: DownloadAnswer,
    run: (params, ctx) => {
      const p = params as Record<string, unknown>;
      const query: Record<string, string> = {};
      for (const name of queryNames) if (typeof p[name] === 'string') query[name] = p[name] as string;
      return followDownload(ctx, spec.clio(String(p.id)), query);
    },
  });
}
