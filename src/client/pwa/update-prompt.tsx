import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { hasUnsavedChanges, subscribeUnsavedChanges } from '../routing/unsaved-changes';
import { getUpdateState, subscribeUpdate, type UpdateState } from './update-store';
import './update-prompt.css';

/**
 * Offers a waiting new version of the portal. "Update now" switches to it and reloads, but never
 * while a form holds unsaved changes: it then asks the user to save and waits until nothing is
 * unsaved. Plain React on purpose: this ships in the main chunk.
 */
export function UpdatePrompt() {
  const update = useSyncExternalStore(subscribeUpdate, getUpdateState, getUpdateState);
  const unsaved = useSyncExternalStore(subscribeUnsavedChanges, hasUnsavedChanges, hasUnsavedChanges);
  // Both refer to the update they were chosen for, so a newer version is offered again.
  const [dismissed, setDismissed] = useState<UpdateState | null>(null);
  const [requested, setRequested] = useState<UpdateState | null>(null);
  const applied = useRef<UpdateState | null>(null);

  // Once the new version controls the page (another tab accepted it), there is nothing left to
  // choose: the page reloads when nothing is unsaved, and until then says why it waits.
  const visible = update.available && (update.switched || dismissed !== update);
  const waitingForSave = visible && unsaved && (update.switched || requested === update);

  useEffect(() => {
    if (update.switched || requested !== update || dismissed === update || applied.current === update) return;
    // Checked again here, not only on click: the effect also runs when the last form is saved.
    if (unsaved || hasUnsavedChanges()) return;
    applied.current = update;
    update.apply?.();
  }, [requested, dismissed, update, unsaved]);

  return (
    <div className="update-prompt">
      <div className={visible ? 'update-prompt__card' : undefined}>
        {/* The live region stays mounted so its text is announced when it appears. */}
        <div role="status" aria-live="polite">
          {visible ? <p className="update-prompt__text">A new version of the portal is available.</p> : null}
          {waitingForSave ? <p className="update-prompt__text">Save your changes first; the update will wait.</p> : null}
        </div>
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
