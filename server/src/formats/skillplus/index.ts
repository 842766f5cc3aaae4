// skill+ packages (`skillplus`): a flow (`flow.py` or `flow.yaml`), a typed State, tips and rules injected by `when`
// predicates. The loader, and what features and compile read of a package.
export { itemsInScope, stateTypeUnreadable, unknownPlaceholder, unknownStatePath } from './read/bindings';
export { evaluatePredicate, type Position, stateDefaults, type StateValue } from './read/evaluate';
export {
  type Flow,
  FLOW_ARGUMENTS,
  FLOW_NODE_KINDS,
  type FlowNode,
  type FlowNodeKind,
  type FlowText,
  nodesById,
  walkFlow,
} from './read/flow';
export { loadSkillplus } from './read/loadSkillplus';
export { type Occurrence, occurrenceAt, packageOccurrences, ruleIdFromFileName } from './read/packageSymbols';
export { predicateInWords } from './read/predicateWords';
export { BUILTINS, EVENTS, SOFT_EVENTS, predicateValue, unknownFlowId, unknownPredicatePath } from './read/predicates';
export { type SkillPlusPackage, invalidFlowFile } from './read/readPackage';
export { resolveStatePath, type StateField, type StateModel, type StateType, typeName } from './read/readState';
export { ON_FAIL, type Rule, RULE_KEYS, SOFT_ON_FAIL, type Tip, TIP_KEYS } from './read/readTipsRules';
export { invalidOnFail, specUnknownId, unknownRule } from './read/tipsRulesRules';
export { invalidFlowYaml } from './read/readFlowYaml';
export { invalidLoop } from './read/flowRules';

export { skillplusFormat } from './format';
export type { SkillplusAnalysis } from './read/analysis';
