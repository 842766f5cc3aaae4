import { qualifiedName, type Library, type LibrarySkill } from './libraryModel';

// The library as data another tool reads: JSON, and Cypher that loads into a graph database as it is, as many times as
// it is run (MERGE on each skill's path, under a uniqueness constraint).

export interface LibraryJson {
  version: 1;
  skills: { name: string; file: string; scope: string; description: string }[];
  edges: { from: string; to: string; kind: string }[];
}

/** `shown` turns an absolute path into the one printed (relative to where the command ran). */
export function libraryJson(library: Library, shown: (file: string) => string): LibraryJson {
  return {
    version: 1,
    skills: library.skills.map((skill) => ({
      name: qualifiedName(skill),
      file: shown(skill.file),
      scope: scopeName(skill),
      description: skill.description,
    })),
    edges: library.edges.map((edge) => ({ from: shown(edge.from), to: shown(edge.to), kind: edge.kind })),
  };
}

/**
 * A Cypher string literal: single-quoted, backslashes and quotes escaped, line breaks written as spaces (each statement
 * stays one line, and `\\n` is not an escape every Cypher engine reads).
 */
function literal(text: string): string {
  return `'${text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")}'`;
}

/**
 * Statements for Neo4j's `cypher-shell`: a constraint, one MERGE per skill (its properties set each run), one MERGE
 * per edge. Skills invoke (`INVOKES`, with how: `tool`, `slash`, `dollar`) or link to (`LINKS_TO`) each other.
 */
export function libraryCypher(library: Library, shown: (file: string) => string): string {
  const lines = ['CREATE CONSTRAINT skill_file IF NOT EXISTS FOR (s:Skill) REQUIRE s.file IS UNIQUE;'];
  for (const skill of library.skills)
    lines.push(
      `MERGE (s:Skill {file: ${literal(shown(skill.file))}}) SET s.name = ${literal(qualifiedName(skill))}, s.scope = ${literal(scopeName(skill))}, s.description = ${literal(skill.description)};`,
    );
  for (const edge of library.edges) {
    const relation = edge.kind === 'link' ? 'LINKS_TO' : 'INVOKES';
    const properties = edge.kind === 'link' ? '' : ` {how: ${literal(edge.kind)}}`;
    lines.push(
      `MATCH (a:Skill {file: ${literal(shown(edge.from))}}), (b:Skill {file: ${literal(shown(edge.to))}}) MERGE (a)-[:${relation}${properties}]->(b);`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function scopeName(skill: LibrarySkill): string {
  return skill.scope.kind === 'plugin' ? `plugin:${skill.scope.plugin}` : skill.scope.kind;
}
