import type { RegisteredIntegration, RegisteredOperation } from '../contract/registry.js';
import { GatewayError } from '../errors.js';

/**
 * Browsing a service when search misses: `describe_method` with a service alone answers its families of operations
 * (the records they work on) and how many each has; with a family too, that family's operations, one line each.
 */

const LINKS = new Set(['to', 'from', 'of', 'in', 'on', 'for', 'the', 'a', 'an']);

/** The family of an operation: the record its name works on, in the singular ("matter" of list_matters). */
export function familyOf(name: string): string {
  const parts = name.split('_');
  // The verb goes, then a leading preposition (invite_to_channel) and a trailing "info" (get_channel_info).
  let rest = parts.length > 1 ? parts.slice(1) : parts;
  while (rest.length > 1 && LINKS.has(rest[0] ?? '')) rest = rest.slice(1);
  if (rest.length > 1 && rest[rest.length - 1] === 'info') rest = rest.slice(0, -1);
  const by = rest.indexOf('by');
  const topic = by > 0 ? rest.slice(0, by) : rest;
  const last = topic[topic.length - 1] ?? '';
  const singular = last.endsWith('ies') ? `${last.slice(0, -3)}y` : /[^s]s$/.test(last) ? last.slice(0, -1) : last;
  return [...topic.slice(0, -1), singular].join('_');
}

export interface ServiceFamilies {
  service: string;
  /** family → how many of its operations the caller may use. */
  families: Record<string, number>;
  next: string;
}

export interface FamilyOperations {
  service: string;
  family: string;
  /** operation → its summary. */
  operations: Record<string, string>;
  next: string;
}

export function browseService(integration: RegisteredIntegration, operations: readonly RegisteredOperation[]): ServiceFamilies {
  const families: Record<string, number> = {};
  for (const operation of operations) {
    const family = familyOf(operation.name);
    families[family] = (families[family] ?? 0) + 1;
  }
  return {
    service: integration.service,
    families,
    next: `describe_method with service "${integration.service}" and family lists the family's operations`,
  };
}

export function browseFamily(
  integration: RegisteredIntegration,
  operations: readonly RegisteredOperation[],
  family: string,
): FamilyOperations {
  const wanted = familyOf(
    `x_${family
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_')}`,
  );
  const members = operations.filter((operation) => familyOf(operation.name) === wanted);
  if (members.length === 0) {
    throw new GatewayError(
      'not_found',
      `${integration.service} has no family ${JSON.stringify(family.slice(0, 80))}: describe_method with service "${integration.service}" alone lists its families`,
    );
  }
  return {
    service: integration.service,
    family: wanted,
    operations: Object.fromEntries(members.map((operation) => [operation.name, operation.definition.summary])),
    next: `describe_method with service "${integration.service}" and method describes one`,
  };
}
