import { paths } from '../../../routing/paths';
import { registerDraftPlace, registerWritePlace, useRefusals } from '../../../offline/attention';
import { parseDraftKey } from '../../../offline/draft-keys';

/**
 * Where a drawdown's decisions are seen and fixed, for the list of what waits on the device
 * (offline/attention.ts, decision 342): on the drawdown's page; a waiting one is also listed on
 * the drawdowns list, whose status it will change (decision 404).
 */

const drawdownPlace = (drawdownId: unknown) =>
  drawdownId === undefined || drawdownId === ''
    ? null
    : {
        label: `Drawdown ${String(drawdownId)}: decision`,
        href: paths.drawdown.url({ id: String(drawdownId) }),
        pages: [paths.drawdowns.url()],
      };

registerDraftPlace('drawdown-state', ([drawdownId]) => drawdownPlace(drawdownId));
registerWritePlace<{ drawdownId: number }>('changeDrawdownState', ({ drawdownId }) => drawdownPlace(drawdownId));

/** Drawdowns with a decision refused on this device, by id: the list flags them. */
export function useDrawdownsNeedingAttention(): ReadonlySet<string> {
  const { draftKeys } = useRefusals();
  const flagged = new Set<string>();
  for (const key of draftKeys) {
    const { kind, parts } = parseDraftKey(key);
    if (kind === 'drawdown-state' && parts[0]) flagged.add(parts[0]);
  }
  return flagged;
}
