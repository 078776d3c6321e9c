import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { brandAtom } from '../session/brand';
import { usePageTitle } from './page';

interface PublicPageProps {
  /** The page's one h1. */
  title: string;
  documentTitle?: string;
  children?: ReactNode;
}

/** Sign-in, sign-up and reset screens: no navigation, one card, the product name above it. */
export function PublicPage({ title, documentTitle, children }: PublicPageProps) {
  const { productName } = useAtomValue(brandAtom);
  usePageTitle(documentTitle ?? title);
  return (
    <div className="public">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="public__header">
        <span className="brand">{productName}</span>
      </header>
      <main id="main" className="public__main" tabIndex={-1}>
        <div className="card public__card">
          {/* Focused after a navigation (routing/scroll.ts), like the heading of a private page. */}
          <h1 className="public__title" tabIndex={-1}>
            {title}
          </h1>
          {children}
        </div>
      </main>
    </div>
  );
}
