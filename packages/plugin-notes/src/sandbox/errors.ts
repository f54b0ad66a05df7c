/** An error answered in Notion's shape: `{ object: "error", status, code, message }`. */
export class NotionError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'NotionError';
  }
}

/** Notion's default code for a status, used when the fail-next control does not name one. */
export function defaultCode(status: number): string {
  const codes: Record<number, string> = {
    400: 'validation_error',
    401: 'unauthorized',
    403: 'restricted_resource',
    404: 'object_not_found',
    409: 'conflict_error',
    429: 'rate_limited',
    500: 'internal_server_error',
    502: 'bad_gateway',
    503: 'service_unavailable',
    504: 'gateway_timeout',
  };
  return codes[status] ?? (status >= 500 ? 'internal_server_error' : 'validation_error');
}

export function defaultMessage(code: string): string {
  const messages: Record<string, string> = {
    rate_limited: 'You have been rate limited. Please try again in a few minutes.',
    internal_server_error: 'Unexpected error occurred.',
    service_unavailable: 'Notion is unavailable, please try again later.',
    bad_gateway: 'Notion encountered an issue while attempting to complete this request. Please try again.',
    gateway_timeout: 'Notion timed out while attempting to complete this request. Please try again later.',
    conflict_error: 'Conflict occurred while saving. Please try again.',
    restricted_resource: 'API token does not have access to this resource.',
    unauthorized: 'API token is invalid.',
    object_not_found: 'Could not find the requested object.',
  };
  return messages[code] ?? 'The request failed validation.';
}

export function validationError(message: string): NotionError {
  return new NotionError(400, 'validation_error', message);
}

/** A problem with one field of the JSON body, phrased as Notion phrases it. */
export function bodyInvalid(path: string, problem: string): NotionError {
  return validationError(`body failed validation: ${path} ${problem}.`);
}

export function notFound(kind: string, id: string): NotionError {
  return new NotionError(
    404,
    'object_not_found',
    `Could not find ${kind} with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
  );
}

export function archivedError(): NotionError {
  return validationError("Can't edit block that is archived. You must unarchive the block before editing.");
}

export function show(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}
