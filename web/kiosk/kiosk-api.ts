import {
  KIOSK_SESSION_HEADER,
  type KioskCheckInResult,
  type KioskClient,
  type KioskDevice,
  type KioskIdentifyInput,
  type KioskSignInResult,
} from '../../shared/contracts/api/kiosk';
import { KioskApi } from '../../shared/contracts/http/kiosk';
import { ApiClient, type ApiClientOptions } from '../lib/api-client';

/**
 * The kiosk's API client: the page's headers plus the kiosk session token. Only the kiosk calls
 * (`{uuid}/kiosk/...`) accept that token; the server answers 403 to it anywhere else.
 */
export class KioskApiClient extends ApiClient {
  private kioskToken: string | null = null;

  constructor(
    options: ApiClientOptions,
    private readonly studioUuid: string,
  ) {
    super(options);
  }

  setKioskToken(token: string | null): void {
    this.kioskToken = token;
  }

  override headers(): Record<string, string> {
    const headers = super.headers();
    if (this.kioskToken) headers[KIOSK_SESSION_HEADER] = this.kioskToken;
    return headers;
  }

  private get params() {
    return { uuid: this.studioUuid };
  }

  signIn(kioskId: string, kioskKey: string): Promise<KioskSignInResult> {
    return this.call(KioskApi.postKioskSession, { params: this.params, body: { kioskId, kioskKey } });
  }

  me(): Promise<KioskDevice> {
    return this.call(KioskApi.getKioskMe, { params: this.params });
  }

  identify(input: KioskIdentifyInput): Promise<KioskClient> {
    return this.call(KioskApi.postKioskIdentify, { params: this.params, body: input });
  }

  checkIn(clientId: string, scheduleEventId: string): Promise<KioskCheckInResult> {
    return this.call(KioskApi.postKioskCheckIn, { params: this.params, body: { clientId, scheduleEventId } });
  }

  entry(clientId: string): Promise<KioskCheckInResult> {
    return this.call(KioskApi.postKioskEntry, { params: this.params, body: { clientId } });
  }
}
