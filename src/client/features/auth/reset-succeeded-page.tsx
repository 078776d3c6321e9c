import { Link } from 'react-router-dom';
import { paths } from '../../routing/paths';
import { PublicPage } from '../../ui/public-page';

/** /reset-succeeded: the reset link is on its way. */
export default function ResetSucceededPage() {
  return (
    <PublicPage title="Your password has been reset">
      <p>Please check your email and follow the instructions</p>
      <p className="form__actions">
        <Link className="button button--primary" to={paths.signIn.url()}>
          back to sign in
        </Link>
      </p>
    </PublicPage>
  );
}
