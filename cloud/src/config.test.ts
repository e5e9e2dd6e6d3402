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

describe('loadConfig in production (several instances, issue 27)', () => {
  const key = Buffer.alloc(32, 7).toString('base64');

  it('refuses to start without PUBLIC_URL and FIELD_ENCRYPTION_KEY, saying what to set', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/PUBLIC_URL: required in production/);
    expect(message).toMatch(/FIELD_ENCRYPTION_KEY: required in production: 32 bytes, base64/);
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://studio.example.com' })).toThrow(
      /FIELD_ENCRYPTION_KEY/,
    );
    const c = loadConfig({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://studio.example.com',
      FIELD_ENCRYPTION_KEY: key,
    });
    expect(c.publicUrl).toBe('https://studio.example.com');
  });

  it('reads the pool size, the direct URL, the old keys and the process count', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u@pgbouncer:6432/studio',
      DATABASE_DIRECT_URL: 'postgres://u@db:5432/studio',
      DATABASE_POOL_MAX: '4',
      FIELD_ENCRYPTION_KEYS: `${key}, ${Buffer.alloc(32, 8).toString('base64')}`,
      WEB_CONCURRENCY: 'auto',
    });
    expect(c).toMatchObject({
      DATABASE_DIRECT_URL: 'postgres://u@db:5432/studio',
      DATABASE_POOL_MAX: 4,
      WEB_CONCURRENCY: 'auto',
    });
    expect(c.FIELD_ENCRYPTION_KEYS).toHaveLength(2);
    expect(loadConfig({}).DATABASE_POOL_MAX).toBe(10);
    expect(loadConfig({}).WEB_CONCURRENCY).toBe(1);
    expect(() => loadConfig({ FIELD_ENCRYPTION_KEYS: 'c2hvcnQ=' })).toThrow(/FIELD_ENCRYPTION_KEYS:/);
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET: required/);
  });
});
