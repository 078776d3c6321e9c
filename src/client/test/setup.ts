import { configure } from '@testing-library/dom';

// Screens are lazy chunks: on a busy CI machine the first import of one can take over a second,
// longer than Testing Library's default wait. Waiting longer costs nothing when they are quick.
configure({ asyncUtilTimeout: 5000 });
