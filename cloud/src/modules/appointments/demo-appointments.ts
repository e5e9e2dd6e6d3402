import { v7 as uuidv7 } from 'uuid';
import { blockOf } from '../../../../shared/domain/appointments';
import { addLocalDays, localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import { instantOfLocalTime } from '../../../../shared/domain/schedule/occurrences';
import type { Knex } from '../../db/knex';

const lt = (en: string, pl: string) => JSON.stringify({ en: { value: en }, pl: { value: pl } });

/**
 * The demo studio's appointments (issue 21): two categories, three services (personal training,
 * a sports massage that needs the studio's confirmation, an online consultation), the first three
 * instructors' weekly hours (Mon–Fri 8:00–16:00 at the first location, Saturday mornings for one),
 * a day off, a pass of five appointments, and a dozen appointments over the coming two weeks — the
 * demo client's included, one of them waiting for confirmation.
 */
export async function seedDemoAppointments(
  trx: Knex.Transaction,
  input: {
    studioId: string;
    memberIds: string[];
    locationId: string;
    clientIds: string[];
    timeZone: string;
    now: Date;
  },
): Promise<void> {
  const { studioId, memberIds, locationId, clientIds, timeZone, now } = input;
  const training = uuidv7();
  const therapy = uuidv7();
  await trx('appointment_service_categories').insert([
    { id: training, studioId, name: lt('Training', 'Trening'), position: 1 },
    { id: therapy, studioId, name: lt('Therapy', 'Terapia'), position: 2 },
  ]);
  const services = [
    {
      id: uuidv7(),
      categoryId: training,
      name: lt('Personal training', 'Trening personalny'),
      durationMinutes: 60,
      bufferAfterMinutes: 0,
      price: 18000,
      confirmation: 'auto',
      online: false,
      members: memberIds,
    },
    {
      id: uuidv7(),
      categoryId: therapy,
      name: lt('Sports massage', 'Masaż sportowy'),
      durationMinutes: 50,
      bufferAfterMinutes: 10,
      price: 20000,
      confirmation: 'manual',
      online: false,
      members: memberIds.slice(1, 3),
    },
    {
      id: uuidv7(),
      categoryId: training,
      name: lt('Online consultation', 'Konsultacja online'),
      durationMinutes: 30,
      bufferAfterMinutes: 0,
      price: 9000,
      confirmation: 'auto',
      online: true,
      members: memberIds.slice(0, 1),
    },
  ];
  await trx('appointment_services').insert(
    services.map((s, i) => ({
      id: s.id,
      studioId,
      categoryId: s.categoryId,
      name: s.name,
      description: lt('', ''),
      durationMinutes: s.durationMinutes,
      bufferAfterMinutes: s.bufferAfterMinutes,
      slotStepMinutes: 30,
      price: s.price,
      locationId: s.online ? null : locationId,
      online: s.online,
      confirmation: s.confirmation,
      bookingOpensHours: 24 * 21,
      bookingClosesMinutes: 120,
      cancellationCutoffMinutes: 24 * 60,
      position: i,
    })),
  );
  await trx('appointment_service_members').insert(
    services.flatMap((s) => s.members.map((memberId) => ({ studioId, serviceId: s.id, memberId }))),
  );
  await trx('member_appointment_schedules').insert(
    memberIds.flatMap((memberId, m) => [
      ...[1, 2, 3, 4, 5].map((weekday) => ({
        id: uuidv7(),
        studioId,
        memberId,
        locationId,
        weekday,
        startMinute: 8 * 60,
        endMinute: 16 * 60,
      })),
      ...(m === 0
        ? [
            {
              id: uuidv7(),
              studioId,
              memberId,
              locationId,
              weekday: 6,
              startMinute: 9 * 60,
              endMinute: 13 * 60,
            },
          ]
        : []),
    ]),
  );
  const today = localDateOf(now, timeZone);
  if (memberIds[2])
    await trx('member_appointment_schedule_exceptions').insert({
      id: uuidv7(),
      studioId,
      memberId: memberIds[2],
      date: addLocalDays(today, 9),
      startMinute: null,
      endMinute: null,
      locationId: null,
    });
  await trx('pricing_options').insert({
    id: uuidv7(),
    studioId,
    name: lt('5 personal trainings', 'Pakiet 5 treningów personalnych'),
    price: 80000,
    taxRateBp: 2300,
    entries: 5,
    validityDays: 90,
    validityCount: 90,
    validityUnit: 'day',
    expirationType: 0,
    serviceTypes: JSON.stringify(['appointmentPricingOption']),
  });
  // Booked appointments: day offset, start minute, service, member, client, status.
  const plan: Array<[number, number, number, number, number, string]> = [
    [1, 8 * 60, 0, 0, 0, 'booked'],
    [1, 10 * 60, 1, 1, 2, 'booked'],
    [1, 12 * 60, 0, 2, 3, 'booked'],
    [2, 9 * 60, 1, 2, 0, 'pending'],
    [2, 14 * 60, 0, 0, 4, 'booked'],
    [3, 11 * 60, 2, 0, 5, 'booked'],
    [4, 8 * 60, 0, 1, 1, 'booked'],
    [6, 13 * 60, 1, 1, 3, 'pending'],
    [7, 9 * 60, 0, 0, 0, 'booked'],
    [8, 15 * 60, 0, 2, 2, 'booked'],
  ];
  const rows = plan.flatMap(([days, minute, s, m, c, status]) => {
    const service = services[s]!;
    const memberId = service.members.includes(memberIds[m]!) ? memberIds[m]! : service.members[0]!;
    const clientId = clientIds[c % clientIds.length]!;
    const startsAt = instantOfLocalTime(addLocalDays(today, days), minute, timeZone);
    const block = blockOf(startsAt, {
      durationMinutes: service.durationMinutes,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: service.bufferAfterMinutes,
    });
    return [
      {
        id: uuidv7(),
        studioId,
        serviceId: service.id,
        memberId,
        clientId,
        locationId: service.online ? null : locationId,
        online: service.online,
        startsAt,
        endsAt: new Date(startsAt.getTime() + service.durationMinutes * 60_000),
        blockedFrom: block.startsAt,
        blockedUntil: block.endsAt,
        status,
        payment: 'desk',
        price: service.price,
        currency: 'PLN',
        bookedBy: 'staff',
        confirmedAt: status === 'booked' ? now : null,
      },
    ];
  });
  await trx('client_appointments').insert(rows);
}
