import { CDC_ENTITIES } from '../schemas.js';
import type { Json } from './company.js';
import { invalidParameter, qboTime, sandboxNow } from './errors.js';
import { entityName } from './query.js';
import type { Company } from './seed.js';

// `GET /v3/company/{realmId}/cdc?entities=Invoice,Customer&changedSince=…`: change data capture. For each entity
// asked for, the records whose MetaData.LastUpdatedTime is after changedSince (at most 1000 each), in one CDCResponse.
// QuickBooks looks back at most 30 days from now — the sandbox's now is the afternoon of its fixed today.

const MOST_PER_ENTITY = 1000;
const LOOK_BACK_MS = 30 * 86_400_000;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

export function runCdc(company: Company, query: URLSearchParams): Json {
  const rawEntities = query.get('entities');
  if (rawEntities === null || rawEntities.trim() === '') throw invalidParameter('entities', 'at least one entity is required');
  const entities = rawEntities.split(',').map((name) => {
    const entity = entityName(name.trim());
    if (!entity || !(CDC_ENTITIES as readonly string[]).includes(entity)) {
      throw invalidParameter('entities', `"${name.trim()}" is not an entity change data capture reports on`);
    }
    return entity;
  });
  const changedSince = query.get('changedSince');
  if (changedSince === null || !TIMESTAMP.test(changedSince) || Number.isNaN(Date.parse(changedSince))) {
    throw invalidParameter('changedSince', `"${changedSince ?? ''}" is not a date-time (yyyy-MM-ddTHH:mm:ss with a time zone)`);
  }
  const since = Date.parse(changedSince);
  if (since < sandboxNow().getTime() - LOOK_BACK_MS) {
    throw invalidParameter('changedSince', 'cannot be more than 30 days in the past');
  }
  const responses = [...new Set(entities)].map((entity) => {
    const changed = company.entities[entity]
      .filter((record) => Date.parse(String((record.MetaData as Json | undefined)?.LastUpdatedTime)) > since)
      .slice(0, MOST_PER_ENTITY);
    return changed.length === 0
      ? {}
      : { [entity]: structuredClone(changed), startPosition: 1, maxResults: changed.length, totalCount: changed.length };
  });
  return { CDCResponse: [{ QueryResponse: responses }], time: qboTime() };
}
