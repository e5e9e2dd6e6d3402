import { z } from 'zod';
import {
  ClientEntryListQuerySchema,
  ClientEntryListSchema,
  ClientEntrySchema,
  EntryEnrollInputSchema,
  EntryEnrollmentInitQuerySchema,
  EntryEnrollmentInitSchema,
  EntryServiceInitSchema,
  EntryServiceInputSchema,
  EntryServiceListSchema,
  EntryServicePatchSchema,
  EntryServiceSchema,
} from '../api/entries';
import { contractGroup } from './define';

const StudioParams = z.object({ uuid: z.string() });

/**
 * Entry services (issue 22): the services (staff: `schedule.view` to read, `settings.edit` to
 * change), the desk's enrolment of an entry (`schedule.checkIn`) and a client's entries
 * (`clients.view`).
 */
export const EntriesApi = contractGroup('entries', {
  serviceInit: {
    method: 'get',
    path: '/v4/:uuid/entry-service/init',
    access: 'staff',
    ability: 'schedule.view',
    params: StudioParams,
    response: EntryServiceInitSchema,
  },
  serviceCollection: {
    method: 'get',
    path: '/v4/:uuid/entry-service/collection',
    access: 'staff',
    ability: 'schedule.view',
    params: StudioParams,
    response: EntryServiceListSchema,
  },
  createService: {
    method: 'post',
    path: '/v4/:uuid/entry-service',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: EntryServiceInputSchema,
    response: EntryServiceSchema,
    status: 201,
  },
  patchService: {
    method: 'patch',
    path: '/v4/:uuid/entry-service/:entryService',
    access: 'staff',
    ability: 'settings.edit',
    params: z.object({ uuid: z.string(), entryService: z.uuid() }),
    body: EntryServicePatchSchema,
    response: EntryServiceSchema,
  },
  enrollmentInit: {
    method: 'get',
    path: '/v4/:uuid/entry/enrollment/init',
    access: 'staff',
    ability: 'schedule.checkIn',
    params: StudioParams,
    query: EntryEnrollmentInitQuerySchema,
    response: EntryEnrollmentInitSchema,
  },
  enroll: {
    method: 'post',
    path: '/v4/:uuid/entry/enrollment/enroll',
    access: 'staff',
    ability: 'schedule.checkIn',
    params: StudioParams,
    body: EntryEnrollInputSchema,
    response: ClientEntrySchema,
    status: 201,
  },
  clientEntries: {
    method: 'get',
    path: '/v4/:uuid/client/:user/client-entry/collection',
    access: 'staff',
    ability: 'clients.view',
    params: z.object({ uuid: z.string(), user: z.uuid() }),
    query: ClientEntryListQuerySchema,
    response: ClientEntryListSchema,
  },
});
