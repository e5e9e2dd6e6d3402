import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO_FILE } from './paths';

export interface DemoDetails {
  baseURL: string;
  studioUuid: string;
  studioName: string;
  managerEmail: string;
  managerPassword: string;
  clientEmail?: string;
  clientPassword?: string;
  /** A client of the demo studio that only the profile-deletion test uses (and erases). */
  erasableClientEmail?: string;
}

/** The demo studio the e2e server seeded (written by tests/e2e/support/server.ts). */
export function readDemo(): DemoDetails {
  try {
    return JSON.parse(readFileSync(DEMO_FILE, 'utf8')) as DemoDetails;
  } catch (cause) {
    throw new Error(
      `${path.relative(process.cwd(), DEMO_FILE)} is missing: start the server with tests/e2e/support/server.ts`,
      { cause },
    );
  }
}
