import { readdirSync } from 'node:fs';
import type { OperationDefinition } from '@portico/core/plugin';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS, clioPlugin } from './index.js';
import { LISTING_ORDER } from './operations/kit/listing.js';
import type { CollectionRow, Family } from './operations/kit/rows.js';

// Each Clio collection is declared in one file of src/operations/, its family's: its row and the operations that do
// not fit a row (a download, a copy, a preview) beside it. Read from the files themselves, not from index.ts.

const dir = new URL('./operations/', import.meta.url);
const modules = await Promise.all(
  readdirSync(dir)
    .filter((file) => file.endsWith('.ts'))
    .map(async (file) => ({ file, module: (await import(/* @vite-ignore */ new URL(file, dir).href)) as Record<string, unknown> })),
);
const isFamily = (value: unknown): value is Family =>
  typeof value === 'object' && value !== null && Array.isArray((value as Family).rows) && Array.isArray((value as Family).operations);
const declared = modules.flatMap(({ file, module }) =>
  Object.values(module)
    .filter(isFamily)
    .map((family) => ({ file, family })),
);

const segments = (path: string) => path.split('/').filter(Boolean);
/** The row of the collection an operation works on: the row whose path its path starts with, the longest one. */
function collectionOf(operation: OperationDefinition, rows: readonly CollectionRow[]): CollectionRow | undefined {
  const path = segments(operation.path);
  return rows
    .filter((row) => segments(row.path).every((segment, i) => path[i] === segment))
    .sort((a, b) => segments(b.path).length - segments(a.path).length)[0];
}

type Declared = ReadonlyArray<{ file: string; family: Family }>;

/** Collections declared in more than one file, operations declared twice or away from their collection's file. */
function problems(declared: Declared): string[] {
  const out: string[] = [];
  const homes = new Map<string, string[]>();
  for (const { file, family } of declared) for (const row of family.rows) homes.set(row.key, [...(homes.get(row.key) ?? []), file]);
  for (const [key, files] of homes) if (files.length > 1) out.push(`${key} is declared in ${files.join(' and ')}`);
  const rows = declared.flatMap(({ file, family }) => family.rows.map((row) => ({ file, row })));
  const seen = new Map<string, string>();
  for (const { file, family } of declared) {
    for (const operation of family.operations) {
      const twice = seen.get(operation.name);
      if (twice) out.push(`${operation.name} is declared in ${twice} and ${file}`);
      seen.set(operation.name, file);
      const collection = collectionOf(
        operation,
        rows.map(({ row }) => row),
      );
      const home = rows.find(({ row }) => row === collection)?.file;
      if (collection && home !== file) out.push(`${operation.name} is in ${file}, its collection ${collection.key} in ${home}`);
    }
  }
  return out;
}

describe('the operation families', () => {
  it('are one per file of src/operations/ (besides the kit)', () => {
    expect(declared.map(({ file }) => file).sort()).toEqual(modules.map(({ file }) => file).sort());
  });

  it('declare every Clio collection in exactly one file, each operation once beside its collection', () => {
    expect(problems(declared)).toEqual([]);
  });

  it('hold the plugin’s table and all its operations', () => {
    expect(declared.flatMap(({ family }) => family.rows)).toEqual(expect.arrayContaining([...COLLECTIONS]));
    expect(declared.flatMap(({ family }) => family.rows)).toHaveLength(COLLECTIONS.length);
    const names = declared.flatMap(({ family }) => family.operations.map((o) => o.name));
    expect(names.sort()).toEqual(clioPlugin.operations.map((o) => o.name).sort());
  });

  it('would notice a collection split over two files (the check is live)', () => {
    const documents = declared.find(({ file }) => file === 'documents.ts');
    const bills = declared.find(({ file }) => file === 'bills.ts');
    if (!documents || !bills) throw new Error('documents.ts and bills.ts declare families');
    const row = documents.family.rows.find((r) => r.key === 'documents') as CollectionRow;
    const download = documents.family.operations.find((o) => o.name === 'download_document') as OperationDefinition;
    const split: Declared = [documents, { file: 'bills.ts', family: { rows: [...bills.family.rows, row], operations: [download] } }];
    expect(problems(split)).toEqual([
      'documents is declared in documents.ts and bills.ts',
      'download_document is declared in documents.ts and bills.ts',
      'download_document is in bills.ts, its collection documents in documents.ts',
    ]);
    const away: Declared = [
      { file: 'documents.ts', family: { rows: documents.family.rows, operations: [] } },
      { file: 'bills.ts', family: { rows: [], operations: [download] } },
    ];
    expect(problems(away)).toEqual(['download_document is in bills.ts, its collection documents in documents.ts']);
  });
});

describe('the listing order', () => {
  it('names every operation of the plugin once', () => {
    expect(new Set(LISTING_ORDER).size).toBe(LISTING_ORDER.length);
    expect([...LISTING_ORDER].sort()).toEqual(clioPlugin.operations.map((o) => o.name).sort());
  });

  it('is the order the plugin lists its operations in, the catalog’s 61 first', () => {
    expect(clioPlugin.operations.map((o) => o.name)).toEqual(LISTING_ORDER);
    expect(LISTING_ORDER.slice(0, 3)).toEqual(['list_activities', 'get_activity', 'create_activity']);
    expect(LISTING_ORDER[60]).toBe('list_custom_fields');
  });
});
