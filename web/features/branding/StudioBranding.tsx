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
 * The studio's logo in a header (nothing when it has none). At the desk the `<img>` cannot load the
 * cloud's relative path (file:// in Electron, the desk host's origin in tests): the picture is then
 * asked through `fetch`, which the desk routes through main (desktop/main/station/studio-pictures.ts:
 * fetched from the cloud, kept on disk for offline), and shown from its bytes. A logo that still
 * cannot be had is left out rather than shown as a broken image: the studio's name stands beside it.
 */
export function StudioLogo({
  appearance,
  height = 32,
}: {
  appearance: StudioAppearanceView | undefined;
  height?: number;
}) {
  const url = appearance?.logoUrl ?? null;
  // What the <img> shows for `url`: the URL itself first, then the bytes fetched, or nothing.
  const [shown, setShown] = useState<{ url: string; src: string | null } | null>(null);
  const src = shown?.url === url ? shown.src : url;
  useEffect(() => {
    const blob = shown?.src?.startsWith('blob:') ? shown.src : null;
    return () => {
      if (blob) URL.revokeObjectURL(blob);
    };
  }, [shown]);
  if (!url || !src) return null;
  const fallBack = () => {
    if (src !== url) return setShown({ url, src: null });
    void fetch(url, { headers: { accept: 'image/*' } })
      .then(async (response) => {
        if (!response.ok) throw new Error(`logo ${response.status}`);
        setShown({ url, src: URL.createObjectURL(await response.blob()) });
      })
      .catch(() => setShown({ url, src: null }));
  };
  return (
    <Image
      src={src}
      onError={fallBack}
      alt={appearance!.name}
      h={height}
      w="auto"
      fit="contain"
      data-testid="studio-logo"
    />
  );
}
