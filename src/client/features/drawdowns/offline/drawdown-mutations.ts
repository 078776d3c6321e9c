/**
 * The drawdowns' offline writes, registered with the engine when this module loads (the app shell
 * imports it before the engine starts; a write of a kind not registered yet simply waits).
 */
import './change-drawdown-state-mutation';
import './places';
