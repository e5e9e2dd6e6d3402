import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';

/**
 * The writes of the `locations` and `location_rooms` rows that two modules make: the places
 * module (Places → Locations) and studio-admin's first-run setup (PATCH configure's first location
 * and room). Studio-admin cannot import places (places → schedule → studio-admin would be a cycle),
 * so the rows and their name clash live here, below both.
 */

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; nativeError?: { code?: string } };
  return (e.nativeError?.code ?? e.code) === '23505';
}

/**
 * Runs an insert or update of a location or room, whose unique name index (active locations per
 * studio, active rooms per location, case-insensitive) may clash: the clash is 409
 * `places.nameTaken` on `field`.
 */
export async function placeNamed<T>(field: string, work: () => PromiseLike<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err))
      throw new AppError('places.nameTaken', {
        message: 'this name is taken',
        fields: { [field]: ['this name is taken'] },
      });
    throw err;
  }
}

export interface NewLocation {
  id: string;
  name: string;
  addressLine?: string;
  postalCode?: string;
  city?: string;
}

/** A new location of the studio (a name clash is 409 on `field`). */
export async function insertLocation(
  db: Db,
  studioId: string,
  location: NewLocation,
  field = 'name',
): Promise<void> {
  const { id, name, addressLine = '', postalCode = '', city = '' } = location;
  await placeNamed(field, () =>
    db('locations').insert({ id, studioId, name, addressLine, postalCode, city }),
  );
}

export interface NewRoom {
  id: string;
  locationId: string;
  name: string;
  capacity: number;
}

/** New rooms of the studio's locations, in one statement (a name clash is 409 on `field`). */
export async function insertRooms(db: Db, studioId: string, rooms: NewRoom[], field = 'name'): Promise<void> {
  if (rooms.length === 0) return;
  await placeNamed(field, () =>
    db('location_rooms').insert(
      rooms.map(({ id, locationId, name, capacity }) => ({ id, studioId, locationId, name, capacity })),
    ),
  );
}
