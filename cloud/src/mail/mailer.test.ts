import fs from 'node:fs/promises';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../logger';
import { createMailer } from './mailer';

const quiet = { info: () => undefined, warn: () => undefined } as unknown as Logger;

describe('the file mailer (no SMTP_URL)', () => {
  let dataDir = '';
  afterEach(() => {
    vi.restoreAllMocks();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('never shows a half-written message: it is written under another name, then renamed to .eml', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailer-'));
    const written: string[] = [];
    const writeFile = fs.writeFile.bind(fs);
    vi.spyOn(fs, 'writeFile').mockImplementation(async (file, data, ...rest) => {
      written.push(String(file));
      return writeFile(file, data, ...(rest as []));
    });
    const mailer = createMailer({ from: 'Studio <no-reply@studio.test>', dataDir, log: quiet });
    await mailer.send({ to: 'ola@example.com', subject: 'Witamy', text: 'Dzień dobry Ola,' });

    expect(written).toHaveLength(1);
    expect(written[0]).not.toMatch(/\.eml$/);
    const files = readdirSync(path.join(dataDir, 'mail'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/-ola@example\.com\.eml$/);
    const mail = readFileSync(path.join(dataDir, 'mail', files[0]!), 'utf8');
    expect(mail).toContain('To: ola@example.com');
    expect(mail).toContain('Subject: Witamy');
  });
});
