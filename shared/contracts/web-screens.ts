/**
 * Which screen (its source file under web/, the key of Vite's build manifest) a front-office path
 * opens, for the paths clients arrive at by URL (menu links, mails, bookmarks). The cloud adds that
 * screen's chunks to the served HTML as modulepreload links (cloud/src/http/web-preloads.ts), so a
 * first load fetches them together with the app's own instead of after it has started. The back
 * office routes by hash, which never reaches the server. `web/frontoffice/screen-sources.test.ts`
 * checks every file is the one FrontofficeApp lazy-loads for that path.
 */
export const FRONTOFFICE_SCREEN_SOURCES: Readonly<Record<string, string>> = {
  login: 'frontoffice/screens/LoginScreen.tsx',
  timetable: 'frontoffice/timetable/TimetableScreen.tsx',
  courses: 'frontoffice/courses/CoursesScreen.tsx',
  'pricing/pricing-options': 'frontoffice/pricing/PriceListScreen.tsx',
  passes: 'frontoffice/passes/MyPassesScreen.tsx',
  visits: 'frontoffice/visits/VisitsScreen.tsx',
  cart: 'frontoffice/cart/CartScreen.tsx',
  wallet: 'frontoffice/wallet/WalletScreen.tsx',
  purchases: 'frontoffice/purchases/PurchasesScreen.tsx',
};
