import type { Application } from '../applications-api';
import '../wizard/journey-sections.css';

/** 'Lawyer information': who acts for the client, and their firm. */
export function LawyerInformation({ lawyer }: { lawyer: Application['lawyer'] }) {
  return (
    <section className="details-section" aria-labelledby="details-lawyer-title">
      <h2 id="details-lawyer-title" className="details-section__title">
        Lawyer information
      </h2>
      <dl className="summary-list">
        <div className="summary-list__row">
          <dt>Name</dt>
          <dd>
            {lawyer.firstName} {lawyer.surname}
          </dd>
        </div>
        <div className="summary-list__row">
          <dt>Email</dt>
          <dd>{lawyer.login}</dd>
        </div>
        <div className="summary-list__row">
          <dt>Law firm</dt>
          <dd>{lawyer.firm.firmName}</dd>
        </div>
      </dl>
    </section>
  );
}
