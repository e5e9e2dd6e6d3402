import { Image } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { StudioAppearanceView } from '../../../shared/contracts/api/studio-admin';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { brandVariables } from './branding';

/** The studio's public look (logo, cover, colours); shared by the front office, kiosk and widget. */
export function useStudioAppearance(uuid: string | null) {
  const api = useApiClient();
  return useQuery({ ...studioAppearanceQuery(api, uuid ?? ''), enabled: Boolean(uuid) });
}

/** The appearance query (also prefetched by the front office before its first render). */
export function studioAppearanceQuery(api: ApiClient, uuid: string) {
  return queryOptions({
    queryKey: ['studio-appearance', uuid],
    queryFn: ({ signal }) => api.call(StudioAdminApi.getAppearance, { params: { uuid }, signal }),
    staleTime: 60_000,
  });
}

/** Applies the studio's colours to the whole page (dialogs and menus render outside the app root). */
export function useApplyBranding(appearance: StudioAppearanceView | undefined) {
  const primary = appearance?.primaryColor ?? null;
  const accent = appearance?.accentColor ?? null;
  useEffect(() => {
    const root = document.documentElement;
    const vars = brandVariables(primary, accent);
    for (const [name, value] of Object.entries(vars)) root.style.setProperty(name, value);
    return () => {
      for (const name of Object.keys(vars)) root.style.removeProperty(name);
    };
  }, [primary, accent]);
}

/**
 * The studio's logo in a header (nothing when it has none). A logo that cannot be loaded (a desk
 * station whose cloud is away) is left out rather than shown as a broken image with its alt text:
 * the studio's name stands beside it.
 */
export function StudioLogo({
  appearance,
  height = 32,
}: {
  appearance: StudioAppearanceView | undefined;
  height?: number;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!appearance?.logoUrl || failed === appearance.logoUrl) return null;
  return (
    <Image
      src={appearance.logoUrl}
      onError={() => setFailed(appearance.logoUrl)}
      alt={appearance.name}
      h={height}
      w="auto"
      fit="contain"
      data-testid="studio-logo"
    />
  );
}
