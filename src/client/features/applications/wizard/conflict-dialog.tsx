import { useEffect, useState } from 'react';
import { Button } from '../../../ui/button';
import { ModalClose, ModalDialog } from '../../../ui/modal-dialog';
import './conflict-dialog.css';
import { differingFields, mergeChoices, type Side } from './conflict';

type Data = Record<string, unknown>;

interface ConflictDialogProps {
  open: boolean;
  /** The step's data as this user left it. */
  mine: Data;
  /** The server's copy of the step. */
  theirs: Data;
  label: (field: string) => string;
  display: (field: string, value: unknown) => string;
  /** The merged data, to be saved again on the server's version. */
  onResolve: (merged: Data) => void;
  onClose: () => void;
}

/**
 * The field-by-field choice after a conflict: for every field that differs, 'Your version' and
 * 'Saved version', one of them chosen (your version by default: it is what was just typed). A
 * dialog in view with its own styles on every page that shows it (ui/modal-dialog.tsx).
 */
export function ConflictDialog({ open, mine, theirs, label, display, onResolve, onClose }: ConflictDialogProps) {
  const fields = differingFields(mine, theirs);
  const [choices, setChoices] = useState<Record<string, Side>>({});
  useEffect(() => {
    if (open) setChoices({});
  }, [open, mine, theirs]);
  const choiceOf = (field: string): Side => choices[field] ?? 'mine';

  const save = () => {
    const all: Record<string, Side> = {};
    for (const field of fields) all[field] = choiceOf(field);
    onResolve(mergeChoices(mine, theirs, all));
  };

  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      className="conflict-dialog"
      title="This step was changed by someone else"
      description="Choose which version to keep for each field that differs."
      actions={
        <>
          <Button onClick={save}>Save chosen values</Button>
          <ModalClose asChild>
            <Button variant="secondary">Cancel</Button>
          </ModalClose>
        </>
      }
    >
      {fields.map((field) => (
        <fieldset key={field} className="conflict-field">
          <legend className="conflict-field__label">{label(field)}</legend>
          {(['mine', 'theirs'] as const).map((side) => (
            <label key={side} className="conflict-field__option">
              <input
                type="radio"
                name={`conflict-${field}`}
                value={side}
                checked={choiceOf(field) === side}
                onChange={() => setChoices((current) => ({ ...current, [field]: side }))}
              />
              <span className="conflict-field__side">{side === 'mine' ? 'Your version' : 'Saved version'}</span>
              <span className="conflict-field__value">
                {display(field, side === 'mine' ? mine[field] : theirs[field]) || '—'}
              </span>
            </label>
          ))}
        </fieldset>
      ))}
    </ModalDialog>
  );
}
