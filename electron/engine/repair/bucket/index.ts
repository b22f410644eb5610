/** The bucket room of repair/: its only entry from outside the room. */
export { applyMultipart, type MultipartDecision, type MultipartInput, planMultipart } from './multipart';
export { loadReplayState, REPLAY_JOURNAL } from './replay-journal';
export { planReplay, type ReplayPlanInput, type ReplayTarget } from './replay-plan';
export { applyReplay, type ReplayApplyOptions } from './replay-run';
export { probeConditionalWrites, putCreateOnly } from './s3ops';
export { applyRecoverVersions, planRecoverVersions, type RecoverInput } from './versions';
