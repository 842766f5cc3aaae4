// MetaSkills, as OpenSquilla reads them: `kind: meta` (`metaskill`, steps under `composition.steps`) and `kind:
// meta_sop` (`metaskill-sop`, phases in the body). The loader, and the plan and vocabulary features read.
export {
  BindingScope,
  bindingOutOfScope,
  invalidFinalTextMode,
  rawUserMessage,
  unknownFilter,
  unknownInput,
  unknownOutput,
} from './bindingRules';
export { loadMetaskill } from './loadMetaskill';
export { templateSpan } from './metaModel';
export { ALLOWED_FILTERS, type MetaPlan, type MetaStep, RUNTIME_INPUTS, STEP_KINDS } from './metaPlan';
export { invalidMetaStep, invalidSubstitute, unknownStepKey } from './planRules';
export { unknownSkill } from './catalogRules';
