import { startApp } from '../ui/boot';
import { ModuleShell } from '../ui/ModuleShell';

startApp('kiosk', () => <ModuleShell namespace="kiosk" />, { namespace: 'kiosk' });
