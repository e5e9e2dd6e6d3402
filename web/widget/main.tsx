import { startApp } from '../ui/boot';
import { ModuleShell } from '../ui/ModuleShell';

startApp('widget', () => <ModuleShell namespace="widget" />, { namespace: 'widget' });
