import { useQuery, useQueryClient } from '@tanstack/react-query';
import { VideosApi } from '../../../shared/contracts/http/videos';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

/** Back-office calls of videos and video courses (spec §7 `video/collection`, `video-service …`). */
export const videoKeys = {
  all: (studio: string) => ['videos', studio] as const,
  videos: (studio: string) => ['videos', studio, 'list'] as const,
  services: (studio: string) => ['videos', studio, 'services'] as const,
  init: (studio: string) => ['videos', studio, 'init'] as const,
  client: (studio: string, client: string) => ['videos', studio, 'client', client] as const,
};

export function useStudio() {
  return useBackoffice().studio.uuid;
}

export function useVideos() {
  const api = useApiClient();
  const studio = useStudio();
  return useQuery({
    queryKey: videoKeys.videos(studio),
    queryFn: ({ signal }) => api.call(VideosApi.collection, { params: { uuid: studio }, signal }),
    // While a video transcodes its status changes on the server: look again every few seconds.
    refetchInterval: (q) => (q.state.data?.items.some((v) => v.status === 'transcoding') ? 3000 : false),
  });
}

export function useVideoServices() {
  const api = useApiClient();
  const studio = useStudio();
  return useQuery({
    queryKey: videoKeys.services(studio),
    queryFn: ({ signal }) => api.call(VideosApi.serviceCollection, { params: { uuid: studio }, signal }),
  });
}

export function useVideoServiceInit() {
  const api = useApiClient();
  const studio = useStudio();
  return useQuery({
    queryKey: videoKeys.init(studio),
    queryFn: ({ signal }) => api.call(VideosApi.serviceInit, { params: { uuid: studio }, signal }),
  });
}

export function useInvalidateVideos() {
  const client = useQueryClient();
  const studio = useStudio();
  return () => client.invalidateQueries({ queryKey: videoKeys.all(studio) });
}

export function useClientVideos(clientId: string) {
  const api = useApiClient();
  const studio = useStudio();
  return useQuery({
    queryKey: videoKeys.client(studio, clientId),
    queryFn: ({ signal }) =>
      api.call(VideosApi.clientVideos, { params: { uuid: studio, user: clientId }, signal }),
  });
}
