import { startApp } from '../ui/boot';
import { EntryApp } from './EntryApp';
// After the kit (and Mantine's styles), so these few rules come last.
import './entry.css';

startApp('entry', () => <EntryApp />, { namespace: 'entry' });
