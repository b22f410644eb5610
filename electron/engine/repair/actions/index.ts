/** The actions room of repair/: one module per write action and their registry. Its only entry from outside the room. */
export { ACTIONS, actionDef, actionOfPlan } from './registry';
export type { ActionApplyOptions, ActionDef, RequestFacts, WriteTarget } from './types';
export { ActionInputError, confirmPhrase, pickTarget, rootOf, type ActionOptions, type DiagnosisContext } from './context';
