import './attention-flag.css';

/**
 * The flag a list puts on a record with a write the server refused (or a file that failed), so the
 * user finds it from the list as well as from the header's status (decision 342).
 */
export function AttentionFlag() {
  return <span className="attention-flag">Needs your attention</span>;
}
