import { Button, type ButtonProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SubmitButtonState } from './submit-button-machine';

export interface SubmitButtonProps extends Omit<ButtonProps, 'loading' | 'color'> {
  state: SubmitButtonState;
  children: ReactNode;
  type?: 'submit' | 'button';
  onClick?: () => void;
  /** Label while showing success; defaults to the button's own label with a check mark. */
  successLabel?: ReactNode;
  /** Label while showing error; defaults to the button's own label with a cross. */
  errorLabel?: ReactNode;
  /** Colour while idle or locked (e.g. red for a destructive action); success and error keep theirs. */
  color?: ButtonProps['color'];
  'data-testid'?: string;
}

const check = (
  <svg
    width="16"
    height="16"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2.5"
    aria-hidden
  >
    <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);
const cross = (
  <svg
    width="16"
    height="16"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2.5"
    aria-hidden
  >
    <path d="M7 7l10 10M17 7L7 17" strokeLinecap="round" />
  </svg>
);

/**
 * The spec's submit button (§4/§9). It only renders the state of a SubmitButtonMachine (through
 * useSubmitButton or useServerForm): locked → spinner and disabled; success → green with a check
 * mark; error → red with a cross; each feedback lasts 2.5 s. `data-state` exposes the state to tests.
 */
export function SubmitButton({
  state,
  children,
  successLabel,
  errorLabel,
  type = 'submit',
  color: idleColor,
  ...props
}: SubmitButtonProps) {
  const { t } = useTranslation('common');
  const color = state === 'success' ? 'green' : state === 'error' ? 'red' : idleColor;
  const label =
    state === 'success'
      ? (successLabel ?? children)
      : state === 'error'
        ? (errorLabel ?? children)
        : children;
  return (
    <Button
      type={type}
      loading={state === 'locked'}
      loaderProps={{ type: 'dots' }}
      color={color}
      leftSection={state === 'success' ? check : state === 'error' ? cross : undefined}
      data-state={state}
      aria-busy={state === 'locked'}
      {...props}
    >
      {label}
      <span
        className="sr-only"
        aria-live="polite"
        style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
      >
        {state === 'success' ? t('submit.succeeded') : state === 'error' ? t('submit.failed') : ''}
      </span>
    </Button>
  );
}
