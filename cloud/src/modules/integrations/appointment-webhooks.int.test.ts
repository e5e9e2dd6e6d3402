import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { appointmentStudio } from '../appointments/appointments-fixtures';
import { useWebhookReceiver } from './testing/webhook-receiver';

/**
 * Appointment events (issue 24): the appointments module emits `appointment.booked` and
 * `appointment.changed` inside its transactions; a subscribed endpoint on loopback receives them,
 * signed, in order; a refused booking sends nothing.
 */
const NOW = new Date('2026-06-01T10:00:00Z');
const at = (hhmm: string) => new Date(`2026-06-03T${hhmm}:00+02:00`).toISOString();
const clock = new ManualClock(NOW);
const app = useTestApp({ clock }, 60_000);
const v4 = (s: { id: string }, p: string) => `/api/v4/${s.id}/${p}`;

const hooks = useWebhookReceiver();
const received = hooks.received;

describe('appointment webhook events', () => {
  it('a subscribed endpoint receives appointment.booked and appointment.changed, signed', async () => {
    const st = await appointmentStudio(app);
    const put = await st.owner.request('PUT', v4(st.studio, 'studio-webhook'), {
      url: hooks.url,
      events: ['appointment.booked', 'appointment.changed'],
    });
    expect(put.status, put.text).toBe(200);
    const secret = (await st.owner.post(v4(st.studio, `studio-webhook/${put.body.id}/token`), {})).body
      .secret as string;
    received.length = 0;

    // The client books (manual confirmation: pending), staff confirm, then move it, the client cancels.
    const book = await st.me.post(v4(st.studio, 'booking/appointment/book'), {
      serviceId: st.physioId,
      startsAt: at('10:00'),
      payment: 'pass',
    });
    expect(book.status, book.text).toBe(200);
    const id: string = book.body.appointment.id;
    // The same time again is refused: its transaction rolled back, no event.
    const taken = await st.me.post(v4(st.studio, 'booking/appointment/book'), {
      serviceId: st.physioId,
      startsAt: at('10:00'),
      payment: 'pass',
    });
    expect(taken.status).toBe(409);
    const steps = [
      ['client-appointment/confirm', { clientAppointmentId: id }],
      ['client-appointment/move', { clientAppointmentId: id, startsAt: at('12:00') }],
    ] as const;
    for (const [path, body] of steps) {
      const res = await st.owner.post(v4(st.studio, path), body);
      expect(res.status, `${path} ${res.text}`).toBe(200);
    }
    const cancel = await st.me.post(v4(st.studio, 'booking/appointment/cancel'), { clientAppointmentId: id });
    expect(cancel.status, cancel.text).toBe(200);

    for (let i = 0; i < 8 && (await app.drainJobs()) > 0; i++);
    // The test's clock is in June: the signature is checked against the signed timestamp itself.
    const signer = new Webhook(secret);
    const events = received
      .map((r) => {
        const h = r.headers as Record<string, string>;
        const expected = signer.sign(
          h['webhook-id']!,
          new Date(Number(h['webhook-timestamp']) * 1000),
          r.body,
        );
        expect(h['webhook-signature']!.split(' ')).toContain(expected);
        return {
          id: h['webhook-id']!,
          ...(JSON.parse(r.body) as { type: string; data: Record<string, unknown> }),
        };
      })
      // Event ids are time-ordered (UUIDv7): the order the changes were made in.
      .sort((a, b) => a.id.localeCompare(b.id));
    expect(events.map((e) => [e.type, e.data.change ?? null, e.data.status])).toEqual([
      ['appointment.booked', null, 'pending'],
      ['appointment.changed', 'confirm', 'booked'],
      ['appointment.changed', 'move', 'booked'],
      ['appointment.changed', 'cancel', cancel.body.status],
    ]);
    expect(events[0]!.data).toMatchObject({
      appointmentId: id,
      serviceId: st.physioId,
      memberId: st.anna.id,
      userId: st.client.id,
      startsAt: at('10:00'),
    });
    expect(events[2]!.data.startsAt).toBe(at('12:00'));
  });
});
