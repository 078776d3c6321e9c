import type { Readable } from 'node:stream';

/** What a download link grants, ready to send: the route sets the headers from it. */
export interface Download {
  body: Readable | Buffer;
  contentType: 'application/pdf' | 'application/zip';
  /** Unknown for what is made while it is sent (the database extract): no Content-Length then. */
  size?: number;
  fileName: string;
  /**
   * Uploaded content is offered as a download (`attachment`), never rendered on our origin; the
   * PDF the server makes from the application opens in the browser's viewer (spec: "in a new window").
   */
  disposition: 'attachment' | 'inline';
}
