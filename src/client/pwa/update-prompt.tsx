import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { hasUnsavedChanges, subscribeUnsavedChanges } from '../ui/unsaved-changes';
import { getUpdateState, markAcceptedHere, subscribeUpdate, type UpdateState } from './update-store';
import './update-prompt.css';

export const UPDATE_AVAILABLE_TEXT = 'A new version of the portal is available.';
export const UPDATE_WAIT_TEXT = 'Save your changes first; the update will wait.';
export const UPDATE_SWITCHED_TEXT = 'The portal was updated in another tab. This page will reload once your changes are saved.';

/**
 * Offers a waiting new version of the portal. "Update now" switches to it and reloads, but never
 * while a form holds unsaved changes: it then asks the user to save and waits until nothing is
 * unsaved. Accepted in another tab, this page reloads once its forms are saved, and says so with
 * 'Reload now' (when nothing would be lost) and 'Hide', so it is never left without a way on. It
 * sits in the page's flow above the header, never over a form's actions (decision 343). Plain
 * React on purpose: this ships in the main chunk.
 */
export function UpdatePrompt() {
  const update = useSyncExternalStore(subscribeUpdate, getUpdateState, getUpdateState);
  const unsaved = useSyncExternalStore(subscribeUnsavedChanges, hasUnsavedChanges, hasUnsavedChanges);
  // Both refer to the update they were chosen for, so a newer version is offered again.
  const [dismissed, setDismissed] = useState<UpdateState | null>(null);
  const [requested, setRequested] = useState<UpdateState | null>(null);
  const applied = useRef<UpdateState | null>(null);

  const visible = update.available && dismissed !== update;
  const waitingForSave = visible && !update.switched && unsaved && requested === update;

  useEffect(() => {
    if (update.switched || requested !== update || dismissed === update || applied.current === update) return;
    // Checked again here, not only on click: the effect also runs when the last form is saved.
    if (unsaved || hasUnsavedChanges()) return;
    applied.current = update;
    markAcceptedHere();
    update.apply?.();
  }, [requested, dismissed, update, unsaved]);

  return (
    <div className="update-prompt">
      <div className={visible ? 'update-prompt__card' : undefined}>
        {/* The live region stays mounted so its text is announced when it appears. */}
        <div role="status" aria-live="polite">
          {visible ? (
            <p className="update-prompt__text">{update.switched ? UPDATE_SWITCHED_TEXT : UPDATE_AVAILABLE_TEXT}</p>
          ) : null}
          {waitingForSave ? <p className="update-prompt__text">{UPDATE_WAIT_TEXT}</p> : null}
        </div>
        {visible && update.switched ? (
          <div className="update-prompt__actions">
            {update.reloadNow && !unsaved ? (
              <button type="button" className="update-prompt__primary" onClick={update.reloadNow}>
                Reload now
              </button>
            ) : null}
            <button type="button" className="update-prompt__secondary" onClick={() => setDismissed(update)}>
              Hide
            </button>
          </div>
        ) : null}
        {visible && !update.switched ? (
          <div className="update-prompt__actions">
            {requested === update ? null : (
              <button type="button" className="update-prompt__primary" onClick={() => setRequested(update)}>
                Update now
              </button>
            )}
            <button
              type="button"
              className="update-prompt__secondary"
              onClick={() => {
                setDismissed(update);
                setRequested(null);
              }}
            >
              Later
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}
