import procedure03 from '../../../../../schemas/aip-0.3.procedure.schema.json';
import procedure05 from '../../../../../schemas/aip-0.5.procedure.schema.json';
import type { FormatId } from '../../../model/skillModel';
import { nodeAtPath, scalarString, valueOf } from '../../../parse/yaml/yamlNodes';
import type { DocumentView } from '../../../analysis/documentView';
import { schemaAt } from '../../../document/schemaLookup';
import type { AipAnalysis } from '../read/analysis';

/** The procedure schema of the skill's AIP version, which hover and completion read. */
export function procedureSchema(format: FormatId): object {
  return format === 'aip-0.5' ? procedure05 : procedure03;
}

/** The schema's description of the procedure key at `path`, for hover. */
export function procedureKeyDescription(
  view: DocumentView<AipAnalysis>,
  path: (string | number)[],
): string | undefined {
  if (!view.analysis.procedure) return undefined;
  return schemaAt(procedureSchema(view.analysis.format), path, (prefix) => stepKindAt(view, prefix))?.description;
}

/** The `kind` of the AIP 0.5 step at `steps[i]`, for kind-specific schema lookups. */
function stepKindAt(view: DocumentView<AipAnalysis>, prefix: (string | number)[]): string | undefined {
  if (prefix.length !== 2 || prefix[0] !== 'steps' || !view.analysis.procedure) return undefined;
  return scalarString(valueOf(nodeAtPath(view.analysis.procedure.yaml, prefix).node, 'kind'));
}
