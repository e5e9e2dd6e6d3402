import {
  PAGE_CONTEXT_ELEMENT_ID,
  PageContextSchema,
  type PageContext,
  type WebApp,
} from '../../shared/contracts/page-context';

/** Thrown when the HTML has no usable page context: the page was not served by our server. */
export class PageContextError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PageContextError';
  }
}

/** Parses and validates the JSON text of the page-context script element. */
export function parsePageContext(json: string, expectedApp?: WebApp): PageContext {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (cause) {
    throw new PageContextError('The page context is not valid JSON.', { cause });
  }
  const result = PageContextSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new PageContextError(`The page context does not match PageContextSchema: ${problems}`);
  }
  if (expectedApp && result.data.app !== expectedApp) {
    throw new PageContextError(
      `This page was rendered for the "${result.data.app}" app, not "${expectedApp}".`,
    );
  }
  return result.data;
}

/**
 * Reads the page context the server renders into the HTML head in place of `<!--page-context-->`
 * (`<script id="page-context" type="application/json">`). Throws a PageContextError when missing —
 * typically the HTML was opened from the file system or from `vite preview` instead of the server.
 */
export function readPageContext(
  expectedApp?: WebApp,
  doc: Pick<Document, 'getElementById'> = document,
): PageContext {
  const element = doc.getElementById(PAGE_CONTEXT_ELEMENT_ID);
  const text = element?.textContent?.trim();
  if (!text) {
    throw new PageContextError(
      `No <script id="${PAGE_CONTEXT_ELEMENT_ID}"> in this page. The web apps must be served by the cloud server, ` +
        'which replaces <!--page-context--> in index.html with the page context.',
    );
  }
  return parsePageContext(text, expectedApp);
}
