export { registerTranslationsRoutes } from './translations.routes';
