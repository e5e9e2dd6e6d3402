import type { ResourceLanguage } from 'i18next';

/**
 * Every browser namespace in Polish, as one chunk that web/lib/i18n.ts imports when Polish is
 * the page language (or the user switches to it). Server-only namespaces (e-mails, server
 * messages) stay out.
 */
const modules = import.meta.glob<ResourceLanguage[string]>(
  ['../../../locales/pl/*.json', '!../../../locales/pl/mail.json', '!../../../locales/pl/server.json'],
  { eager: true, import: 'default' },
);

const bundle: ResourceLanguage = Object.fromEntries(
  Object.entries(modules).map(([path, content]) => [
    path.slice(path.lastIndexOf('/') + 1, -'.json'.length),
    content,
  ]),
);
export default bundle;
