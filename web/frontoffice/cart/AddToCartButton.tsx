import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { CartItemInput } from '../../../shared/contracts/api/sales';
import { FRONT_OFFICE_QUERY } from '../../../shared/contracts/routes';
import { useSession } from '../../lib/app-context';
import { useStudioUuid } from '../studio';
import { cartInputs, useCart, usePrepareCart } from './sales.api';

/**
 * "Buy" for one thing a client can buy online (a pass from the price list, a product, a contract):
 * puts it in the cart and goes to the cart. Already in the cart: a link to the cart. A visitor is
 * sent to sign in first and comes back to the cart. For the catalog's price list
 * (`<AddToCartButton item={{ type: 'pricingOption', id: option.id }} />`).
 */
export function AddToCartButton({ item }: { item: CartItemInput }) {
  const { t } = useTranslation('sales');
  const session = useSession();
  const studio = useStudioUuid();
  const signedIn = Boolean(session.userId && session.sessionId);
  const cart = useCart(studio, signedIn);
  const prepare = usePrepareCart(studio);
  const navigate = useNavigate();
  const testId = `add-to-cart-${item.id}`;

  if (!signedIn) {
    const login = `/login?${new URLSearchParams({ [FRONT_OFFICE_QUERY.redirectAfterLogin]: 'cart' })}`;
    return (
      <Button component={Link} to={login} size="sm" data-testid={testId}>
        {t('cart.add')}
      </Button>
    );
  }
  const inCart = cart.data?.items.some((i) => i.type === item.type && i.id === item.id) ?? false;
  if (inCart)
    return (
      <Group gap="xs">
        <Button component={Link} to="/cart" size="sm" variant="light" data-testid={testId}>
          {t('cart.added')} · {t('cart.goToCart')}
        </Button>
      </Group>
    );
  return (
    <Button
      size="sm"
      loading={prepare.isPending || cart.isPending}
      data-testid={testId}
      onClick={() =>
        prepare.mutate([...cartInputs(cart.data), item], { onSuccess: () => void navigate('/cart') })
      }
    >
      {t('cart.add')}
    </Button>
  );
}
