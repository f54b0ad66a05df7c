// The shape every seeded QuickBooks record shares: JSON objects, references (`{ value, name }`), and MetaData.
import { zonedTimestamp } from '@portico/core/testing/emulator';

export type Json = Record<string, unknown>;

export interface Ref {
  value: string;
  name?: string;
}

/** `MetaData` of a record created (and last changed) on a day, in the company's Pacific time. */
export function metaData(date: string, hour = 9, updated = date): Json {
  const time = (d: string, h: number) => zonedTimestamp(d, `${String(h).padStart(2, '0')}:${String((h * 7) % 60).padStart(2, '0')}`);
  return { CreateTime: time(date, hour), LastUpdatedTime: time(updated, hour + 1) };
}

/** The fields every QuickBooks entity carries. */
export const base = (id: string, date: string, hour = 9, updated = date): Json => ({
  Id: id,
  SyncToken: '0',
  domain: 'QBO',
  sparse: false,
  MetaData: metaData(date, hour, updated),
});

export const refTo = (record: Json | undefined, nameField = 'Name'): Ref => ({
  value: String(record?.Id),
  name: String(record?.[nameField] ?? record?.DisplayName ?? record?.Name),
});

export const USD: Ref = { value: 'USD', name: 'United States Dollar' };

export function addMonths(date: string, months: number, days = 0): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1 + months, d + days)).toISOString().slice(0, 10);
}
