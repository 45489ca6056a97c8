import { configure } from '@testing-library/dom';

// `findBy…` waits 1 s by default: too little for a lazily imported component while CI runs the
// API tests beside it on two cores. A real failure still fails, only later.
configure({ asyncUtilTimeout: 5_000 });
