import { formatMoney } from '../../shared/rules/formats';
import './labelled-amount.css';

/**
 * An amount in a list row with its label above it ('Credit available', 'Amount'), at every width:
 * a row of figures without column headings never leaves a reader to guess which sum it is
 * (docs/decisions.md 447).
 */
export function LabelledAmount({ label, pounds, className }: { label: string; pounds: number; className?: string }) {
  return (
    <span className={className ? `labelled-amount ${className}` : 'labelled-amount'}>
      <span className="labelled-amount__label">{label}</span>{' '}
      <span className="labelled-amount__value">{formatMoney(pounds)}</span>
    </span>
  );
}
