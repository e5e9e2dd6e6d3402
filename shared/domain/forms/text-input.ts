/** Spec §5: text inputs trim whitespace. A missing value reads as empty text. */
export function trimText(value: string | null | undefined): string {
  return (value ?? '').trim();
}
