import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { AuditRecord } from '../store/types.js';

/** Where audit records wait on disk while the store refuses them, and how much of it they may take. */
export interface AuditSpoolOptions {
  /** A directory only the gateway writes (created 0700 if missing). Several processes may share it. */
  dir: string;
  /** Bytes the spool may hold across all its files; records past it are dropped (counted, with an error line). */
  maxBytes: number;
}

const SUFFIX = '.jsonl';
/** Another process's file unchanged for this long is taken over even if its pid runs (pids are reused). */
const ABANDONED_MS = 10 * 60_000;

function processLives(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Audit records kept on disk while the database refuses them, so that neither a long outage nor a restart during one
 * loses them. Each process appends to a file of its own (JSON lines, fsynced per batch); draining takes every file in
 * the directory that no live process appends to — its own, and those left by processes that stopped — renaming it
 * first, so that two processes sharing the directory never write the same record twice. A file is deleted only after
 * the store took all of it. One directory per host: liveness is judged by pid.
 */
export class AuditSpool {
  private readonly own: string;
  private bytes = -1;

  constructor(private readonly options: AuditSpoolOptions) {
    this.own = join(options.dir, `held-${process.pid}-${randomBytes(4).toString('hex')}${SUFFIX}`);
  }

  get dir(): string {
    return this.options.dir;
  }

  /** Appends records; returns how many had no room (the newest are the ones refused). */
  async append(records: readonly AuditRecord[]): Promise<number> {
    await fs.mkdir(this.options.dir, { recursive: true, mode: 0o700 });
    if (this.bytes < 0) this.bytes = await this.size();
    let text = '';
    let kept = 0;
    for (const record of records) {
      const line = `${JSON.stringify(record)}\n`;
      if (this.bytes + text.length + line.length > this.options.maxBytes) break;
      text += line;
      kept += 1;
    }
    if (kept > 0) {
      const handle = await fs.open(this.own, 'a', 0o600);
      try {
        await handle.appendFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      this.bytes += Buffer.byteLength(text);
    }
    return records.length - kept;
  }

  /** Whether any file waits in the directory (this process's or another's). */
  async pending(): Promise<boolean> {
    return (await this.files()).length > 0;
  }

  /**
   * Hands every spooled record to `write` in batches, oldest file first; a file is deleted once all its records were
   * written. Stops at the first failure (the rest stays on disk). Returns how many records were written.
   */
  async drain(write: (batch: AuditRecord[]) => Promise<void>, batchSize: number): Promise<number> {
    let written = 0;
    for (const file of await this.files()) {
      const claimed = await this.claim(file);
      if (!claimed) continue;
      const lines = (await fs.readFile(claimed, 'utf8')).split('\n').filter((line) => line.length > 0);
      const records = lines.flatMap((line) => {
        try {
          return [JSON.parse(line) as AuditRecord];
        } catch {
          return []; // a line cut by a crash mid-append: the records before and after it still count
        }
      });
      for (let start = 0; start < records.length; start += batchSize) {
        try {
          await write(records.slice(start, start + batchSize));
        } catch (error) {
          if (start === 0) {
            // Nothing of it was written: the file goes back as it was (a rename, however large it is).
            await fs.rename(
              claimed,
              join(this.options.dir, file.includes('.draining-') ? `held-requeued-${randomBytes(6).toString('hex')}${SUFFIX}` : file),
            );
          } else {
            // Put back what was not written, under a name any process will drain.
            const rest = records.slice(start).map((record) => `${JSON.stringify(record)}\n`);
            await fs.writeFile(claimed, rest.join(''), { mode: 0o600 });
            await fs.rename(claimed, join(this.options.dir, `held-requeued-${randomBytes(6).toString('hex')}${SUFFIX}`));
          }
          this.bytes = -1;
          throw error;
        }
        written += Math.min(batchSize, records.length - start);
      }
      await fs.rm(claimed, { force: true });
    }
    this.bytes = -1;
    return written;
  }

  /** At a stop: this process's file is handed to whoever drains next (another process, or the next start). */
  async release(): Promise<void> {
    await fs
      .rename(this.own, join(this.options.dir, `held-requeued-${randomBytes(6).toString('hex')}${SUFFIX}`))
      .catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
  }

  /** Records waiting on disk (counted by lines, for the log line at close). */
  async count(): Promise<number> {
    let lines = 0;
    for (const file of await this.files()) {
      const text = await fs.readFile(join(this.options.dir, file), 'utf8').catch(() => '');
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines += 1;
    }
    return lines;
  }

  /**
   * The spool files this process may drain, oldest first: its own, those put back after a failed drain, and those of
   * processes that are gone (their pid no longer runs, or the file has not changed for ten minutes). A live
   * process's file is left to it: it may be appending at this very moment.
   */
  private async files(): Promise<string[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.options.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const own = this.own.slice(this.options.dir.length + 1);
    const candidates = await Promise.all(
      names
        .filter((name) => name.startsWith('held-') && (name.endsWith(SUFFIX) || name.includes(`${SUFFIX}.draining-`)))
        .map(async (name) => ({ name, stat: await fs.stat(join(this.options.dir, name)).catch(() => undefined) })),
    );
    return candidates
      .filter(({ name, stat }) => {
        if (!stat) return false;
        if (name === own || name.startsWith('held-requeued-')) return name.endsWith(SUFFIX);
        // A file being drained belongs to the process that claimed it; any other, to the process that wrote it.
        const pid = Number((/\.draining-(\d+)-/.exec(name) ?? /^held-(\d+)-/.exec(name))?.[1] ?? Number.NaN);
        return Date.now() - stat.mtimeMs > ABANDONED_MS || !processLives(pid);
      })
      .sort((a, b) => (a.stat?.mtimeMs ?? 0) - (b.stat?.mtimeMs ?? 0))
      .map(({ name }) => name);
  }

  /** Renames a file to a name only this process uses; undefined if another process took it first. */
  private async claim(file: string): Promise<string | undefined> {
    const base = file.includes('.draining-') ? file.slice(0, file.indexOf('.draining-')) : file;
    const claimed = join(this.options.dir, `${base}.draining-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      await fs.rename(join(this.options.dir, file), claimed);
      return claimed;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  private async size(): Promise<number> {
    let total = 0;
    for (const file of await this.files()) total += (await fs.stat(join(this.options.dir, file)).catch(() => undefined))?.size ?? 0;
    return total;
  }
}
