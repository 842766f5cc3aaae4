// AIP procedures, 0.3 (`aip-0.3`: `metadata.aip`, a `source/` package, `depends_on`) and 0.5 (`aip-0.5`: a runtime
// block, typed steps linked by `inputs_to` and router branches): their loaders, and the procedure block features read.
export { loadAip03, aipLikeSkill } from './read/loadAip03';
export { loadAip05 } from './read/loadAip05';
export { type ProcedureBlock, invalidBodyYaml } from './read/procedureBlock';
export {
  CURRENT_AIP_VERSION,
  CURRENT_RUNTIME_BLOCK,
  runtimeBlockText,
  runtimeBlockModified,
} from './read/runtimeBlock';
export {
  AIP_03_SCHEMA_ID,
  AIP_03_SPEC,
  aipSpecMismatch,
  invalidAipSchemaId,
  invalidAipSpec,
  missingAipSchemaId,
  missingAipSpec,
} from './read/aipMetadata';
export { unreachableStep } from './read/stepGraph';
export { duplicateSchemaId, missingSchemaFile, schemaIdMismatch } from './read/packageRules';

export { aip03Format, aip05Format, PROSE_TO_AIP } from './format';
export type { AipAnalysis } from './read/analysis';
