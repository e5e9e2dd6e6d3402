import { useQuery } from '@tanstack/react-query';
import { VideosApi } from '../../../shared/contracts/http/videos';
import { useApiClient } from '../../lib/app-context';
import { useStudioUuid } from '../studio';

/** The client's video-course calls (front office `video-courses`, `video-course/{slug}`, watch, metric). */
export function useVideoCourses() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: ['video-courses', studio],
    queryFn: ({ signal }) => api.call(VideosApi.courses, { params: { uuid: studio }, signal }),
  });
}

export function useVideoCourse(slug: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: ['video-courses', studio, slug],
    queryFn: ({ signal }) => api.call(VideosApi.course, { params: { uuid: studio, slug }, signal }),
  });
}

export function useWatch(videoEvent: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: ['video-watch', studio, videoEvent],
    queryFn: ({ signal }) => api.call(VideosApi.watch, { params: { uuid: studio, videoEvent }, signal }),
    // A fresh signed link each time the page opens; never refetched behind the player's back.
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}
