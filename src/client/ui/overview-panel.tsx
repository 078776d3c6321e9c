import { useId, type ReactNode } from 'react';
import './overview-panel.css';

export interface OverviewStat {
  label: string;
  /** undefined while loading: '–' keeps the place. */
  value: ReactNode;
}

/**
 * A titled panel of figures at the top of a list ('All loans overview'): each figure under its
 * label, a dash while loading, so nothing moves when the figures arrive.
 */
export function OverviewPanel({
  title,
  stats,
  children,
}: {
  title: string;
  stats: readonly OverviewStat[];
  children?: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className="overview-panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="overview-panel__title">
        {title}
      </h2>
      <dl className="overview-panel__stats">
        {stats.map((stat) => (
          <div key={stat.label} className="overview-panel__stat">
            <dt className="overview-panel__label">{stat.label}</dt>
            <dd className="overview-panel__value">{stat.value ?? '–'}</dd>
          </div>
        ))}
      </dl>
      {children ? <div className="overview-panel__actions">{children}</div> : null}
    </section>
  );
}
