import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('loadConfig', () => {
  it('has working defaults for a newcomer', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.dataDir).toMatch(/var$/);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.DEMO_SEED).toBe(true);
    expect(c.SESSION_TTL_HOURS).toBe(336);
  });

  it('reads every variable and treats empty ones as unset', () => {
    const c = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@db:5432/studio',
      DATA_DIR: '/srv/data',
      PUBLIC_URL: 'https://studio.example.com/',
      SMTP_URL: '',
      DEMO_SEED: 'false',
      COOKIE_SECURE: 'true',
      LOG_LEVEL: 'warn',
    });
    expect(c).toMatchObject({
      PORT: 8080,
      DATABASE_URL: 'postgres://u@db:5432/studio',
      dataDir: '/srv/data',
      DEMO_SEED: false,
      COOKIE_SECURE: true,
      LOG_LEVEL: 'warn',
    });
    expect(c.publicUrl).toBe('https://studio.example.com');
    expect(c.SMTP_URL).toBeUndefined();
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ DEMO_SEED: 'yes please' }, 'DEMO_SEED'],
  ])('refuses %o, naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}:`));
  });
});
