import compositionSchema from '../../../../schemas/metaskill.composition.schema.json';
import { contains } from '../../analysis/documentView';
import type { Compiler, Format, FormatFeatures, StructureFix } from '../../analysis/format';
import type { Rule } from '../../checks/engine/rule';
import { schemaAt } from '../../document/schemaLookup';
import { plainSkill } from '../../forms/plainSkill';
import { skillFileText } from '../../forms/resultPackage';
import { bindingOutOfScope } from './read/bindingRules';
import { agentSkillBodyFromMeta } from './compile/agentSkillFromMeta';
import { compositionToSop, sopToComposition } from './compile/metaForms';
import { addDependencyFix } from './fixes/compositionEdits';
import { metaCompletion } from './features/metaCompletion';
import { bindingHover, filterHover, metaStepHover, runtimeInputHover, skillRefHover } from './features/metaHover';
import { loadMetaskill } from './read/loadMetaskill';
import { templateSpan } from './read/metaModel';
import * as path from 'node:path';
import type { MetaAnalysis } from './read/analysis';

/** A top-level `kind: meta` or `kind: meta_sop` line, read before the frontmatter is. */
const META_KIND_LINE = /^kind[ \t]*:[ \t]*["']?meta(?:_sop)?["']?[ \t]*(?:#.*)?\r?$/m;

/** Only OpenSquilla reads a MetaSkill: its YAML reading (PyYAML) and its rules decide, whatever the profile. */
const OPENSQUILLA: NonNullable<Format['reader']> = {
  dialect: 'pyyaml',
  profile: { id: 'opensquilla', source: 'metaskill' },
  likely: (frontmatterText) => META_KIND_LINE.test(frontmatterText),
};

const load: Format<MetaAnalysis>['load'] = (context) => {
  const { metaPlan, ...result } = loadMetaskill(context);
  return { ...result, part: metaPlan ? { metaPlan } : {} };
};

/** The frontmatter keys only OpenSquilla reads of a MetaSkill: an ordinary skill would fail the Agent Skills rules. */
const META_KEYS = [
  'kind',
  'composition',
  'meta_priority',
  'always',
  'final_text_mode',
  'triggers',
  'description_zh',
  'provenance',
  'request_template',
  'output_contract',
  'eval_prompts',
  'preference_keys',
  'policy_tags',
];

/** A MetaSkill as a plain Agent Skill: its steps written out as prose, with the skill's files. */
const TO_AGENT_SKILL: Compiler<MetaAnalysis> = {
  to: 'agent-skill',
  compile: (analysis, request) =>
    plainSkill(analysis, request, analysis.metaPlan ? agentSkillBodyFromMeta(analysis, analysis.metaPlan) : '', {
      own: { keys: META_KEYS },
      keep: (file) => !file.startsWith('source/'),
    }),
};

/** One MetaSkill form to the other; what the other form cannot say is reported at its key, and nothing is compiled. */
function toOtherForm(to: 'metaskill' | 'metaskill-sop'): Compiler<MetaAnalysis> {
  return {
    to,
    compile(analysis, request) {
      const plan = analysis.metaPlan;
      if (!plan) return { files: [], findings: [] };
      const { frontmatter, body, findings } =
        to === 'metaskill-sop'
          ? compositionToSop(analysis, plan)
          : { ...sopToComposition(analysis, plan), findings: [] };
      if (findings.length > 0) return { files: [], findings };
      const name = path.basename(request.outDir);
      return { files: [{ path: 'SKILL.md', content: skillFileText({ ...frontmatter, name }, body) }], findings: [] };
    },
  };
}

const features: FormatFeatures<MetaAnalysis> = {
  // A template filter in one of the step's templates.
  locateInStep(view, node, offset) {
    const step = view.analysis.metaPlan?.steps.find(
      (candidate) => candidate.id === node.id && candidate.span === node.span,
    );
    for (const template of step?.templates ?? []) {
      for (const filter of template.read.filters) {
        const span = templateSpan(template, filter.start, filter.end);
        if (contains(span, offset)) return { kind: 'filter', node, name: filter.name, span };
      }
    }
    return undefined;
  },
  hover(view, target) {
    switch (target.kind) {
      case 'port':
        return target.port.name.startsWith('inputs.') ? runtimeInputHover(target.port) : undefined;
      case 'step':
        return metaStepHover(view, target.node);
      case 'controlRef': {
        if (target.ref.via === 'binding') return bindingHover(view, target.node, target.ref);
        const node = view.analysis.model.nodes.find((candidate) => candidate.id === target.ref.target);
        return node && metaStepHover(view, node);
      }
      case 'skillRef':
        return skillRefHover(view, target.ref);
      case 'filter':
        return filterHover(target.name);
      default:
        return undefined;
    }
  },
  keyDescription: (view, region, path) =>
    region === 'frontmatter' && path[0] === 'composition' && view.analysis.metaPlan
      ? schemaAt(compositionSchema, path.slice(1))?.description
      : undefined,
  // Arguments and runtime inputs are the runtime's names, not the skill's own to change.
  fixedPorts: true,
};

const common = {
  reader: OPENSQUILLA,
  load,
  readsCatalog: true,
  fixes: new Map<Rule, StructureFix<MetaAnalysis>>([[bindingOutOfScope, addDependencyFix]]),
} satisfies Partial<Format<MetaAnalysis>>;

/** A MetaSkill with its steps under `composition.steps`. */
export const metaskillFormat: Format<MetaAnalysis> = {
  id: 'metaskill',
  title: 'MetaSkill',
  marked: (frontmatter) => frontmatter.kind === 'meta',
  ...common,
  features: {
    ...features,
    completion: (request, where) =>
      where.region === 'frontmatter'
        ? metaCompletion({ ...request, model: where.model, catalog: request.catalog ?? new Map() }, where.cursor)
        : undefined,
  },
  compile: [TO_AGENT_SKILL, toOtherForm('metaskill-sop')],
  targets: [
    { id: 'metaskill', title: 'MetaSkill with composition.steps', formerNames: ['meta'], singleFile: 'SKILL.md' },
  ],
};

/** A MetaSkill written as `meta_sop` prose: phases in the body. */
export const metaskillSopFormat: Format<MetaAnalysis> = {
  id: 'metaskill-sop',
  title: 'meta_sop MetaSkill',
  marked: (frontmatter) => frontmatter.kind === 'meta_sop',
  ...common,
  features,
  compile: [TO_AGENT_SKILL, toOtherForm('metaskill')],
  targets: [
    { id: 'metaskill-sop', title: 'MetaSkill as meta_sop prose', formerNames: ['meta_sop'], singleFile: 'SKILL.md' },
  ],
};
