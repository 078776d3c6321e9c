import { Button } from './button';
import './decision-notice.css';

/**
 * The two notices of a decision sent through the outbox (docs/decisions.md (661)), in the spec's
 * words around the screen's own: `what` is the decision as the person made it ("Your change ‘block
 * loan’", "Your change to £42,500.00").
 */

/** Made offline: it waits on this device. */
export function DecisionWaiting({ what }: { what: string }) {
  return (
    <p className="decision-notice" role="status">
      {what} is kept on this device and will be sent once you are back online.
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
