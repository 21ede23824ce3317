import { stopChildren } from './processes';

// After every test file: the child processes its tests left running (see processes.ts).
afterAll(() => stopChildren());
