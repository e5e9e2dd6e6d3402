export const SESSION_COOKIE = 'sp_session';
export const CSRF_COOKIE = 'sp_csrf';
export const LOCALE_COOKIE = 'locale';
