import { startApp } from '../ui/boot';
import { KioskApp } from './KioskApp';

startApp('kiosk', () => <KioskApp />, { namespace: 'kiosk' });
