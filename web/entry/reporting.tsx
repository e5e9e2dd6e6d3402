import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { useApiClient, usePageContext } from '../lib/app-context';
import { postClientLog } from './entry.api';
import { isReportable } from './entry-errors';
import { ErrorReporter, reportGlobalErrors } from './error-reporter';

const ReporterContext = createContext<ErrorReporter | null>(null);

/** One reporter per page: uncaught errors and unhandled rejections go to log/post (spec §7). */
export function ErrorReporting({ children }: { children: ReactNode }) {
  const api = useApiClient();
  const { version } = usePageContext();
  const [reporter] = useState(() => new ErrorReporter((input) => postClientLog(api, input), version));
  useEffect(() => reportGlobalErrors(window, reporter), [reporter]);
  return <ReporterContext.Provider value={reporter}>{children}</ReporterContext.Provider>;
}

/**
 * Reports a failed entry call when it is not an HTTP answer (spec §8: "non-HTTP errors are also
 * reported to the log"); `call` names the call, e.g. `auth/preflight`.
 */
export function useReportFailure(): (error: unknown, call: string) => void {
  const reporter = useContext(ReporterContext);
  return useCallback(
    (error: unknown, call: string) => {
      if (reporter && isReportable(error)) reporter.report(error, call);
    },
    [reporter],
  );
}

/** Reports any error (render failures caught by the router). */
export function useReportError(): (error: unknown, context: string) => void {
  const reporter = useContext(ReporterContext);
  return useCallback((error: unknown, context: string) => void reporter?.report(error, context), [reporter]);
}
