import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';
import { createLogger } from '../logger';
import { PokeHub } from './poke';
import { studioWithStation } from './sync.test-support';

/**
 * The poke hub must not lose a change made right after a subscription is live (`ready()`): the SSE
 * route says `hello` then and the station pulls on it, so anything later has to be poked. The hub
 * used to take its polling baseline at its first tick, a second after the subscription, and a change
 * committed in between was never poked (the station waited for its 30 s poll); and an unsubscribe
 * called twice (request and response both close) stopped it under a station still listening.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const log = createLogger('silent', false);

function pokes(hub: PokeHub, studioId: string) {
  let count = 0;
  const unsubscribe = hub.subscribe(studioId, () => (count += 1));
  return {
    unsubscribe,
    count: () => count,
    async waitForPoke(ms = 5000): Promise<boolean> {
      const deadline = Date.now() + ms;
      while (count === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return count > 0;
    },
  };
}

const modes = process.env.TEST_DATABASE_URL ? [false, true] : [false];

describe.each(modes)('PokeHub (listen: %s)', (listen) => {
  it('pokes a change committed at once after ready()', async () => {
    const station = await studioWithStation(app);
    // A slow tick: only the baseline taken at subscription can catch the change in time.
    const hub = new PokeHub(app.knex, log, { listen, pollMs: 1000 });
    const sub = pokes(hub, station.studio.id);
    await hub.ready();
    const created = await station.owner.post(`/api/v4/${station.studio.id}/client`, {
      firstName: 'Right',
      lastName: 'After',
    });
    expect(created.status).toBe(201);
    expect(await sub.waitForPoke()).toBe(true);
    sub.unsubscribe();
    await hub.stop();
  });

  it('an unsubscribe called twice does not stop the hub under another listener', async () => {
    const station = await studioWithStation(app);
    const hub = new PokeHub(app.knex, log, { listen, pollMs: 200 });
    const first = pokes(hub, station.studio.id);
    const second = pokes(hub, station.studio.id);
    await hub.ready();
    first.unsubscribe();
    first.unsubscribe();
    await new Promise((r) => setTimeout(r, 300));
    await station.owner.post(`/api/v4/${station.studio.id}/client`, {
      firstName: 'Still',
      lastName: 'Heard',
    });
    expect(await second.waitForPoke()).toBe(true);
    expect(first.count()).toBe(0);
    second.unsubscribe();
    await hub.stop();
  });
});
