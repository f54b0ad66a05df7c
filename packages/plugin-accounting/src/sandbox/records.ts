// The shape every seeded QuickBooks record shares: JSON objects, references (`{ value, name }`), and MetaData.

export type Json = Record<string, unknown>;

export interface Ref {
  value: string;
  name?: string;
}

/** `MetaData` of a record created (and last changed) on a day, in the company's Pacific time. */
export function metaData(date: string, hour = 9, updated = date): Json {
  const offset = (d: string) => (d >= '2025-03-09' && d < '2025-11-02' ? '-07:00' : '-08:00');
  const time = (d: string, h: number) => `${d}T${String(h).padStart(2, '0')}:${String((h * 7) % 60).padStart(2, '0')}:00${offset(d)}`;
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
