import { useEffect, useRef, useState } from 'react';
import type { Journey, JourneyStep } from '../../../../shared/journey/steps';

interface Tracked {
  /** The outbox's steps as last seen. */
  pending: Partial<Journey> | undefined;
  /** Steps that left it since `readFrom` was read. */
  journey: Partial<Journey>;
  readFrom: object | null;
}

/**
 * Steps that left the outbox since the application was last read (sent, or refused: the read that
 * follows tells). They still count as the outbox had them until that read, which this asks for at
 * once: between the two, the page's copy of the server's journey is older than the save, and a step
 * saved offline before a reload would otherwise lock the next one again (the page went back to the
 * saved step and showed the server's old copy of it). Worked out while rendering, not in an effect:
 * the render that first misses the step must not lock anything.
 */
export function useJustSentSteps(
  pending: Partial<Journey> | undefined,
  /** Changes with each read of the application (its journey as read). */
  read: object | null,
  readAgain: (() => void) | undefined,
): Partial<Journey> {
  const [tracked, setTracked] = useState<Tracked>({ pending, journey: {}, readFrom: read });
  let current = tracked;
  if (tracked.pending !== pending) {
    const previous = tracked.pending;
    const gone = previous && pending ? (Object.keys(previous) as JourneyStep[]).filter((step) => !(step in pending)) : [];
    const kept = tracked.readFrom === read ? tracked.journey : {};
    current = {
      pending,
      journey: gone.length > 0 ? { ...kept, ...Object.fromEntries(gone.map((step) => [step, previous![step]])) } : kept,
      readFrom: read,
    };
    setTracked(current);
  }

  const readAgainRef = useRef(readAgain);
  readAgainRef.current = readAgain;
  const justSent = current.readFrom === read ? current.journey : {};
  const waiting = Object.keys(justSent).length > 0;
  useEffect(() => {
    if (waiting) readAgainRef.current?.();
  }, [waiting, current.journey]);

  // A read of the application since: it says what the server holds now.
  return justSent;
}
