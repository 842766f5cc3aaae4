import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { LibraryIndex } from '../../../server/src/service/libraryIndex';
import { MemoryFileSystem } from '../../../server/src/workspace/memoryFileSystem';

const ROOT = '/workspace';
const headed = (name: string) => `---\nname: ${name}\ndescription: Does ${name}. Use when testing the library.\n---\n`;

test('the library is listed again when a SKILL.md whose frontmatter decides the skills below it gains or loses one', () => {
  const index = path.join(ROOT, 'office', 'SKILL.md');
  const fs = new MemoryFileSystem({
    [index]: '# Office skills\n',
    [path.join(ROOT, 'office', 'docx', 'SKILL.md')]: headed('docx'),
    [path.join(ROOT, 'office', 'xlsx', 'SKILL.md')]: headed('xlsx'),
  });
  const library = new LibraryIndex(fs, '/home/user', [ROOT]);
  const names = () => library.library().skills.map((skill) => skill.name);
  assert.deepEqual(names(), ['docx', 'xlsx']);
  // Changed in place (no file created or deleted): with frontmatter, the index is a skill holding the two.
  fs.write(index, headed('office'));
  library.fileChanged(index, false);
  assert.deepEqual(names(), ['office']);
  fs.write(index, '# Office skills\n');
  library.fileChanged(index, false);
  assert.deepEqual(names(), ['docx', 'xlsx']);
});
