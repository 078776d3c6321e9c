/**
 * The loans' offline writes, registered with the engine when this module loads (the app shell
 * imports it before the engine starts; a write of a kind not registered yet simply waits).
 */
import './request-drawdown-mutation';
import './update-drawdown-mutation';
import './change-loan-state-mutation';
import './places';
