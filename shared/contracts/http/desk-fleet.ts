import { z } from 'zod';
import { DeskChannelInputSchema, DeskFleetSchema, FleetStationSchema } from '../api/desk-fleet';
import { contractGroup } from './define';
import { StudioParams, studioParams } from './params';

const NoQuery = z.strictObject({});
const EmptyBody = z.strictObject({});
const DeviceParams = studioParams('deviceId');
const ReleaseParams = studioParams('releaseId');

/**
 * Back office → Stations (issue 29): every desk and kiosk of the studio, the studio's update channel,
 * and "upload logs" requests. The stations' own calls (report, logs, crash reports, the update feed)
 * are under /desktop with the device token: cloud/src/modules/desk-fleet/README.md.
 */
export const DeskFleetApi = contractGroup('deskFleet', {
  getDeskFleet: {
    method: 'get',
    path: '/v4/:uuid/desk-fleet',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    query: NoQuery,
    response: DeskFleetSchema,
  },
  putDeskFleetChannel: {
    method: 'put',
    path: '/v4/:uuid/desk-fleet/channel',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: DeskChannelInputSchema,
    response: DeskFleetSchema,
  },
  postDeskFleetUploadLogs: {
    method: 'post',
    path: '/v4/:uuid/desk-fleet/station/:deviceId/upload-logs',
    access: 'staff',
    ability: 'settings.edit',
    params: DeviceParams,
    body: EmptyBody,
    response: FleetStationSchema,
  },
  /**
   * Deletes a past release (not the one its channel's feed serves: 409 desktop.releaseCurrent) and
   * its installers and blockmaps from storage. Staff with settings.edit whose e-mail is in
   * DESK_RELEASE_MANAGERS (releases are every studio's); others 403.
   */
  deleteDeskFleetRelease: {
    method: 'delete',
    path: '/v4/:uuid/desk-fleet/release/:releaseId',
    access: 'staff',
    ability: 'settings.edit',
    params: ReleaseParams,
    response: DeskFleetSchema,
  },
  getDeskFleetLogs: {
    method: 'get',
    path: '/v4/:uuid/desk-fleet/station/:deviceId/logs',
    access: 'staff',
    ability: 'settings.view',
    params: DeviceParams,
    query: NoQuery,
    responseKind: 'file',
    contentType: 'text/plain; charset=utf-8',
  },
});
