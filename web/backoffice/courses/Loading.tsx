import { ListLoading } from '../list-frame';

export function Loading() {
  return <ListLoading />;
}
