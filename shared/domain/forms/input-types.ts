/** Spec §5: the input types a settings form is built from. */
export const FORM_INPUT_TYPES = ['text', 'email', 'password', 'hidden', 'number', 'tax', 'price'] as const;
export type FormInputType = (typeof FORM_INPUT_TYPES)[number];
