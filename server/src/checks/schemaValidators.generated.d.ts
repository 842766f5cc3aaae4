// The validators scripts/precompileSchemas.ts generates at build time (one per schema of schemaSet.ts).
import type { ValidateFunction } from 'ajv/dist/2020';

export declare const frontmatter: ValidateFunction;
export declare const aip03: ValidateFunction;
export declare const aip05: ValidateFunction;
export declare const composition: ValidateFunction;
/** Each validator's schema `$id`, by export name. */
export declare const ids: Record<'frontmatter' | 'aip03' | 'aip05' | 'composition', string>;
