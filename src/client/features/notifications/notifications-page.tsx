import { useCallback, useEffect, useId, useState } from 'react';
import { useAtomValue } from 'jotai';
import { notificationKindLabels, notificationKindsOfRole, type NotificationKind } from '../../../shared/rules/notification-kinds';
import { formatDate } from '../../../shared/rules/formats';
import { errorMessages } from '../../../shared/rules/error-codes';
import { failureMessage, readFailure, type Failure } from '../../api/failure';
import { useOnline } from '../../api/connection';
import { useCachedQuery } from '../../offline/cache';
import { browserSubscription, isIos, pushBlock, readPushEnvironment, type PushBlock } from '../../pwa/push-browser';
import { useLeaveConfirmation } from '../../routing/leave-confirmation';
import { sessionUserAtom } from '../../session/session';
import { Button } from '../../ui/button';
import { CheckboxField } from '../../ui/choice-fields';
import { FormMessage } from '../../ui/form-message';
import { Page } from '../../ui/page';
import { useToast } from '../../ui/toast-store';
import { blockTexts, notificationTexts as texts, turnedOnText } from './notification-texts';
import { loadDevices, loadKinds, removeDevice, saveKinds, turnOff, turnOn, type PushDevice } from './push-calls';
import './notifications-page.css';

type Busy = null | 'on' | 'off' | 'save' | number;

/** Why this device cannot take notifications now (read again after the browser is asked). */
function currentBlock(): PushBlock | null {
  const env = readPushEnvironment();
  return pushBlock(env, isIos(env.userAgent, typeof navigator === 'undefined' ? 0 : navigator.maxTouchPoints));
}

function sameKinds(a: readonly NotificationKind[], b: readonly NotificationKind[]): boolean {
  return a.length === b.length && a.every((kind) => b.includes(kind));
}

/** The message for a failed call: offline, the page's own words (what was chosen stays). */
function messageFor(failure: Failure): string {
  return failure.kind === 'offline' && failure.code === 'offline' ? texts.notSentOffline : failureMessage(failure);
}

/** Why the list of devices cannot be shown (a device that never had it offline has no copy). */
function listFailure(failure: Failure): string {
  return failure.kind === 'offline' && failure.code === 'offline' ? texts.offline : failureMessage(failure);
}

function BlockNotice({ block }: { block: PushBlock }) {
  const { title, text } = blockTexts[block];
  return (
    <div className="push-notice" role="status">
      <p className="push-notice__title">{title}</p>
      <p>{text}</p>
    </div>
  );
}

function DeviceList({
  devices,
  busy,
  onRemove,
}: {
  devices: readonly PushDevice[];
  busy: Busy;
  onRemove: (device: PushDevice) => void;
}) {
  if (devices.length === 0) return <p>{texts.noDevices}</p>;
  return (
    <ul className="push-devices">
      {devices.map((device) => (
        <li key={device.id} className="push-devices__item">
          <span className="push-devices__label">
            {device.deviceLabel}
            {device.thisDevice ? <span className="push-devices__this"> {texts.thisDevice}</span> : null}
          </span>
          <span className="push-devices__date">{turnedOnText(formatDate(device.createdAt))}</span>
          <Button
            variant="secondary"
            className="push-devices__remove"
            busy={busy === device.id}
            aria-label={`${texts.remove} ${device.deviceLabel}${device.thisDevice ? ` (${texts.thisDevice.toLowerCase()})` : ''}`}
            onClick={() => onRemove(device)}
          >
            {texts.remove}
          </Button>
        </li>
      ))}
    </ul>
  );
}

/**
 * /notifications, from the account menu (decision 687): notifications on or off for this device,
 * the kinds the person receives (on every device), and their devices. The device's state is the
 * server's word (a device of this session) and the browser's (a subscription it still holds).
 */
