/** Front-office slugs of the account screens (spec §2: `/{uuid}/frontoffice/{slug}`; the slugs are ours). */
export const ACCOUNT_SLUGS = {
  signup: 'signup',
  profile: 'profile',
  security: 'security',
  settings: 'settings',
  identity: 'identity',
  links: 'user-account-link',
  messages: 'messages',
  notifications: 'notifications',
  feedback: 'feedback',
} as const;
