import type { Journey, JourneyStep } from '../../../../shared/journey/steps';
import { summarySections, type DisplayLookups } from '../../../../shared/journey/display';
import type { Audience } from './steps/step-definition';
import './journey-sections.css';

/**
 * The journey as labelled text, one section per step (src/shared/journey/display.ts, which the PDF
 * reads too): the summary step and the application's details screens show the same answers alike.
 */
export function JourneySections({
  journey,
  steps,
  audience,
  idPrefix = 'summary',
  lookups,
}: {
  journey: Journey;
  steps: readonly JourneyStep[];
  audience: Audience;
  idPrefix?: string;
  /** Names for the ids the journey holds (the chosen solicitor, the live files): decision 333. */
  lookups?: DisplayLookups;
}) {
  return (
    <>
      {summarySections(journey, steps, audience, lookups).map(({ step, title, rows }) => (
        <section key={step} className="summary-section" aria-labelledby={`${idPrefix}-${step}`}>
          <h2 className="summary-section__title" id={`${idPrefix}-${step}`}>
            {title}
          </h2>
          {rows.length === 0 ? (
            <p className="summary-section__empty">Not answered yet</p>
          ) : (
            <dl className="summary-list">
              {rows.map((row) => (
                <div key={row.field} className="summary-list__row">
                  <dt>{row.label}</dt>
                  <dd>{row.value}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
      ))}
    </>
  );
}