export default function NotificationsPage() {
  const user = useAtomValue(sessionUserAtom);
  const roleKinds = user ? notificationKindsOfRole(user.role) : [];
  const online = useOnline();
  const toast = useToast();
  const kindsLegend = useId();

  const devices = useCachedQuery(roleKinds.length > 0 ? 'push/subscriptions' : null, loadDevices);
  const kinds = useCachedQuery(roleKinds.length > 0 ? 'push/preferences' : null, loadKinds);
  const [block, setBlock] = useState<PushBlock | null>(currentBlock);
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [message, setMessage] = useState<string | null>(null);
  /** The kinds ticked here and not saved yet; null while the server's choice is shown. */
  const [chosen, setChosen] = useState<NotificationKind[] | null>(null);

  const readSubscription = useCallback(() => {
    void browserSubscription()
      .then((subscription) => setSubscribed(subscription !== null))
      .catch(() => setSubscribed(false));
  }, []);
  useEffect(readSubscription, [readSubscription]);

  const savedKinds = kinds.data ?? null;
  const shownKinds = chosen ?? savedKinds ?? [];
  const dirty = chosen !== null && savedKinds !== null && !sameKinds(chosen, savedKinds);
  useLeaveConfirmation(dirty, busy === 'save');

  if (roleKinds.length === 0) {
    return (
      <Page title={texts.title}>
        <p>{texts.notForRole}</p>
      </Page>
    );
  }

  const thisDevice = devices.data?.find((device) => device.thisDevice);
  const on = Boolean(thisDevice) && subscribed === true;
  const known = devices.data !== undefined && subscribed !== null;

  const run = async (what: Exclude<Busy, null>, work: () => Promise<void>) => {
    if (busy !== null) return;
    setBusy(what);
    setMessage(null);
    try {
      await work();
    } catch (error) {
      console.error(error);
      setMessage(errorMessages.unhandled);
    } finally {
      setBusy(null);
    }
  };

  const onTurnOn = () =>
    run('on', async () => {
      const outcome = await turnOn(subscribed ? undefined : thisDevice);
      if (outcome.ok) {
        toast.notify(texts.turnedOn);
      } else if (outcome.denied) {
        setBlock(currentBlock() ?? 'denied');
      } else if (outcome.pushService) {
        setMessage(outcome.pushService === 'refused' ? texts.pushServiceRefused : texts.pushServiceFailed);
      } else {
        setMessage(messageFor(outcome));
      }
      readSubscription();
      devices.reload();
    });

  const onTurnOff = () =>
    run('off', async () => {
      const outcome = await turnOff(thisDevice);
      if (outcome.ok) toast.notify(texts.turnedOff);
      else setMessage(messageFor(outcome));
      readSubscription();
      devices.reload();
    });

  const onRemove = (device: PushDevice) =>
    run(device.id, async () => {
      const outcome = device.thisDevice ? await turnOff(device) : await removeDevice(device.id);
      if (outcome.ok || outcome.status === 404) toast.notify(texts.removed);
      else setMessage(messageFor(outcome));
      readSubscription();
      devices.reload();
    });

  const onSave = () =>
    run('save', async () => {
      const wanted = roleKinds.filter((kind) => shownKinds.includes(kind));
      const outcome = await saveKinds(wanted);
      if (!outcome.ok) {
        setMessage(messageFor(outcome));
        return;
      }
      setChosen(null);
      kinds.reload();
      toast.notify(texts.saved);
    });

  const toggle = (kind: NotificationKind, checked: boolean) => {
    const next = checked ? [...shownKinds.filter((item) => item !== kind), kind] : shownKinds.filter((item) => item !== kind);
    setChosen(next);
  };

  return (
    <Page title={texts.title}>
      <p className="push-intro">{texts.intro}</p>
      {online ? null : (
        <p className="push-offline" role="status">
          {texts.offline}
        </p>
      )}
      <FormMessage message={message} />

      <section className="push-section" aria-labelledby="push-this-device">
        <h2 id="push-this-device">{texts.deviceHeading}</h2>
        {block && !on ? (
          <BlockNotice block={block} />
        ) : (
          <>
            <p className="push-state">{known ? (on ? texts.on : texts.off) : null}</p>
            {on ? (
              <Button variant="secondary" busy={busy === 'off'} onClick={() => void onTurnOff()} disabled={!known}>
                {texts.turnOff}
              </Button>
            ) : (
              <Button busy={busy === 'on'} onClick={() => void onTurnOn()} disabled={!known}>
                {texts.turnOn}
              </Button>
            )}
          </>
        )}
      </section>

      <section className="push-section" aria-labelledby="push-kinds">
        <h2 id="push-kinds">{texts.kindsHeading}</h2>
        <fieldset
          className="push-kinds"
          aria-describedby={`${kindsLegend}-hint`}
          disabled={savedKinds === null && chosen === null}
        >
          <legend className="visually-hidden">{texts.kindsHeading}</legend>
          <p id={`${kindsLegend}-hint`} className="push-hint">
            {texts.kindsHint}
          </p>
          {roleKinds.map((kind) => (
            <CheckboxField
              key={kind}
              id={`push-kind-${kind}`}
              label={notificationKindLabels[kind]}
              checked={shownKinds.includes(kind)}
              onCheckedChange={(checked) => toggle(kind, checked)}
            />
          ))}
        </fieldset>
        <Button variant="primary" busy={busy === 'save'} disabled={!dirty} onClick={() => void onSave()}>
          {texts.save}
        </Button>
      </section>

      <section className="push-section" aria-labelledby="push-devices">
        <h2 id="push-devices">{texts.devicesHeading}</h2>
        {devices.data ? <DeviceList devices={devices.data} busy={busy} onRemove={onRemove} /> : null}
        {!devices.data && devices.error !== undefined ? <p>{listFailure(readFailure(devices.error))}</p> : null}
      </section>
    </Page>
  );
}
