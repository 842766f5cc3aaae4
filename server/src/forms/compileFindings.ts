import { defineRule } from '../checks/engine/rule';

export const compileTodo = defineRule({
  code: 'compile_todo',
  category: 'compile',
  severity: 'warning',
  summary: 'Something a compiled skill needs that the source does not say: marked TODO in the result.',
  stability: 'stable',
  formats: 'all',
});

export const compileUnsupported = defineRule({
  code: 'compile_unsupported',
  category: 'compile',
  severity: 'error',
  summary: 'Something in the source that the target form cannot express, so the compile would lose it.',
  stability: 'stable',
  formats: 'all',
});
