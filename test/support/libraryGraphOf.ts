import {
  joinedGraph,
  skillGraphPart,
  type LibraryGraph,
  type SkillDetails,
} from '../../server/src/library/libraryGraph';
import type { Library } from '../../server/src/library/libraryModel';

/** The graph of a library whose skills' details are at hand (none: its head only), files as `shown` writes them. */
export function libraryGraphOf(
  library: Library,
  details: ReadonlyMap<string, SkillDetails>,
  shown: (file: string) => string,
): LibraryGraph {
  return joinedGraph(
    library,
    library.skills.map((skill) => skillGraphPart(skill, details.get(skill.file), shown(skill.file))),
    shown,
  );
}
