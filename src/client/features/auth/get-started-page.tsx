import { Link } from 'react-router-dom';
import { paths } from '../../routing/paths';
import { Page } from '../../ui/page';

/** /get-started: after a password was set (the session token is stored first). */
export default function GetStartedPage() {
  return (
    <Page title="Account created">
      <p>You&apos;re all signed up! Start exploring the platform</p>
      <p className="page__cta">
        <Link className="button button--primary" to={paths.home.url()}>
          Get started
        </Link>
      </p>
    </Page>
  );
}
