import { Link, useParams } from 'react-router-dom';
import { paths } from '../../routing/paths';
import { PublicPage } from '../../ui/public-page';

interface LandingProps {
  heading: string;
  text: string;
  button?: string;
}

/** Where an invitation email lands: a heading, a few words, and 'Join platform' to /sign-up/:uuid. */
function Landing({ heading, text, button = 'Join platform' }: LandingProps) {
  const { uuid = '' } = useParams();
  return (
    <PublicPage title={heading}>
      <p>{text}</p>
      <p className="form__actions">
        <Link className="button button--primary" to={paths.signUp.url({ uuid })}>
          {button}
        </Link>
      </p>
    </PublicPage>
  );
}

/** /sign-up-admin/:uuid */
export function AdminLandingPage() {
  return (
    <Landing
      heading="Your account is ready"
      text="An administrator has created an account on your behalf. Choose a password to join the platform."
    />
  );
}

/** /sign-up-lawyer/:uuid */
export function LawyerLandingPage() {
  return (
    <Landing
      heading="Your account is ready"
      text="Your law firm has created an account for you. Once you have joined, you can start creating applications on your clients’ behalf."
    />
  );
}

/** /sign-up-customer/:uuid */
export function CustomerLandingPage() {
  return (
    <Landing
      heading="Your application has been started"
      text="Your lawyer has started an application on your behalf. Please set a password to join the platform."
    />
  );
}
