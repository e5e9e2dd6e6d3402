import { Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CatalogApi } from '../../../shared/contracts/http/catalog';
import { parsePriceInput } from '../../../shared/domain/money';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { useEditorForm } from '../../ui/use-editor-form';
import { SubmitButton } from '../../ui/SubmitButton';
import {
  price,
  problemsError,
  useCatalogSubmit,
  useLocaleName,
  usePricingOptions,
  useStudio,
} from '../catalog/catalog.api';
import { priceText } from '../catalog/sellable-form';
import { useBackoffice } from '../backoffice.api';

/**
 * Sell (or give) a pass at the desk from the client's Passes tab: `POST /api/v2/{uuid}/clients/
 * {user}/client-pricing-options/{pricingOption}`. The price defaults to the option's current price
 * (a running promotion included); staff holding `sales.discount` may change it (the server refuses
 * another price to the rest, so the field is read-only for them). Payment is the sales module's business.
 */
export function SellPassForm({ clientId, onSold }: { clientId: string; onSold(): void }) {
  const { t, i18n } = useTranslation('catalog');
  const api = useApiClient();
  const studio = useStudio();
  const name = useLocaleName();
  const options = usePricingOptions({ archived: 'exclude' });
  const fields = useEditorForm(() => ({ optionId: null as string | null, amount: '' }));
  const { optionId, amount } = fields.values;
  const form = useCatalogSubmit(['pricingOption', 'price']);
  const mayDiscount = useBackoffice().member.abilities.includes('sales.discount');
  const sellable = (options.data?.items ?? []).filter((o) => o.sellAtDesk);
  const chosen = sellable.find((o) => o.id === optionId) ?? null;

  return (
    <Paper withBorder p="sm" radius="md">
      <form
        noValidate
        data-testid="sell-pass-form"
        onSubmit={(e) => {
          e.preventDefault();
          void form
            .run(async () => {
              const problems: Record<string, string[]> = {};
              if (!chosen) problems.pricingOption = ['errors.required'];
              const typed = amount.trim() === '' ? undefined : parsePriceInput(amount);
              if (typed === null || (typed !== undefined && typed < 0)) problems.price = ['errors.price'];
              if (!chosen || Object.keys(problems).length > 0) throw problemsError(t, problems);
              return api.call(CatalogApi.postClientsClientPricingOptions, {
                params: { uuid: studio.uuid, userGuid: clientId, pricingOptionGuid: chosen.id },
                body: typed === undefined || typed === null ? {} : { price: typed },
              });
            })
            .then((sold) => {
              if (!sold) return;
              fields.patch({ optionId: null, amount: '' });
              onSold();
            });
        }}
      >
        <Stack gap="sm">
          <Text fw={600}>{t('sell.title')}</Text>
          <FormErrorList errors={form.formErrors} />
          <Group align="flex-start" gap="sm" grow preventGrowOverflow={false} wrap="wrap">
            <Select
              label={t('sell.option')}
              placeholder={t('sell.choose')}
              data={sellable.map((o) => ({
                value: o.id,
                label: `${name(o.name) || t('list.unnamed')} · ${price(o.currentPrice, o.currency, i18n.language)}`,
              }))}
              value={optionId}
              onChange={(v) => {
                const option = sellable.find((o) => o.id === v);
                fields.patch({
                  optionId: v,
                  amount: option ? priceText(option.currentPrice, i18n.language) : '',
                });
              }}
              error={form.fieldErrors.pricingOption}
              searchable
              nothingFoundMessage={t('sell.nothing')}
              miw={220}
              comboboxProps={{ withinPortal: true }}
              data-testid="sell-pass-option"
            />
            <TextInput
              label={t('sell.price', { currency: studio.currency })}
              description={mayDiscount ? t('sell.priceHint') : t('sell.priceLocked')}
              readOnly={!mayDiscount}
              value={amount}
              onChange={(e) => fields.set('amount', e.currentTarget.value)}
              error={form.fieldErrors.price}
              inputMode="decimal"
              miw={160}
              name="price"
              data-testid="sell-pass-price"
            />
          </Group>
          <Group justify="flex-end">
            <SubmitButton state={form.state} data-testid="sell-pass-submit">
              {t('sell.submit')}
            </SubmitButton>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
