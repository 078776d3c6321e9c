import { useMemo } from 'react';
import type { components } from '../../../../shared/api/schema';
import type { DisplayLookups } from '../../../../shared/journey/display';
import type { Journey } from '../../../../shared/journey/steps';
import { submitBlockers } from '../../../../shared/journey/submit';
import { useUploads } from '../offline/uploads';

type FileRecord = components['schemas']['FileRecord'];

/**
 * The Form E files that are really there, as this device knows them (decision 330): the files the
 * server listed with the application, and the files of this device (uploaded, or waiting to upload),
 * less the ones deleted. Their names are the summary's lookups.
 */
export function useLiveFormEFiles(applicationId: number | string, serverFiles: readonly FileRecord[] | undefined) {
  const entries = useUploads(applicationId, 'formE');
  // The device's list is read afresh on every change: the names change only when a file does.
  const signature = JSON.stringify(entries.map((e) => [e.localId, e.fileId, e.fileName, e.status === 'failed']));
  return useMemo(() => {
    const names = new Map<number | string, string>();
    for (const file of serverFiles ?? []) if (file.type === 'formE') names.set(file.id, file.fileName || file.name);
    for (const entry of entries) {
      if (entry.status === 'failed') continue;
      names.set(entry.localId, entry.fileName);
      if (entry.fileId !== undefined) names.set(entry.fileId, entry.fileName);
    }
    return names;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the signature stands for the entries
  }, [signature, serverFiles]);
}

/**
 * The journey with the documents step naming only live files: a file deleted since the step was
 * saved no longer counts, so the step bar, the rule that sends the user back to the documents step,
 * the summary and the submit's check all see what the server will see.
 */
export function withLiveDocuments(journey: Journey, live: ReadonlyMap<number | string, string>): Journey {
  const asset = journey.asset as (Journey['asset'] & { documents?: unknown[] }) | undefined;
  if (!asset || !Array.isArray(asset.documents)) return journey;
  const documents = asset.documents.filter((ref) => live.has(ref as number | string));
  if (documents.length === asset.documents.length) return journey;
  return { ...journey, asset: { ...asset, documents: documents as number[] } };
}

/**
 * The steps that block a submit now (the server's rule, on the live journey). A file still waiting
 * to upload counts as a document: the submit waits in the outbox behind its upload.
 */
export function blockingSteps(journey: Journey, audience: 'lawyer' | 'customer', today = new Date()) {
  const asset = journey.asset as (Journey['asset'] & { documents?: unknown[] }) | undefined;
  const counted =
    asset && Array.isArray(asset.documents)
      ? {
          ...journey,
          asset: { ...asset, documents: asset.documents.map((ref, index) => (typeof ref === 'number' ? ref : index + 1)) },
        }
      : journey;
  return submitBlockers(counted, audience, { today });
}

export function lookupsOf(
  fileNames: ReadonlyMap<number | string, string>,
  solicitors: readonly { id: number; name: string }[] | undefined,
): DisplayLookups {
  return { fileNames, solicitorNames: new Map((solicitors ?? []).map((s) => [s.id, s.name])) };
}
