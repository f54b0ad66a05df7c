import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { SqliteStore } from '../store/sqlite.js';
import { Encryptor, generateEncryptionKey, parseEncryptionKey } from './crypto.js';
import { KeyAgreement } from './key-agreement.js';
import { KeyRing } from './key-ring.js';

/**
 * Two instances on one database, their key rings and heartbeats: a new key staged on one is not sealed with until the
 * other can decrypt with it too. (The gateway processes themselves: apps/gateway/src/e2e/rotation-window.e2e.test.ts.)
 */
const OLD = parseEncryptionKey(generateEncryptionKey());
const NEW = parseEncryptionKey(generateEncryptionKey());
const AAD = 'portico/connection/default/example';

let store: SqliteStore;
const running: KeyAgreement[] = [];

beforeEach(async () => {
  store = new SqliteStore(':memory:');
  await store.migrate();
});
afterEach(async () => {
  for (const agreement of running.splice(0)) await agreement.stop();
  await store.close();
});

async function instance(active: typeof OLD, previous: (typeof OLD)[] = []) {
  const keys = new KeyRing(new Encryptor(active, previous), undefined);
  const agreement = new KeyAgreement(store, keys, silentLogger, null);
  await agreement.start(60_000);
  running.push(agreement);
  return { keys, agreement };
}

describe('two-phase key rotation across instances', () => {
  it('an instance staged with a new key seals with the old one while another live instance lacks the new one', async () => {
    const old = await instance(OLD);
    const staged = await instance(NEW, [OLD]);
    const view = await staged.agreement.beat();
    expect(view.active).toBe(NEW.id);
    expect(view.sealing).toBe(OLD.id);
    expect(view.lacking).toHaveLength(1);
    const sealed = staged.keys.current.encrypt('{"accessToken":"a"}', AAD);
    expect(Encryptor.keyIdOf(sealed)).toBe(OLD.id);
    expect(old.keys.current.decrypt(sealed, AAD)).toBe('{"accessToken":"a"}'); // the other instance reads it
  });

  it('once every live instance knows the new key, it is promoted by itself; a stopped instance no longer holds it back', async () => {
    const old = await instance(OLD);
    const staged = await instance(NEW, [OLD]);
    expect((await staged.agreement.beat()).sealing).toBe(OLD.id);
    await old.agreement.stop(); // restarted with the new key staged
    const restarted = await instance(NEW, [OLD]);
    const view = await staged.agreement.beat();
    expect(view.sealing).toBe(NEW.id);
    expect(view.lacking).toEqual([]);
    const sealed = staged.keys.current.encrypt('x', AAD);
    expect(Encryptor.keyIdOf(sealed)).toBe(NEW.id);
    expect(restarted.keys.current.decrypt(sealed, AAD)).toBe('x');
  });

  it('a process that does not serve (the CLI) reads the live instances without counting as one', async () => {
    const staged = await instance(NEW, [OLD]);
    await instance(OLD);
    const cliKeys = new KeyRing(new Encryptor(NEW, [OLD]), undefined);
    const cli = new KeyAgreement(store, cliKeys, silentLogger, null);
    const view = await cli.beat();
    expect(view.instances).toHaveLength(2);
    expect(view.lacking.map((i) => i.keyIds)).toEqual([[OLD.id]]);
    expect(Encryptor.keyIdOf(cliKeys.current.encrypt('x', AAD))).toBe(OLD.id);
    expect((await staged.agreement.beat()).instances).toHaveLength(2);
  });

  it('with no key in common, an instance seals with its own key (and the view names who cannot read it)', async () => {
    await instance(OLD);
    const other = await instance(NEW);
    const view = await other.agreement.beat();
    expect(view.sealing).toBe(NEW.id);
    expect(view.lacking).toHaveLength(1);
  });

  it('a heartbeat still being written when the instance stops does not bring its row back', async () => {
    const { agreement } = await instance(OLD);
    running.splice(running.indexOf(agreement), 1);
    // the next heartbeat's write is held until the stop has begun
    const table = store.instances;
    const beat = table.beat.bind(table);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    table.beat = async (record) => {
      await held;
      return beat(record);
    };
    const inFlight = agreement.beat();
    const stopped = agreement.stop();
    release();
    await Promise.all([inFlight, stopped]);
    expect(await table.live(new Date(Date.now() - 60_000).toISOString())).toEqual([]);
  });

  it('a slow heartbeat overtaken by the next one does not bring the row back after the stop either', async () => {
    const { agreement } = await instance(OLD);
    running.splice(running.indexOf(agreement), 1);
    // the first beat's write is slow (a loaded database); the next beat starts before it ends
    const table = store.instances;
    const beat = table.beat.bind(table);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    table.beat = async (record) => {
      calls += 1;
      if (calls === 1) await held;
      return beat(record);
    };
    const slow = agreement.beat();
    const next = agreement.beat();
    const stopped = agreement.stop();
    setTimeout(release, 20);
    await Promise.all([slow, next, stopped]);
    expect(await table.live(new Date(Date.now() - 60_000).toISOString())).toEqual([]);
  });
});

describe('the encryption probe', () => {
  it('follows the sealing key through a rotation, and an instance with another key can neither open nor overwrite it', async () => {
    const old = await instance(OLD);
    expect(Encryptor.keyIdOf((await store.instances.probe()) as string)).toBe(OLD.id);
    expect(await old.agreement.checkProbe()).toEqual({ ok: true });

    const stranger = await instance(NEW);
    const check = await stranger.agreement.checkProbe();
    expect(check).toMatchObject({ ok: false, keyId: OLD.id });
    await stranger.agreement.beat();
    expect(Encryptor.keyIdOf((await store.instances.probe()) as string)).toBe(OLD.id); // not overwritten
    await stranger.agreement.stop();
    running.splice(running.indexOf(stranger.agreement), 1);

    // Stage the new key on the only other instance, then restart the old one with it too: the probe moves to NEW.
    const staged = await instance(NEW, [OLD]);
    await old.agreement.stop();
    running.splice(running.indexOf(old.agreement), 1);
    await staged.agreement.beat();
    expect(Encryptor.keyIdOf((await store.instances.probe()) as string)).toBe(NEW.id);
    expect(await staged.agreement.checkProbe()).toEqual({ ok: true });
    const oldOnly = new KeyAgreement(store, new KeyRing(new Encryptor(OLD), undefined), silentLogger, null);
    expect(await oldOnly.checkProbe()).toMatchObject({ ok: false, keyId: NEW.id });
  });
});
