/** The outcome room of repair/: its only entry from outside the room. */
export { assertNotRefused, forcedWarning, RefusedError } from './errors';
export { finishPlan, startPlan, startResult } from './result';
