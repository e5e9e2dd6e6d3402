import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './paths';

/**
 * Starts `node --import tsx <args>` from the repository root (a cloud, the desktop host…) and
 * resolves once its output matches `ready`; rejects with the output if it exits or times out first.
 * The desktop e2e tests start and stop these themselves (stop the cloud to go offline, kill the host).
 */
export function startChild(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 240_000,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`timed out: ${args.join(' ')}\n${output}`)), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${args.join(' ')}\n${output}`));
    });
  });
}

/** Stops a child started above (SIGKILL for a kill -9 test) and waits until it has exited. */
export async function stopChild(
  child: ChildProcess | null,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
