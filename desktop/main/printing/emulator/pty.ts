import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SOCAT = '/usr/bin/socat';

export function socatAvailable(): boolean {
  return existsSync(SOCAT);
}

export interface PtyPair {
  /** The end the app opens: configure this path as the fiscal printer's port. */
  appPath: string;
  /** The end the emulator opens. */
  devicePath: string;
  close(): Promise<void>;
}

/**
 * A real pseudo-terminal pair, made by Debian's socat
 * (`socat -d -d pty,raw,echo=0,link=A pty,raw,echo=0,link=B`), so the driver runs end to end
 * through `serialport` and the kernel's tty layer. Closing stops the socat this function started.
 */
export async function createPtyPair(options: { dir?: string; timeoutMs?: number } = {}): Promise<PtyPair> {
  if (!socatAvailable()) throw new Error(`${SOCAT} is missing (apt-get install socat)`);
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'posnet-pty-'));
  const appPath = join(dir, 'app');
  const devicePath = join(dir, 'device');
  const child: ChildProcess = spawn(
    SOCAT,
    ['-d', '-d', `pty,raw,echo=0,link=${appPath}`, `pty,raw,echo=0,link=${devicePath}`],
    // Its own process group: a Ctrl-C meant for us must not kill socat under an open port (serialport's
    // reader would spin on zero-byte reads); we close the port first, then stop socat ourselves.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const killOnExit = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.once('exit', killOnExit);
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  // socat writes "starting data transfer loop" once both ptys exist and are linked.
  while (!(existsSync(appPath) && existsSync(devicePath) && log.includes('starting data transfer loop'))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`socat did not create the pty pair: ${log.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  return {
    appPath,
    devicePath,
    async close() {
      process.off('exit', killOnExit);
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      if (ownDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
