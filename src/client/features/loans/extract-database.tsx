import { useRef, useState } from 'react';
import { api } from '../../api/client';
import { callApi } from '../../api/failure';
import { Button } from '../../ui/button';
import { useToast } from '../../ui/toast-store';

/** Opens a short-lived link as a download (docs/decisions.md 002): the browser saves the file. */
function download(url: string, fileName: string | undefined): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName ?? '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Staff's 'extract database' (GET /common/dump): the server answers a short-lived link to the ZIP,
 * opened as a download. Any failure is the spec's 'Unhandled error. Please contact an administrator'.
 */
export function ExtractDatabaseButton() {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const run = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      const outcome = await callApi(() => api.GET('/common/dump'));
      if (outcome.ok && outcome.data?.url) download(outcome.data.url, outcome.data.fileName);
      else toast.unhandled();
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" busy={busy} onClick={() => void run()}>
      extract database
    </Button>
  );
}
