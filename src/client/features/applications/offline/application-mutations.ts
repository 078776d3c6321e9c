/**
 * The application's offline writes, registered with the engine when this module loads (the app
 * shell imports it before the engine starts; a write of a kind not registered yet simply waits).
 */
import './create-application';
import './save-step-mutation';
import './submit-application-mutation';
import './upload-file-mutation';
import './delete-file-mutation';
import './review-mutations';
import './places';
