import { Alert, Badge, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PublicContractOffer } from '../../../shared/contracts/api/contracts';
import { ContractsApi } from '../../../shared/contracts/http/contracts';
import { useApiClient } from '../../lib/app-context';
import { errorCodeLabel } from '../../lib/form-errors';
import {
  activationLabel,
  durationLabel,
  noticeLabel,
  pricePerPeriod,
  signUpFeeLabel,
} from '../../features/contracts/labels';
import { AddToCartButton } from '../cart/AddToCartButton';
import { useStudioUuid } from '../studio';

/**
 * The studio's memberships (front office `POST pricing/contracts`): anyone may look. Contracts sold
 * online, with the price per period, duration, when billing starts, the notice and the sign-up fee.
 * "Buy" puts the contract in the shopping cart; the checkout's payment is the sign-up fee and the
 * first period, and the client contract with its schedule is created once it is paid.
 */
export function ContractPriceListScreen() {
  const { t, i18n } = useTranslation('contracts');
  const api = useApiClient();
  const studio = useStudioUuid();
  const list = useQuery({
    // Names come back in the page's language: a language switch asks again.
    queryKey: ['contract-price-list', studio, i18n.language],
    queryFn: ({ signal }) =>
      api.call(ContractsApi.postPricingContracts, { params: { uuid: studio }, body: {}, signal }),
  });
  return (
    <Stack gap="md" data-testid="contract-price-list">
      <Stack gap={4}>
        <Title order={2}>{t('front.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('front.intro')}
        </Text>
      </Stack>
      {list.error ? (
        <Alert color="red" variant="light" title={t('loadError')}>
          <Group justify="space-between">
            <Text size="sm">{errorCodeLabel(list.error)}</Text>
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              {t('retry')}
            </Button>
          </Group>
        </Alert>
      ) : list.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : list.data.items.length === 0 ? (
        <Text c="dimmed">{t('front.nothingForSale')}</Text>
      ) : (
        <Stack gap="sm">
          {list.data.items.map((offer) => (
            <OfferCard key={offer.id} offer={offer} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function OfferCard({ offer }: { offer: PublicContractOffer }) {
  const { t, i18n } = useTranslation('contracts');
  // On a phone the price wraps below the terms: left-aligned, like the text above it.
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  return (
    <Card withBorder radius="md" padding="md" data-testid="contract-offer" data-name={offer.name}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={6} style={{ flex: 1, minWidth: 200 }}>
          <Text fw={600} size="lg" style={{ overflowWrap: 'anywhere' }}>
            {offer.name}
          </Text>
          <Group gap={6}>
            <Badge variant="light">{durationLabel(t, offer)}</Badge>
            <Badge variant="light" color="gray">
              {noticeLabel(t, offer)}
            </Badge>
          </Group>
          <Text size="sm">{activationLabel(t, offer)}</Text>
          {offer.serviceTypes.length > 0 ? (
            <Text size="xs" c="dimmed">
              {t('front.includes')}:{' '}
              {offer.serviceTypes.map((s) => t(`enums:pricingOptionServiceType.${s}`)).join(' · ')}
            </Text>
          ) : null}
          {offer.description ? (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
              {offer.description}
            </Text>
          ) : null}
        </Stack>
        <Stack gap={2} align={phone ? 'flex-start' : 'flex-end'}>
          <Text fw={700} size="xl" data-testid="contract-offer-price" style={{ whiteSpace: 'nowrap' }}>
            {pricePerPeriod(t, offer, i18n.language)}
          </Text>
          <Text size="sm" c="dimmed" data-testid="contract-offer-fee">
            {signUpFeeLabel(t, offer, i18n.language)}
          </Text>
          <AddToCartButton item={{ type: 'contract', id: offer.id }} />
        </Stack>
      </Group>
      <Text size="xs" c="dimmed" mt="xs">
        {t(offer.signUpFee > 0 ? 'front.payNow' : 'front.payNowNoFee')}
      </Text>
    </Card>
  );
}
