import type { ReactNode } from 'react';
import { formatMoney } from '../../../../shared/rules/formats';
import type { DraftRecord } from '../../../offline/drafts';
import { Button } from '../../../ui/button';
import '../../../ui/notice.css';
import { parseNumberInput } from '../../../ui/number-field';
import { refusalWords } from './request-messages';
import type { RequestTarget } from './request-target';
import type { RequestValues } from './request-values';

/**
 * The page takes no write of this target now: a draft kept on the device is said, never dropped
 * (with the server's words when it was refused), and can be discarded; the page says why.
 */
export function HeldRequest({
  target,
  kept,
  heading,
  onDiscard,
}: {
  target: RequestTarget;
  kept: DraftRecord<RequestValues>;
  heading: ReactNode;
  onDiscard: () => void;
}) {
  const amount = parseNumberInput(kept.value.amount);
  const refused = kept.status === 'rejected';
  return (
    <section className="drawdown-request" aria-labelledby="drawdown-request-title">
      {heading}
      <div className={`notice loan-notice${refused ? ' notice--warning' : ''}`} role={refused ? 'alert' : 'status'}>
        <p>
          {target.heldText(
            amount === undefined ? null : formatMoney(amount),
            refused ? refusalWords(kept.serverError, kept.serverCodes) : null,
          )}
        </p>
        <Button variant="secondary" onClick={onDiscard}>
          discard
        </Button>
      </div>
    </section>
  );
}
