import { useEffect, useRef } from 'react';

/**
 * An editor's fields follow its record as the read layer reads it again (someone else changed it,
 * decision 402): a field the user has not changed takes the new value, one they changed keeps
 * their typing (the form's `setInitialValues`). The values as first shown are the form's own.
 */
export function useFieldsFollow<K extends string>(
  setInitialValues: (loaded: Partial<Record<K, string>>) => void,
  values: Record<K, string>,
): void {
  const text = JSON.stringify(values);
  const shown = useRef(text);
  useEffect(() => {
    if (text === shown.current) return;
    shown.current = text;
    setInitialValues(JSON.parse(text) as Record<K, string>);
  }, [text, setInitialValues]);
}
