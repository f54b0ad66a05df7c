import type { ResolvedToolSet } from '@portico/core';

/** A tool set as the admin API shows it: its rules, and the operations they select today. */
export function publicToolSet({ record, operations }: ResolvedToolSet) {
  return {
    id: record.id,
    name: record.name,
    rules: record.rules.map((rule) => ({ match: rule.match, read_only: rule.readOnly })),
    operations,
    version: record.version,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}
