import { useEffect, useState } from 'react';
import { Dialog } from '../../ui/dialog';
import { Button } from '../../ui/button';
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
 * 'Saved version', one of them chosen (your version by default: it is what was just typed).
 */
export function ConflictDialog({ open, mine, theirs, label, display, onResolve, onClose }: ConflictDialogProps) {
  const fields = differingFields(mine, theirs);
  const [choices, setChoices] = useState<Record<string, Side>>({});
  useEffect(() => {
    if (open) setChoices({});
  }, [open, mine, theirs]);
  const choiceOf = (field: string): Side => choices[field] ?? 'mine';

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-overlay" />
        <Dialog.Content className="modal conflict-dialog">
          <Dialog.Title className="modal__title">This step was changed by someone else</Dialog.Title>
          <Dialog.Description className="modal__message">
            Choose which version to keep for each field that differs.
          </Dialog.Description>
          <div className="conflict-dialog__fields">
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
          </div>
          <div className="modal__actions">
            <Button
              onClick={() => {
                const all: Record<string, Side> = {};
                for (const field of fields) all[field] = choiceOf(field);
                onResolve(mergeChoices(mine, theirs, all));
              }}
            >
              Save chosen values
            </Button>
            <Dialog.Close asChild>
              <Button variant="secondary">Cancel</Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
