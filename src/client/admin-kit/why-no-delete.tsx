import './admin-kit.css';

/**
 * In place of a delete the record's abilities do not offer, for someone who manages it: why (its
 * active cases, in the words the refused delete would give: docs/decisions.md 457). Nothing for a
 * reader who could never delete it.
 */
export function WhyNoDelete({
  abilities,
  casesAmount,
  message,
}: {
  abilities: { edit: boolean; delete: boolean };
  casesAmount: number;
  message: string;
}) {
  if (!abilities.edit || abilities.delete || casesAmount === 0) return null;
  return <p className="admin-note">{message}</p>;
}
