import { describe, expect, it } from 'vitest';
import { SchemaVersionError } from './migration-plan.js';
import { MIGRATIONS } from './migrations.js';
import type { Store } from './types.js';

export const LATEST = Math.max(...MIGRATIONS.map((m) => m.version));
export const INSERT = 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)';

/** A store on a database of its own, and a way to record a migration in it as a newer release would have. */
export type Opened = { store: Store; recordMigration(version: number, name: string): Promise<void> };

export function migrationsUnderControl(dialect: string, open: () => Opened): void {
  describe(`migrations under control (${dialect})`, () => {
    it('reports every migration pending on an empty database, and creates nothing to say so', async () => {
      const { store } = open();
      try {
        const before = await store.migrationStatus();
        expect(before.databaseVersion).toBe(0);
        expect(before.pending.map((m) => m.version)).toEqual(MIGRATIONS.map((m) => m.version));
        expect(before.applied).toEqual([]);
        // Asking twice finds the same: the status made no table.
        expect((await store.migrationStatus()).pending).toHaveLength(MIGRATIONS.length);
      } finally {
        await store.close();
      }
    });

    it('refuses to migrate with mode never, changing nothing, and names the command that would', async () => {
      const { store } = open();
      try {
        const refusal = await store.migrate({ mode: 'never' }).catch((error: unknown) => error);
        expect(refusal).toBeInstanceOf(SchemaVersionError);
        expect((refusal as SchemaVersionError).reason).toBe('migrations_pending');
        expect((refusal as Error).message).toContain(`needs version ${LATEST}`);
        expect((refusal as Error).message).toContain('portico migrate up');
        expect((await store.migrationStatus()).databaseVersion).toBe(0);
      } finally {
        await store.close();
      }
    });

    it('applies each pending migration once, telling each with its time, then has nothing left', async () => {
      const { store } = open();
      try {
        const applied: Array<{ version: number; name: string; ms: number }> = [];
        await store.migrate({ onApplied: (m) => applied.push(m) });
        expect(applied.map((m) => m.version)).toEqual(MIGRATIONS.map((m) => m.version));
        expect(applied.map((m) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
        for (const m of applied) expect(m.ms).toBeGreaterThanOrEqual(0);
        const status = await store.migrationStatus();
        expect(status.databaseVersion).toBe(LATEST);
        expect(status.pending).toEqual([]);
        expect(status.applied.map((m) => m.version)).toEqual(MIGRATIONS.map((m) => m.version));
        const again: number[] = [];
        await store.migrate({ mode: 'never', onApplied: (m) => again.push(m.version) });
        expect(again).toEqual([]);
        expect(await store.getWorkspace('default')).toBeDefined();
      } finally {
        await store.close();
      }
    });

    it('refuses a schema migrated by a newer release, naming both versions, and keeps it as it is', async () => {
      const { store, recordMigration } = open();
      try {
        await store.migrate();
        const newer = LATEST + 3;
        await recordMigration(newer, 'a migration from the future');
        const status = await store.migrationStatus();
        expect(status.unknown.map((m) => m.version)).toEqual([newer]);
        expect(status.databaseVersion).toBe(newer);
        const refusal = await store.migrate().catch((error: unknown) => error);
        expect(refusal).toBeInstanceOf(SchemaVersionError);
        expect((refusal as SchemaVersionError).reason).toBe('schema_newer');
        expect((refusal as Error).message).toContain(`version ${newer}`);
        expect((refusal as Error).message).toContain(`(version ${LATEST})`);
        expect((refusal as Error).message).toMatch(/newer release/);
        expect((await store.migrationStatus()).unknown).toHaveLength(1);
      } finally {
        await store.close();
      }
    });
  });
}
