import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertStorageKey, type FileStorage } from './file-storage';

/** Files under a directory of this machine (DATA_DIR): one instance, or a shared volume. */
export class LocalDiskStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    assertStorageKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Buffer): Promise<void> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.writeFile(target, body, { mode: 0o600 });
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    try {
      await fsp.rename(localPath, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await fsp.copyFile(localPath, target);
      await fsp.rm(localPath, { force: true });
    }
  }

  async get(key: string): Promise<Readable | null> {
    // Opened before answering, so a missing file is a clean null rather than a broken stream.
    const handle = await fsp.open(this.pathOf(key), 'r').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    return handle ? handle.createReadStream() : null;
  }

  async read(key: string): Promise<Buffer | null> {
    return fsp.readFile(this.pathOf(key)).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    const dir = this.pathOf(prefix);
    const entries = await fsp
      .readdir(dir, { recursive: true, withFileTypes: true })
      .catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return [];
        throw err;
      });
    await fsp.rm(dir, { recursive: true, force: true });
    return entries.filter((e) => e.isFile()).length;
  }

  /** Tests and tooling: whether the file is there. */
  exists(key: string): boolean {
    return fs.existsSync(this.pathOf(key));
  }
}
