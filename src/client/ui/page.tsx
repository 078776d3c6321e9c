import { useEffect, type ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { brandAtom } from '../session/brand';

/** Sets the document title: `<title> | <productName>`. */
export function usePageTitle(title: string): void {
  const { productName } = useAtomValue(brandAtom);
  useEffect(() => {
    document.title = `${title} | ${productName}`;
  }, [title, productName]);
}

interface PageProps {
  /** The page's one h1. */
  title: string;
  /** The document title when it differs from the heading. */
  documentTitle?: string;
  actions?: ReactNode;
  children?: ReactNode;
}

/** A screen inside the layout: its heading (focused after navigation) and its content. */
export function Page({ title, documentTitle, actions, children }: PageProps) {
  usePageTitle(documentTitle ?? title);
  return (
    <div className="page">
      <div className="page__head">
        <h1 className="page__title" tabIndex={-1}>
          {title}
        </h1>
        {actions ? <div className="page__actions">{actions}</div> : null}
      </div>
      {children}
    </div>
  );
}
