import * as path from 'node:path';
import { rangeOf } from '../../analysis/documentView';
import type { Format, StructureFix } from '../../analysis/format';
import { missingScript } from '../../checks/links/fileLinks';
import type { Rule as LintRule } from '../../checks/engine/rule';
import { plainSkill } from '../../forms/plainSkill';
import { bodyOf } from '../../forms/resultPackage';
import { unknownPlaceholder, unknownStatePath } from './read/bindings';
import { agentSkillBodyFromSkillplus, keptByAgentSkillFromSkillplus } from './compile/agentSkillFromSkillplus';
import { flowIr } from './compile/flowIr';
import { packageCompletion } from './features/packageCompletion';
import { packageHover } from './features/packageHover';
import {
  packageDefinition,
  packagePrepareRename,
  packageReferences,
  packageRename,
} from './features/packageNavigation';
import { packageOutline } from './features/packageOutline';
import { invalidLoop } from './read/flowRules';
import { loadSkillplus } from './read/loadSkillplus';
import { modelContext } from './runtime/modelContext';
import { addMaxRoundsFix, addStateFieldFix, createToolScriptFix } from './fixes/packageFixes';
import { unknownPredicatePath } from './read/predicates';
import type { SkillplusAnalysis } from './read/analysis';

/** A skill+ package: `metadata.skillplus-version`. Its flow, State, tips and rules are files beside SKILL.md. */
export const skillplusFormat: Format<SkillplusAnalysis> = {
  id: 'skillplus',
  title: 'skill+ package',
  marked: (frontmatter) => {
    const metadata = frontmatter.metadata;
    return typeof metadata === 'object' && metadata !== null && 'skillplus-version' in metadata;
  },
  load: (context) => {
    const { skillplus, ...result } = loadSkillplus(context);
    return { ...result, part: { skillplus } };
  },
  python: (analysis, file) => analysis.skillplus.python.get(file),
  features: {
    packageFiles: {
      definition: packageDefinition,
      references: packageReferences,
      hover: packageHover,
      completion: packageCompletion,
      symbols: packageOutline,
      prepareRename: packagePrepareRename,
      rename: packageRename,
      lenses: (view) => {
        // The flow file opens the package's graph from its first stage.
        const flow = view.analysis.skillplus.flow;
        const first = flow?.file === view.file ? flow.stages[0] : undefined;
        return first
          ? [{ range: rangeOf(view, first.idSpan), title: 'Open graph preview', action: 'openPreview' }]
          : [];
      },
    },
  },
  fixes: new Map<LintRule, StructureFix<SkillplusAnalysis>>([
    [unknownStatePath, addStateFieldFix],
    [unknownPlaceholder, addStateFieldFix],
    [unknownPredicatePath, addStateFieldFix],
    [invalidLoop, addMaxRoundsFix],
    [missingScript, createToolScriptFix],
  ]),
  compile: [
    {
      // What skill+ decides at run time (which tip fires, which gate closes) becomes text the model applies itself.
      to: 'agent-skill',
      compile: (analysis, request) =>
        plainSkill(analysis, request, agentSkillBodyFromSkillplus(analysis, analysis.skillplus), {
          own: { metadata: (key) => key.startsWith('skillplus-') },
          keep: keptByAgentSkillFromSkillplus(analysis.skillplus, analysis.dir),
        }),
    },
  ],
  ir: flowIr,
  context: (analysis, request) =>
    modelContext(analysis.skillplus, bodyOf(analysis), analysis.name ?? path.basename(analysis.dir), request),
};
