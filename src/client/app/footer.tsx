import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { brandAtom, safeExternalUrl } from '../session/brand';
import { focusPageHeading, scrollToTop } from '../routing/scroll';
import { providerRoleStatement } from '../../shared/rules/provider-identity';

function ExternalLink({ href, children }: { href: string; children: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="footer__link">
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

/**
 * One place in the link row. Until the brand settings give its address (a first visit, before
 * `GET /config` answers) it holds its words invisibly, so the row already has its final size and
 * nothing moves when the links arrive.
 */
function FooterItem({ label, link }: { label: string; link: ReactNode | null }) {
  return (
    <li>
      {link ?? (
        <span className="footer__link footer__link--pending" aria-hidden="true">
          {label}
        </span>
      )}
    </li>
  );
}

/**
 * The provider's role in the configured words (docs/decisions.md: 495). Until the server has named
 * the provider (a first visit, before `GET /config` answers) nothing is stated, and the line keeps
 * its place, so no role is ever claimed for a name the portal was not given.
 */
function LegalLine() {
  const brand = useAtomValue(brandAtom);
  if (!brand.companyName)
    return (
      <p className="footer__legal footer__legal--pending" aria-hidden="true">
        {'\u00a0'}
      </p>
    );
  return <p className="footer__legal">{providerRoleStatement(brand)}</p>;
}

/** Footer: 'back to top', the legal links and contact, and the provider's legal role. */
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
          <FooterItem
            label="Terms and conditions"
            link={terms ? <ExternalLink href={terms}>Terms and conditions</ExternalLink> : null}
          />
          <FooterItem
            label="Privacy statement"
            link={privacy ? <ExternalLink href={privacy}>Privacy statement</ExternalLink> : null}
          />
          <FooterItem
            label="Email us"
            link={
              brand.email ? (
                <a className="footer__link" href={`mailto:${brand.email}`}>
                  Email us
                </a>
              ) : null
            }
          />
          <FooterItem
            label="Call us"
            link={
              phone ? (
                <a className="footer__link" href={`tel:${phone}`}>
                  Call us
                </a>
              ) : null
            }
          />
        </ul>
        <LegalLine />
      </div>
    </footer>
  );
}
