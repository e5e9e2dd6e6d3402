import {
  KIOSK_SESSION_HEADER,
  KioskCheckInResultSchema,
  KioskClientSchema,
  KioskDeviceSchema,
  KioskSignInResultSchema,
  type KioskCheckInResult,
  type KioskClient,
  type KioskDevice,
  type KioskIdentifyInput,
  type KioskSignInResult,
} from '../../shared/contracts/api/kiosk';
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

  private path(rest: string): string {
    return `${this.studioUuid}/kiosk/${rest}`;
  }

  signIn(kioskId: string, kioskKey: string): Promise<KioskSignInResult> {
    return this.post(this.path('session'), { kioskId, kioskKey }, { schema: KioskSignInResultSchema });
  }

  me(): Promise<KioskDevice> {
    return this.get(this.path('me'), { schema: KioskDeviceSchema });
  }

  identify(input: KioskIdentifyInput): Promise<KioskClient> {
    return this.post(this.path('identify'), input, { schema: KioskClientSchema });
  }

  checkIn(clientId: string, scheduleEventId: string): Promise<KioskCheckInResult> {
    return this.post(
      this.path('check-in'),
      { clientId, scheduleEventId },
      { schema: KioskCheckInResultSchema },
    );
  }

  entry(clientId: string): Promise<KioskCheckInResult> {
    return this.post(this.path('entry'), { clientId }, { schema: KioskCheckInResultSchema });
  }
}
