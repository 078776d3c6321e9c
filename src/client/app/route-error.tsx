import { useRouteError } from 'react-router-dom';
import { errorMessages } from '../../shared/rules/error-codes';
import '../ui/button.css';

/**
 * A screen's code failed to load (typically offline before the app was cached) or threw while
 * rendering. Plain markup: this must work when nothing else does.
 */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <main id="main" className="route-error">
      <h1>{errorMessages.unhandled}</h1>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}
