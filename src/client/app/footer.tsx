import { useAtomValue } from 'jotai';
import { brandAtom, safeExternalUrl } from './config';
import { focusPageHeading, scrollToTop } from './scroll';

function ExternalLink({ href, children }: { href: string; children: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="footer__link">
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

/** Footer: 'back to top', the legal links and contact, and the credit-broker statement. */
export function Footer() {
  const brand = useAtomValue(brandAtom);
  const terms = safeExternalUrl(brand.termsUrl);
  const privacy = safeExternalUrl(brand.privacyUrl);
  const phone = brand.phone.replace(/[^\d+]/g, '');
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <button
          type="button"
          className="footer__top"
          onClick={() => {
            scrollToTop();
            focusPageHeading();
          }}
        >
          back to top
        </button>
        <ul className="footer__links">
          {terms ? (
            <li>
              <ExternalLink href={terms}>Terms and conditions</ExternalLink>
            </li>
          ) : null}
          {privacy ? (
            <li>
              <ExternalLink href={privacy}>Privacy statement</ExternalLink>
            </li>
          ) : null}
          {brand.email ? (
            <li>
              <a className="footer__link" href={`mailto:${brand.email}`}>
                Email us
              </a>
            </li>
          ) : null}
          {phone ? (
            <li>
              <a className="footer__link" href={`tel:${phone}`}>
                Call us
              </a>
            </li>
          ) : null}
        </ul>
        <p className="footer__legal">
          {brand.companyName || brand.productName} is a credit broker and not a lender.
        </p>
      </div>
    </footer>
  );
}
