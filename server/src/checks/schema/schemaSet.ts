// The JSON Schemas Skillgraph validates with, and how ajv compiles them.
// Used at build time (scripts/precompileSchemas.ts writes the standalone
// validators) and by the test that compares those with ajv compiling at run
// time; the analyzer itself only loads the precompiled validators.
import Ajv2020 from 'ajv/dist/2020';
import frontmatter from '../../../../schemas/agent-skills.frontmatter.schema.json';
import aip03 from '../../../../schemas/aip-0.3.procedure.schema.json';
import aip05 from '../../../../schemas/aip-0.5.procedure.schema.json';
import composition from '../../../../schemas/metaskill.composition.schema.json';
import config from '../../../../schemas/skillgraph-config.schema.json';
import hooks from '../../../../schemas/claude-code.hooks.schema.json';
import openai from '../../../../schemas/codex-openai.schema.json';
import evals from '../../../../schemas/agent-skills.evals.schema.json';
import queries from '../../../../schemas/agent-skills.trigger-queries.schema.json';

/** Each schema under the name its validator is exported as. */
export const SCHEMAS = { frontmatter, aip03, aip05, composition, config, hooks, openai, evals, queries } as const;

/** Where a procedure schema defines one step. */
export const STEP_POINTER = '#/$defs/step';
/**
 * The schemas whose step (of a procedure, of a MetaSkill's composition) is also exported on its own, under these names.
 */
export const STEP_SCHEMAS = { aip03Step: aip03, aip05Step: aip05, compositionStep: composition } as const;

/**
 * An ajv that compiles as the analyzer needs: every error (not the first), with the data and schema node (for
 * messages), strict.
 */
export function createAjv(options: { source?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: true,
    allowUnionTypes: true,
    ...(options.source ? { code: { source: true } } : {}),
  });
  // `x-code` ties a schema node to the diagnostic code its errors carry.
  ajv.addKeyword({ keyword: 'x-code', schemaType: 'string' });
  return ajv;
}
