import { startApp } from '../ui/boot';
import { ModuleShell } from '../ui/ModuleShell';

startApp('donation', () => <ModuleShell namespace="donation" />, { namespace: 'donation' });
