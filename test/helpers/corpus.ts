import { join } from 'node:path';

/** The shared corpus sits beside the checkout, in development and in CI. */
export const CORPUS = join(__dirname, '..', '..', '..', 'shared', 'corpus');
