import './form-message.css';
/**
 * A message about the whole form (too many attempts, no connection, invalid link). The region is
 * always there, so a message that appears in it is announced.
 */
export function FormMessage({ id, message }: { id?: string; message: string | null }) {
  return (
    <div id={id} className="form-message" role="alert">
      {message ? <p className="form-message__text">{message}</p> : null}
    </div>
  );
}
