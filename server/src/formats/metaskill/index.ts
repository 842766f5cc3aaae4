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
} from './read/bindingRules';
export { loadMetaskill } from './read/loadMetaskill';
export { templateSpan } from './read/metaModel';
export { ALLOWED_FILTERS, type MetaPlan, type MetaStep, RUNTIME_INPUTS, STEP_KINDS } from './read/metaPlan';
export { invalidMetaStep, invalidSubstitute, unknownStepKey } from './read/planRules';
export { unknownSkill } from './read/catalogRules';

export { metaskillFormat, metaskillSopFormat } from './format';
export type { MetaAnalysis } from './read/analysis';
