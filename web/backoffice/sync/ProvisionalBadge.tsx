import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * "Waiting to sync": a client, visit or check-in the desk station recorded while the cloud was away
 * (its offline answers carry `provisional: true`). The cloud decides when the change arrives, and may
 * decide otherwise (a booking waitlisted, a check-in flagged): until then it is the desk's guess.
 */
export function ProvisionalBadge({ provisional }: { provisional?: boolean | undefined }) {
  const { t } = useTranslation('sync');
  if (!provisional) return null;
  return (
    <Tooltip label={t('provisional.hint')} withArrow multiline w={260}>
      <Badge size="sm" variant="outline" color="orange" data-testid="provisional-badge">
        {t('provisional.badge')}
      </Badge>
    </Tooltip>
  );
}
