// skills-ref through its library, in one process, as a user would script it:
// every skill folder under the argument validated in turn with `validate`.
// Prints the number of skills and of problems found, as JSON.
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { skillDirs } from './floor.cjs';

const [peers, root] = process.argv.slice(2);
const { validate } = await import(
  pathToFileURL(path.join(peers, 'node_modules', 'skills-ref', 'dist', 'index.js')).href
);

let problems = 0;
const dirs = skillDirs(root);
for (const dir of dirs) problems += (await validate(dir)).length;
process.stdout.write(JSON.stringify({ skills: dirs.length, problems }) + '\n');
