// Every feature's offline writes, registered when this module loads. The layout loads it on demand
// (with the sync engine), not with the first screen: docs/decisions.md (630).
import '../features/applications/offline/application-mutations';
import '../features/loans/offline/loan-mutations';
import '../features/drawdowns/offline/drawdown-mutations';
// The administration's forms kept on the device: where each is seen among what waits.
import '../admin-kit/kept-forms';
