import { useOnline } from '../api/connection';
import { Button } from './button';
import './decision-notice.css';

/**
 * The two notices of a decision sent through the outbox (docs/decisions.md (661)), in the spec's
 * words around the screen's own: `what` is the decision as the person made it ("Your change ‘block
 * loan’", "Your change to £42,500.00").
 */

/**
 * Not taken by the server yet: it waits on this device. Offline, until the connection is back;
 * online (the server slow to answer, or failing and tried again), until the server takes it.
 */
export function DecisionWaiting({ what }: { what: string }) {
  const online = useOnline();
  return (
    <p className="decision-notice" role="status">
      {online
        ? `${what} is kept on this device until the server takes it. It is sent again by itself.`
        : `${what} is kept on this device and will be sent once you are back online.`}
    </p>
  );
}

/** Refused by the server: why (`why`, the code's words), until the person dismisses it. */
export function DecisionRefused({ what, why, onDismiss }: { what: string; why: string; onDismiss: () => void }) {
  return (
    <div className="decision-notice decision-notice--refused" role="alert">
      <p>
        {what} was not made: {why}
      </p>
      <Button variant="secondary" onClick={onDismiss}>
        dismiss
      </Button>
    </div>
  );
}
