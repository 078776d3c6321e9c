import { useId } from 'react';
import './info-panel.css';

interface InfoPanelProps {
  header: string;
  title?: string;
  section?: string;
  description?: string;
  steps?: readonly string[];
}

/** The spec's information panel: header, title, section, description and numbered steps. */
export function InfoPanel({ header, title, section, description, steps }: InfoPanelProps) {
  const headingId = useId();
  return (
    <section className="info-panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="info-panel__header">
        {header}
      </h2>
      {title ? <p className="info-panel__title">{title}</p> : null}
      {section ? <p className="info-panel__section">{section}</p> : null}
      {description ? <p className="info-panel__description">{description}</p> : null}
      {steps && steps.length > 0 ? (
        <ol className="info-panel__steps">
          {steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
