import { startApp } from '../ui/boot';
import { WidgetApp } from './WidgetApp';

startApp('widget', () => <WidgetApp />, { namespace: 'integrations' });
