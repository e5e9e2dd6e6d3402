import { afterEach, describe, expect, it, vi } from 'vitest';
import { IPC_CONTRACT, ipcChannelName, type IpcChannel } from '../../../shared/contracts/ipc';
import { createDispatcher, type IpcHandlers } from './handlers';
import { registerIpc } from './electron';

const exposed: Record<string, unknown> = {};
const invoke = vi.fn(async (channel: string, input: unknown) => ({ ok: true, value: { channel, input } }));

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, value: unknown) => {
      exposed[key] = value;
    },
  },
  ipcRenderer: { invoke: (channel: string, input: unknown) => invoke(channel, input) },
}));

const CONTRACT_KEYS = Object.keys(IPC_CONTRACT).sort();
const STATE = { registered: false, device: null, staff: null, switchable: [], locale: 'en' };

type Spies = Record<string, ReturnType<typeof vi.fn>>;

function spyHandlers(): { handlers: IpcHandlers; spies: Spies } {
  const spies: Spies = {};
  for (const key of CONTRACT_KEYS) spies[key] = vi.fn(async () => STATE);
  return { handlers: spies as unknown as IpcHandlers, spies };
}

afterEach(() => invoke.mockClear());

describe('preload', () => {
  it('exposes exactly one method per contract entry on window.api, and nothing else', async () => {
    await import('../../preload/index');
    expect(Object.keys(exposed)).toEqual(['api']);
    const api = exposed.api as Record<string, (input?: unknown) => Promise<unknown>>;
    expect(Object.keys(api).sort()).toEqual(CONTRACT_KEYS);
    expect(Object.isFrozen(api)).toBe(true);
    for (const key of CONTRACT_KEYS) expect(typeof api[key]).toBe('function');
  });

  it('sends each method to its own channel, never one chosen by the page', async () => {
    await import('../../preload/index');
    const api = exposed.api as Record<string, (input?: unknown) => Promise<unknown>>;
    for (const key of CONTRACT_KEYS) await api[key]!({ some: 'input' });
    expect(invoke.mock.calls.map(([channel]) => channel)).toEqual(
      CONTRACT_KEYS.map((k) => ipcChannelName(k as IpcChannel)),
    );
    await api.stationState!();
    expect(invoke).toHaveBeenLastCalledWith('studio:stationState', {});
  });
});

