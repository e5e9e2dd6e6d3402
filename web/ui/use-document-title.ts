import { useEffect } from 'react';

/** Keeps the tab title in the current language (index.html only has an English placeholder). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
