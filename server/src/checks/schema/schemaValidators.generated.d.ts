// The validators scripts/precompileSchemas.ts generates at build time (one per schema of schemaSet.ts).
import type { ValidateFunction } from 'ajv/dist/2020';

export declare const frontmatter: ValidateFunction;
export declare const aip03: ValidateFunction;
export declare const aip05: ValidateFunction;
export declare const composition: ValidateFunction;
export declare const config: ValidateFunction;
export declare const hooks: ValidateFunction;
export declare const openai: ValidateFunction;
export declare const evals: ValidateFunction;
export declare const queries: ValidateFunction;
/** One step of each AIP procedure and of a MetaSkill's composition (the schema's `#/$defs/step`). */
export declare const aip03Step: ValidateFunction;
export declare const aip05Step: ValidateFunction;
export declare const compositionStep: ValidateFunction;
/** Each validator's schema `$id` (with the JSON pointer for a step), by export name. */
export declare const ids: Record<
  | 'frontmatter'
  | 'aip03'
  | 'aip05'
  | 'composition'
  | 'config'
  | 'hooks'
  | 'openai'
  | 'evals'
  | 'queries'
  | 'aip03Step'
  | 'aip05Step'
  | 'compositionStep',
  string
>;
