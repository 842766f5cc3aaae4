// skill+ packages (`skillplus`): a flow (`flow.py` or `flow.yaml`), a typed State, tips and rules injected by `when`
// predicates. The loader, and what features and compile read of a package.
export { itemsInScope, stateTypeUnreadable, unknownPlaceholder, unknownStatePath } from './bindings';
export { evaluatePredicate, type Position, stateDefaults, type StateValue } from './evaluate';
export {
  type Flow,
  FLOW_ARGUMENTS,
  FLOW_NODE_KINDS,
  type FlowNode,
  type FlowNodeKind,
  type FlowText,
  nodesById,
  walkFlow,
} from './flow';
export { loadSkillplus } from './loadSkillplus';
export { type Occurrence, occurrenceAt, packageOccurrences, ruleIdFromFileName } from './packageSymbols';
export { predicateInWords } from './predicateWords';
export { BUILTINS, EVENTS, SOFT_EVENTS, predicateValue, unknownFlowId, unknownPredicatePath } from './predicates';
export { type SkillPlusPackage, invalidFlowFile } from './readPackage';
export { resolveStatePath, type StateField, type StateModel, type StateType, typeName } from './readState';
export { ON_FAIL, type Rule, RULE_KEYS, SOFT_ON_FAIL, type Tip, TIP_KEYS } from './readTipsRules';
export { invalidOnFail, specUnknownId, unknownRule } from './tipsRulesRules';
export { invalidFlowYaml } from './readFlowYaml';
export { invalidLoop } from './flowRules';
