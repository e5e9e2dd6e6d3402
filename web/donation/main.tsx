import { DonationApp } from '../frontoffice/donation/DonationScreen';
import { startApp } from '../ui/boot';

startApp('donation', (ctx) => <DonationApp studioUuid={ctx.studioUuid} />, { namespace: 'donation' });
