import { useRouteError } from 'react-router-dom';
import { errorMessages } from '../../shared/rules/error-codes';
import { defectAdvice } from '../api/failure';
import { readCachedBrand } from '../session/brand';
import '../ui/button.css';

export const SCREEN_OFFLINE_TITLE = 'You are offline';
export const SCREEN_OFFLINE_TEXT =
  'This screen has not been saved on this device yet. It opens once you are back online: reload the page then.';
export const SCREEN_NOT_LOADED_TITLE = 'This screen could not be loaded';
export const SCREEN_NOT_LOADED_TEXT =
  'The portal may have been updated meanwhile, or the connection may have dropped. Reload the page once you are online.';

/** A screen's code that could not be fetched (a lazy chunk or its stylesheet), as browsers and Vite word it. */
function isLoadFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|importing a module script failed|failed to fetch|error loading|load failed|unable to preload css/i.test(
    error.message,
  );
}

/**
 * A screen's code failed to load or threw while rendering (decision 400). A screen that could not
 * be fetched offline says so; one that could not be fetched otherwise was replaced by an update or
 * lost on a dropping connection; only a real defect reads 'Unhandled error', and then says what to
 * do. Plain markup and the brand as this device last saved it: this must work when nothing else does.
 */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  const loadFailure = isLoadFailure(error);
  // The browser is believed when it says offline; the connection state itself (decision 401) stays
  // out of this first chunk, which the public pages load too.
  const [title, text] = loadFailure
    ? globalThis.navigator?.onLine === false
      ? [SCREEN_OFFLINE_TITLE, SCREEN_OFFLINE_TEXT]
      : [SCREEN_NOT_LOADED_TITLE, SCREEN_NOT_LOADED_TEXT]
    : [errorMessages.unhandled, defectAdvice(readCachedBrand())];
  return (
    <main id="main" className="route-error">
      <h1>{title}</h1>
      <p>{text}</p>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}
