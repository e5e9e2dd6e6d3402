/**
 * The cloud's side of the smart locks: the driver per lock kind. The relay protocol itself (and the
 * fake) lives in shared/domain/smart-locks so the desktop kiosk station speaks the same one offline.
 */
import {
  HttpRelayDriver,
  type SmartLockDriver,
  type SmartLockTarget,
} from '../../../../shared/domain/smart-locks/http-relay';

export {
  FakeSmartLockDriver,
  HttpRelayDriver,
  RELAY_TIMEOUT_MS,
  type HttpRelayConfig,
  type SmartLockAnswer,
  type SmartLockDriver,
  type SmartLockTarget,
} from '../../../../shared/domain/smart-locks/http-relay';

let current: SmartLockDriver = new HttpRelayDriver();

/** The driver for a lock's kind. One kind today; the switch is where a vendor's API would join. */
export function smartLockDriverFor(lock: SmartLockTarget): SmartLockDriver {
  switch (lock.driver) {
    case 'httpRelay':
      return current;
  }
}

/** Tests swap the driver (and must put the real one back): returns the one it replaced. */
export function useSmartLockDriver(driver: SmartLockDriver): SmartLockDriver {
  const previous = current;
  current = driver;
  return previous;
}