describe('main re-validates every input', () => {
  const invalidInputs: Record<IpcChannel, unknown[]> = {
    appInfo: [{ extra: true }, 'text', 42],
    stationState: [{ extra: true }, []],
    stationSignIn: [
      {},
      { emailAddress: 'not-an-email', password: 'x' },
      { emailAddress: 'a@b.pl', password: '' },
      { emailAddress: 'a@b.pl', password: 'x', studioUuid: 'nope' },
      { emailAddress: 'a@b.pl', password: 'x', admin: true },
    ],
    stationSetPin: [{}, { pin: '12' }, { pin: '123456789' }, { pin: 'abcd' }, { pin: 1234 }],
    stationSwitchStaff: [{ userId: 'x', pin: '1234' }, { userId: '01a207d1-965c-77dc-93d3-e4a662568ce3' }],
    stationLock: [{ force: true }],
    stationSignOut: [{ everywhere: true }],
    stationSetLocale: [{ locale: 'de' }, {}],
    apiRequest: [
      { method: 'GET' },
      { method: 'TRACE', path: 'v4/auth/me' },
      { method: 'GET', path: 'https://evil.example/x' },
      { method: 'GET', path: '/v4/auth/me' },
      { method: 'GET', path: 'v3/x' },
      { method: 'GET', path: 'v4/x y' },
      { method: 'POST', path: 'v4/x', body: { not: 'a string' } },
      { method: 'GET', path: 'v4/auth/me', headers: { cookie: 'x' } },
    ],
    syncStatus: [{ verbose: true }],
    syncNotices: [{ extra: true }, []],
    syncNoticeAck: [{}, { seqs: [] }, { seqs: [0] }, { seqs: [1, 1] }, { seqs: ['1'] }],
    posState: [{ extra: true }],
    posCatalog: [{}, { locale: 'de' }],
    posChooseStation: [{}, { posId: 'front-1' }],
    posOpenShift: [{}, { float: -1 }, { float: 12.5 }, { float: '100' }],
    posCashMovement: [{ kind: 'in' }, { kind: 'sideways', amount: 100 }, { kind: 'out', amount: 0 }],
    posCloseShift: [{}, { counted: -5 }, { counted: 100, note: 'x'.repeat(501) }],
    posSell: [
      {},
      { saleId: 'x', clientId: null, lines: [], payments: [] },
      {
        saleId: '01a207d1-965c-77dc-93d3-e4a662568ce3',
        clientId: null,
        lines: [{ type: 'product', id: '01a207d1-965c-77dc-93d3-e4a662568ce3', quantity: 1, unitPrice: 1 }],
        payments: [{ method: 2, amount: 100 }],
      },
      {
        saleId: '01a207d1-965c-77dc-93d3-e4a662568ce3',
        clientId: null,
        lines: [{ type: 'product', id: '01a207d1-965c-77dc-93d3-e4a662568ce3', quantity: 1 }],
        payments: [{ method: 99, amount: 100 }],
      },
      {
        saleId: '01a207d1-965c-77dc-93d3-e4a662568ce3',
        clientId: null,
        lines: [{ type: 'product', id: '01a207d1-965c-77dc-93d3-e4a662568ce3', quantity: 1 }],
        payments: [{ method: 13, amount: 100 }],
        voucherCode: 'X'.repeat(41),
      },
    ],
    posOpenDrawer: [{ force: true }],
    posResolvePending: [{}, { saleId: 'nope' }],
    posConfirmReceipt: [
      {},
      { saleId: 'nope', printed: true },
      { saleId: '01a207d1-965c-77dc-93d3-e4a662568ce3', printed: true },
    ],
    posSaleOrders: [{}, { saleId: 'nope' }],
    posInvoicePdf: [{}, { invoiceId: 'nope' }, { invoiceId: '01a207d1-965c-77dc-93d3-e4a662568ce3', x: 1 }],
    kioskState: [{ extra: true }],
    kioskRequest: [
      { method: 'GET' },
      { method: 'GET', path: 'https://evil.example/x' },
      { method: 'POST', path: 'v4/x', body: {} },
    ],
  };

  it('lists invalid inputs for every channel', () => {
    expect(Object.keys(invalidInputs).sort()).toEqual(CONTRACT_KEYS);
  });

  for (const [channel, inputs] of Object.entries(invalidInputs)) {
    it(`${channel}: 400 request.invalid with field errors, handler not called`, async () => {
      const { handlers, spies } = spyHandlers();
      const dispatch = createDispatcher(handlers);
      for (const input of inputs) {
        const result = await dispatch(channel, input);
        expect(result, JSON.stringify(input)).toMatchObject({
          ok: false,
          status: 400,
          error: { code: 1000, key: 'request.invalid' },
        });
        if (!result.ok) expect(Object.keys(result.error.fields ?? {}).length).toBeGreaterThan(0);
      }
      expect(spies[channel]).not.toHaveBeenCalled();
    });
  }

  it('refuses an unknown channel', async () => {
    const dispatch = createDispatcher(spyHandlers().handlers);
    expect(await dispatch('__proto__', {})).toMatchObject({ ok: false, status: 404 });
    expect(await dispatch('toString', {})).toMatchObject({ ok: false, status: 404 });
  });

  it('passes parsed input on and strips from the answer whatever the contract does not list', async () => {
    const { handlers, spies } = spyHandlers();
    spies.stationState!.mockResolvedValue({
      ...STATE,
      staff: {
        userId: 'u',
        firstName: 'A',
        lastName: 'B',
        emailAddress: 'a@b.pl',
        hasPin: true,
        sessionId: 'secret-session',
        pinHash: 'scrypt$…',
      },
    });
    const dispatch = createDispatcher(handlers);
    const result = await dispatch('stationState', undefined);
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result)).not.toMatch(/secret-session|pinHash/);

    await dispatch('stationSignIn', { emailAddress: '  Anna@Demo.Studio ', password: ' p ' });
    expect(spies.stationSignIn).toHaveBeenCalledWith({
      emailAddress: 'anna@demo.studio',
      password: ' p ',
    });
  });

  it('turns a bug into internal.unexpected without its message', async () => {
    const { handlers, spies } = spyHandlers();
    spies.syncStatus!.mockRejectedValue(new Error('SELECT * FROM secrets failed'));
    const onBug = vi.fn();
    const result = await createDispatcher(handlers, { onBug })('syncStatus', {});
    expect(result).toEqual({
      ok: false,
      status: 500,
      error: { code: 1999, key: 'internal.unexpected', message: 'unexpected error' },
    });
    expect(onBug).toHaveBeenCalledOnce();
  });
});

describe('registerIpc', () => {
  it('handles one channel per contract entry and answers only the trusted top frame', async () => {
    const registered = new Map<string, (event: unknown, input: unknown) => unknown>();
    const ipcMain = {
      handle: (channel: string, listener: (event: unknown, input: unknown) => unknown) =>
        void registered.set(channel, listener),
      removeHandler: (channel: string) => void registered.delete(channel),
    };
    const dispatch = vi.fn(async () => ({ ok: true as const, value: STATE }));
    const unregister = registerIpc(ipcMain as never, dispatch, (url) => url === 'file:///app/index.html');
    expect([...registered.keys()].sort()).toEqual(CONTRACT_KEYS.map((k) => `studio:${k}`).sort());

    const listener = registered.get('studio:stationState')!;
    const trusted = { senderFrame: { url: 'file:///app/index.html', parent: null } };
    await listener(trusted, {});
    expect(dispatch).toHaveBeenCalledWith('stationState', {});

    dispatch.mockClear();
    for (const event of [
      { senderFrame: { url: 'https://evil.example/', parent: null } },
      { senderFrame: { url: 'file:///app/index.html', parent: {} } },
      { senderFrame: null },
    ]) {
      expect(await listener(event, {})).toMatchObject({ ok: false, status: 403 });
    }
    expect(dispatch).not.toHaveBeenCalled();
    unregister();
    expect(registered.size).toBe(0);
  });
});
